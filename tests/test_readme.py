"""The README's Python examples run, in order, on the games in examples/."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)


def test_the_readme_has_python_for_audit_corpus_stats_analysis_and_review():
    code = "\n".join(python_blocks())
    for call in ("replay_game(", "read_corpus(", 'corpus["plays"]', "tally_paths(", "analyze_paths(",
                 "review_game("):
        assert call in code


def test_every_python_block_of_the_readme_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for number, block in enumerate(python_blocks(), 1):
        exec(compile(block, f"README.md python block {number}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "Corpus(games=2, hands=16, errors=0; tables: games, hands, plays, passes, deals, errors)" in printed
    assert "wrong-first-lead" in printed
    corpus = namespace["corpus"]
    assert set(namespace["tables"]) == {"games", "hands", "plays", "passes", "deals", "errors"}
    assert namespace["tables"]["plays"] is corpus.plays
