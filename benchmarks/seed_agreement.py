"""Do two seeds name the same better choice? The review of one records file under two seeds, compared
decision by decision.

    python benchmarks/seed_agreement.py games.jsonl --seeds 0 1

For the unforced decisions flagged in either review, the share where both name the same better card
(or pass), by kind. Reviews run at the deep level, without the cache, as ``hearts review`` does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def review(path: Path, seed: int, out: Path) -> dict:
    subprocess.run([sys.executable, "-m", "hearts_analysis", "review", str(path), "--level", "deep", "--seed",
                    str(seed), "--no-cache", "-f", "json", "-o", str(out)], check=True)
    return json.loads(out.read_text())


def decisions(report: dict) -> dict[tuple, dict]:
    """The unforced decisions of a review's JSON, keyed by where they were taken."""
    return {(game["game_id"], d["hand"], d["kind"], d["trick"], d["seat"], tuple(d["played"])
             if isinstance(d["played"], list) else d["played"]): d
            for game in report["games"] for d in game["decisions"] if not d["forced"]}


def flagged(decision: dict) -> bool:
    return decision["class"] is not None and not decision["unclear"]


def agreement(a: dict[tuple, dict], b: dict[tuple, dict], kind: str | None = None) -> dict:
    """Counts of the decisions of ``kind`` (all with None) flagged in either review, and how many of them
    name the same better choice in both."""
    keys = [k for k in a if k in b and (kind is None or k[2] == kind)]
    either = [k for k in keys if flagged(a[k]) or flagged(b[k])]
    same = sum(sorted(a[k]["best"]) == sorted(b[k]["best"]) if isinstance(a[k]["best"], list)
               else a[k]["best"] == b[k]["best"] for k in either)
    return {"unforced": len(keys), "flagged": [sum(flagged(a[k]) for k in keys), sum(flagged(b[k]) for k in keys)],
            "either": len(either), "both": sum(flagged(a[k]) and flagged(b[k]) for k in either),
            "same_best": same, "share": same / len(either) if either else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=Path)
    parser.add_argument("--seeds", type=int, nargs=2, default=(0, 1))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        a, b = (decisions(review(args.games, seed, Path(tmp, f"{seed}.json"))) for seed in args.seeds)
    print("| decisions | unforced | flagged (seed a / b) | flagged in either | same better choice |")
    print("|---|---|---|---|---|")
    for kind in ("play", "pass", None):
        r = agreement(a, b, kind)
        share = f"{100 * r['share']:.1f}%" if r["share"] is not None else "-"
        print(f"| {kind or 'all'} | {r['unforced']} | {r['flagged'][0]} / {r['flagged'][1]} | {r['either']} | "
              f"{r['same_best']} ({share}) |")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
