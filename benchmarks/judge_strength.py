"""How strong the review's judge plays: duplicate matches against each of the simulator's bots.

Deal ``k`` is played twice, with the same cards and the same random streams for every seat:
once with the judge (:class:`~hearts_analysis.review.judge_bot.JudgeBot`, the review's default settings)
in seat ``k % 4`` against three of the baseline bot, once with the baseline bot itself in that
seat. Seats and pass directions (left, right, across, hold) rotate with ``k``. Standard rules,
a moon +26 to the others, each hand on its own (totals 0).

Reported per baseline: points per hand of the seat (judge, baseline, the paired difference with
its standard error), QS taken, moons shot and suffered, CPU seconds per judge decision, and
**calibration**: the cost the review (at the judge's settings) claims for the baseline's decisions in each hand (its
``Decision.cost``, summed over the seat's pass and plays) against the points the judge really
saves there (baseline minus judge), as the ratio of the two sums with its standard error (1 is
a review whose claims come true); and the same for the costs of the flagged decisions alone (an
unclear or unflagged decision's cost is an estimate the review does not stand behind; half the
claims, ``benchmarks/calibration_breakdown.py``).

    python benchmarks/judge_strength.py --hands 400 --baselines heuristic
    python benchmarks/judge_strength.py --hands 200 --mode passes --no-calibration
    python benchmarks/judge_strength.py --hands 400 --baselines heuristic --model guard
    python benchmarks/judge_strength.py --hands 250 --game-hands 4 --baselines classic --no-calibration
    python benchmarks/judge_strength.py --hands 100 --baselines ismcts --no-calibration

``ismcts`` is OpenSpiel's ISMCTS bot (``hearts_analysis.match.openspiel_player``, 2000 simulations a card
unless ``--ismcts-simulations N``; it needs ``pip install 'hearts-analysis[bench]'``), shown each
seat's view only, as in ``hearts match``. The ``ms/decision`` columns are wall-clock milliseconds per
decision of the seat (the judge's, then the baseline's, a pass counted as one decision).

With ``--game-hands N`` each deal is a game of N hands (the pass cycle from the deal's direction on),
played twice as above by the same bots (a bot that learns from the hands it has seen can show it), and
every figure is per hand.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import functools
import importlib.util
import json
import math
import random
import time
from dataclasses import dataclass
from multiprocessing import Pool

from hearts_analysis.cards import QS
from hearts_analysis.engine import replay_game
from hearts_analysis.engine.scoring import moon_shooter
from hearts_analysis.records.model import GameRecord
from hearts_analysis.review import Settings, review_game
from hearts_analysis.rules import Rules
from hearts_analysis.review.judge_bot import JudgeBot
from hearts_analysis.simulate import BOT_KINDS
from hearts_analysis.simulate.game import play_hand

from outside_bots import OUTSIDE_BOTS

BASELINES = {**BOT_KINDS, **OUTSIDE_BOTS, "ismcts": None}
"""The opponents a judge can be measured against: the simulator's bots, and players from outside them
(``ismcts``: OpenSpiel's, made for each deal's rules in :func:`one_deal`)."""
DIRECTIONS = ("left", "right", "across", "hold")
PLAYERS = ("north", "east", "south", "west")


class Clocked:
    """A bot whose decisions are timed by the wall clock into ``seconds`` (the baseline in the judge's seat)."""

    def __init__(self, bot, seconds: list):
        self.bot, self.seconds = bot, seconds

    def choose_pass(self, view, count):
        started = time.perf_counter()
        chosen = self.bot.choose_pass(view, count)
        self.seconds.append(time.perf_counter() - started)
        return chosen

    def choose_play(self, view, legal):
        started = time.perf_counter()
        card = self.bot.choose_play(view, legal)
        self.seconds.append(time.perf_counter() - started)
        return card


class Timed:
    """The judge (or the judge for one kind of decision, the baseline for the other), timed."""

    def __init__(self, judge: JudgeBot, baseline, mode: str, clock: dict):
        self.judge, self.baseline, self.mode, self.clock = judge, baseline, mode, clock

    def choose_pass(self, view, count):
        if self.mode == "plays":
            return self.baseline.choose_pass(view, count)
        started = time.process_time()
        chosen = self.judge.choose_pass(view, count)
        self.clock["pass"].append(time.process_time() - started)
        return chosen

    def choose_play(self, view, legal):
        if self.mode == "passes":
            return self.baseline.choose_play(view, legal)
        started = time.process_time()
        card = self.judge.choose_play(view, legal)
        if legal & (legal - 1):
            self.clock["play"].append(time.process_time() - started)
        return card


@dataclass
class Deal:
    k: int
    seat: int
    direction: str
    judge: int
    baseline: int
    judge_queen: bool
    baseline_queen: bool
    judge_shot: bool
    baseline_shot: bool
    judge_suffered: bool
    baseline_suffered: bool
    claimed: float | None
    flagged: float | None
    """The part of ``claimed`` on decisions the review flags (unclear and unflagged ones are the rest)."""
    plays: list
    passes: list
    hand: int = 1
    """The hand of deal ``k``'s game (``--game-hands``)."""
    judge_seconds: list = dataclasses.field(default_factory=list)
    baseline_seconds: list = dataclasses.field(default_factory=list)
    """Wall-clock seconds of each decision of the seat, in the judged game and in the baseline's."""


def _played(rules: Rules, k: int, seat: int, bots, seed: int, hands: int):
    """The game of deal ``k``: ``hands`` hands in a row by the same bots; per hand ``(points, QS taken, moon
    shot, moon suffered)`` of ``seat``."""
    table = rules.table(4)
    records, totals = [], (0, 0, 0, 0)
    for h in range(hands):
        rng = random.Random(f"{seed}:{k}" if h == 0 else f"{seed}:{k}:{h}")
        records.append(play_hand(table, h + 1, bots, rng, totals))
        totals = records[-1].totals
    game = GameRecord(players=PLAYERS, hands=tuple(records), rules=rules, rules_spec=rules.to_spec(),
                      game_id=f"duplicate-{seed}-{k}")
    rows = []
    for record, replayed in zip(records, replay_game(game).hands):
        shooter = moon_shooter(table, list(replayed.taken))
        rows.append((record.points[seat], bool(replayed.taken[seat] >> QS & 1), shooter == seat,
                     shooter not in (None, seat)))
    return game, rows


def one_deal(job) -> list[Deal]:
    k, baseline, mode, seed, calibrate, settings, hands, simulations = job
    seat = k % 4
    cycle = [DIRECTIONS[(k // 4 + h) % 4] for h in range(4)]
    rules = Rules.preset("standard", pass_cycle=cycle)
    factory = BASELINES[baseline]
    if baseline == "ismcts":
        from hearts_analysis.match.openspiel_player import OpenSpielBot
        factory = functools.partial(OpenSpielBot, f"ismcts:{simulations}", rules)
    clock = {"pass": [], "play": []}
    walls = {True: [], False: []}

    def bots(judged: bool):
        seats = [factory(random.Random(f"{seed}:{k}:{s}")) for s in range(4)]
        if judged:
            seats[seat] = Clocked(Timed(JudgeBot(random.Random(0), settings), seats[seat], mode, clock), walls[True])
        else:
            seats[seat] = Clocked(seats[seat], walls[False])
        return seats

    _, judged = _played(rules, k, seat, bots(True), seed, hands)
    game, played = _played(rules, k, seat, bots(False), seed, hands)
    claimed: list = [None] * hands
    flagged: list = [None] * hands
    if calibrate:
        decisions = [d for d in review_game(game, settings, seats=[seat]).decisions
                     if mode == "all" or (d.kind == "pass") == (mode == "passes")]
        claimed = [sum(d.cost for d in decisions if d.hand == h + 1) for h in range(hands)]
        flagged = [sum(d.cost for d in decisions if d.hand == h + 1 and d.category) for h in range(hands)]
    return [Deal(k, seat, cycle[h % 4], j[0], b[0], j[1], b[1], j[2], b[2], j[3], b[3], claimed[h], flagged[h],
                 clock["play"] if h == 0 else [], clock["pass"] if h == 0 else [], h + 1,
                 walls[True] if h == 0 else [], walls[False] if h == 0 else [])
            for h, (j, b) in enumerate(zip(judged, played))]


def _mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else float("nan")
    return mean, math.sqrt(var / n)


def calibration(claimed: list[float], saved: list[float]) -> tuple[float, float]:
    """Sum of the points saved over the sum of the costs claimed, and its standard error (delta method)."""
    n = len(claimed)
    mean_claimed = sum(claimed) / n
    if mean_claimed <= 0:
        return float("nan"), float("nan")
    ratio = sum(saved) / sum(claimed)
    residual = [s - ratio * c for s, c in zip(saved, claimed)]
    _, se = _mean_se(residual)
    return ratio, se / mean_claimed


def report(baseline: str, deals: list[Deal], mode: str) -> str:
    n = len(deals)
    diff, se = _mean_se([d.judge - d.baseline for d in deals])
    judge = sum(d.judge for d in deals) / n
    base = sum(d.baseline for d in deals) / n
    plays = [t for d in deals for t in d.plays]
    passes = [t for d in deals for t in d.passes]
    cells = [baseline, mode, str(n), f"{judge:.2f}", f"{base:.2f}", f"{diff:+.2f} \u00b1 {se:.2f}",
             f"{-100 * diff / base:.0f}%" if base else "-",
             f"{sum(d.judge_queen for d in deals) / n:.0%} / {sum(d.baseline_queen for d in deals) / n:.0%}",
             f"{sum(d.judge_shot for d in deals)} / {sum(d.baseline_shot for d in deals)}",
             f"{sum(d.judge_suffered for d in deals)} / {sum(d.baseline_suffered for d in deals)}",
             f"{1000 * sum(plays) / len(plays):.0f}" if plays else "-",
             f"{1000 * sum(passes) / len(passes):.0f}" if passes else "-", _ms(deals, "judge_seconds"),
             _ms(deals, "baseline_seconds")]
    if deals[0].claimed is not None:
        claimed = [d.claimed for d in deals]
        ratio, ratio_se = calibration(claimed, [d.baseline - d.judge for d in deals])
        cells.append(f"{sum(claimed) / n:.2f}")
        cells.append(f"{ratio:.2f} \u00b1 {ratio_se:.2f}")
        flagged = [d.flagged for d in deals]
        ratio, ratio_se = calibration(flagged, [d.baseline - d.judge for d in deals])
        cells.append(f"{sum(flagged) / n:.2f}")
        cells.append(f"{ratio:.2f} \u00b1 {ratio_se:.2f}")
    return "| " + " | ".join(cells) + " |"


def _ms(deals: list[Deal], name: str) -> str:
    seconds = [t for d in deals for t in getattr(d, name)]
    return f"{1000 * sum(seconds) / len(seconds):.0f}" if seconds else "-"


HEADER = ("| baseline | judge plays | hands | judge pts/hand | baseline pts/hand | judge minus baseline | fewer "
          "| QS taken (judge / baseline) | moons shot | moons suffered | ms/play | ms/pass | judge ms/decision "
          "| baseline ms/decision")


def _field(item: str) -> tuple[str, object]:
    """``FIELD=VALUE`` of ``--set``: the value as a Python literal, else as text."""
    name, _, text = item.partition("=")
    if name not in {f.name for f in dataclasses.fields(Settings)}:
        raise SystemExit(f"--set {item}: Settings has no field {name!r}")
    try:
        return name, ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return name, text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="deals per baseline (each played twice)")
    parser.add_argument("--game-hands", type=int, default=1,
                        help="hands in each deal's game, played by the same bots")
    parser.add_argument("--baselines", default="heuristic,random,mixed",
                        help=f"comma-separated opponents ({', '.join(BASELINES)}; classic: benchmarks/outside_bots.py; "
                             "ismcts: OpenSpiel's, needs pip install 'hearts-analysis[bench]')")
    parser.add_argument("--mode", choices=("all", "plays", "passes"), default="all",
                        help="the judge makes every decision, or only its plays, or only its passes")
    parser.add_argument("--ismcts-simulations", type=int, default=2000, metavar="N",
                        help="simulations a card of the ismcts baseline (OpenSpiel's ISMCTS; default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-calibration", action="store_true", help="skip reviewing the baseline's hands")
    parser.add_argument("--dump", default=None, help="also write one JSON line per deal here (to pair runs)")
    parser.add_argument("--identify", default=",".join(Settings.identify),
                        help="the judge's Settings.identify: the rollout players each other seat's is read from "
                             "(none: every other seat plays Settings.model)")
    parser.add_argument("--infer", default="",
                        help="the judge's Settings.infer: a rollout player, or several joined by commas (basic,strong)")
    parser.add_argument("--mix", default="", help="the judge's Settings.mix, e.g. strong")
    parser.add_argument("--model", default=Settings.model, help="the judge's Settings.model (its rollout player)")
    parser.add_argument("--samples", type=int, default=Settings.samples, help="the judge's Settings.samples")
    parser.add_argument("--pass-samples", type=int, default=None, help="the judge's Settings.pass_samples")
    parser.add_argument("--exact-tricks", type=int, default=Settings.exact_tricks,
                        help="the judge's Settings.exact_tricks (tricks left at which rollouts search exactly)")
    parser.add_argument("--own-model", default=Settings.own_model,
                        help="the judge's Settings.own_model (the rollout player of its own later plays; none: "
                             "the same as the others')")
    parser.add_argument("--level", choices=("corpus", "deep"),
                        help="start from a review level's settings (hearts_analysis.review.levels) instead of the "
                             "options above; --set still applies")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="any other field of the judge's Settings, e.g. --set pass_finalists=16 (a Python literal)")
    args = parser.parse_args()
    chosen = args.baselines.split(",")
    unknown = [b for b in chosen if b not in BASELINES]
    if unknown:
        parser.exit(2, f"--baselines: unknown {', '.join(unknown)} (known: {', '.join(BASELINES)})\n")
    if "ismcts" in chosen and importlib.util.find_spec("pyspiel") is None:
        parser.exit(2, "--baselines ismcts: OpenSpiel is not installed: pip install 'hearts-analysis[bench]'\n")
    if args.ismcts_simulations < 1:
        parser.exit(2, "--ismcts-simulations: at least 1\n")
    settings = Settings(model=args.model, samples=args.samples, pass_samples=args.pass_samples,
                        mix=tuple(m for m in args.mix.split(",") if m),
                        identify=tuple(m for m in args.identify.split(",") if m and args.identify != "none"),
                        infer=(None if not args.infer else args.infer if "," not in args.infer
                               else tuple(args.infer.split(","))), exact_tricks=args.exact_tricks,
                        own_model=None if args.own_model == "none" else args.own_model)
    if args.level:
        from hearts_analysis.review.levels import settings_at
        settings = settings_at(args.level)
    settings = dataclasses.replace(settings, **dict(_field(item) for item in args.set))
    print(f"judge settings: samples={settings.samples}, pass deals={settings.pass_deals}, model={settings.model}, "
          f"mix={settings.mix}, identify={settings.identify}, infer={settings.infer}, "
          f"exact tricks={settings.exact_tricks}, own model={settings.own_model}; the review that claims costs: the same "
          f"settings")
    calibrate = not args.no_calibration
    print(HEADER + (" | claimed cost/hand | calibration (saved / claimed) "
                    "| claimed by flags/hand | calibration of the flags |" if calibrate else " |"))
    print("|" + "---|" * (14 + 4 * calibrate))
    started = time.perf_counter()
    for baseline in chosen:
        jobs = [(k, baseline, args.mode, args.seed, calibrate, settings, args.game_hands, args.ismcts_simulations)
                for k in range(args.hands)]
        if args.workers > 1:
            with Pool(args.workers) as pool:
                games = pool.map(one_deal, jobs, chunksize=4)
        else:
            games = [one_deal(job) for job in jobs]
        deals = [deal for game in games for deal in game]
        print(report(baseline, deals, args.mode), flush=True)
        if args.dump:
            with open(args.dump, "a", encoding="utf-8") as out:
                for deal in deals:
                    out.write(json.dumps({"baseline_bot": baseline, **dataclasses.asdict(deal)}) + "\n")
    print(f"\n({time.perf_counter() - started:.0f} s wall clock; ms/play and ms/pass are CPU milliseconds per "
          "unforced judge decision, ms/decision wall-clock milliseconds per decision of the seat; moons are counts"
          + (f"; ismcts: {args.ismcts_simulations} simulations a card" if "ismcts" in chosen else "") + ")")


if __name__ == "__main__":
    main()
