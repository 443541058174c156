"""How far a review can be trusted: do its verdicts hold across seeds, budgets and models?

Every figure is measured on hands the review was never tuned on (games simulated from a seed
no test or benchmark uses), all four seats, passes and plays apart:

- class agreement between two seeds: on every unforced decision, and on those flagged in either,
  with why the class differs where it does (:func:`flip_causes`);
- with ``--curve``, only that agreement at larger budgets and samples, and the time it takes;
- better card (or pass) agreement between seeds, where either run found a cost above its margin;
- flags moved by a larger budget (``--budget-factor`` times the samples and the budget);
- decisions left unclear, and of them those where the two rollout players disagree;
- flagged decisions with a reason in words (every one should have one);
- the default rollout player against the other one (each alone, on the same deals): cost
  correlation, better choice, class when flagged, for plays and passes;
- with ``--bots``: the review with the simulator's HeuristicBot playing the rollouts, against the
  default rollout player on the same deals (cost correlation, best card, class when flagged);
- with ``--pass-deals``: whether each flagged pass's better pass really is better when the hand
  is played out by the heuristic bots and by the other rollout player (other models than the
  review's), and the cost under the bots;
- contradictions between the passing advice and the review: a flagged pass whose better pass
  breaks advice the played pass kept;
- seconds per hand at the default settings (CPU time of this process).

    python benchmarks/review_quality.py --hands 32
    python benchmarks/review_quality.py --hands 8 --bots 40
    python benchmarks/review_quality.py --hands 40 --curve
"""

from __future__ import annotations

import argparse
import pickle
import random
import time
from dataclasses import replace

import numpy as np

from hearts_analysis.analysis.passes import advise
from hearts_analysis.cards import mask_of
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.engine.scoring import moon_points, moon_shooter, raw_points
from hearts_analysis.review import Settings, review_game
from hearts_analysis.review.evaluate import BLUNDER, INACCURACY, MISTAKE
from hearts_analysis.review.information_set import before_pass
from hearts_analysis.review.policy import MODELS, OTHER_MODEL
from hearts_analysis.review.rollout import pass_out
from hearts_analysis.review.sampling import sample_hands
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, simulate_games
from hearts_analysis.simulate.play import HandPlay

UNSEEN_SEED = 20261201
"""Games no test or tuning run has used."""


def hands_of(count: int, seed: int) -> list[tuple]:
    jobs = []
    for game in simulate_games(count, Rules.preset("standard"), 4, seed=seed):
        for number in range(1, len(game.hands) + 1):
            if len(jobs) == count:
                return jobs
            jobs.append((game, number))
    return jobs


def reviewed(jobs, settings: Settings) -> tuple[dict, float]:
    """Every decision by ``(game, hand, seat, kind, trick)``, and CPU seconds per hand."""
    decisions = {}
    start = time.process_time()
    for game, number in jobs:
        for d in review_game(game, settings, hands=[number]).decisions:
            if not d.forced:
                decisions[(game.game_id, d.hand, d.seat, d.kind, d.trick)] = d
    return decisions, (time.process_time() - start) / max(1, len(jobs))


def _share(hits: int, total: int) -> str:
    return f"{100 * hits / total:5.1f}% of {total}" if total else "   - (none)"


def flagged(d) -> bool:
    return d.category is not None


def agreement(a: dict, b: dict, kind: str) -> dict[str, str]:
    keys = [k for k in a if k[3] == kind and k in b]
    either = [k for k in keys if flagged(a[k]) or flagged(b[k])]
    costly = [k for k in keys if a[k].cost > a[k].margin or b[k].cost > b[k].margin]
    return {
        "class agrees": _share(sum(a[k].category == b[k].category for k in keys), len(keys)),
        "class agrees, flagged in either": _share(sum(a[k].category == b[k].category for k in either), len(either)),
        "better choice agrees (cost > margin in either)": _share(sum(a[k].best == b[k].best for k in costly),
                                                                  len(costly)),
    }


THRESHOLDS = (INACCURACY, MISTAKE, BLUNDER)
NEAR = 0.5
"""Points from a class threshold within which both runs' costs count as on the threshold."""


def flip_causes(a: dict, b: dict, kind: str) -> str:
    """Why the class differs between two runs, of the decisions flagged in either: a different better
    choice; the other rollout player vetoes the flag in one run only; both costs within :data:`NEAR`
    of one class threshold (the cost sits on the threshold, so its class turns on the deals drawn
    however many); anything else."""
    causes = dict.fromkeys(("different better choice", "vetoed in one run", "cost on a threshold", "other"), 0)
    for k in a:
        x, y = a[k], b.get(k)
        if k[3] != kind or y is None or not (flagged(x) or flagged(y)) or x.category == y.category:
            continue
        vetoed = [d.unclear and d.other_cost is not None for d in (x, y)]
        if x.best != y.best:
            causes["different better choice"] += 1
        elif vetoed[0] != vetoed[1]:
            causes["vetoed in one run"] += 1
        elif any(abs(x.cost - t) <= NEAR and abs(y.cost - t) <= NEAR for t in THRESHOLDS):
            causes["cost on a threshold"] += 1
        else:
            causes["other"] += 1
    return ", ".join(f"{name} {count}" for name, count in causes.items())


def flag_drift(small: dict, large: dict, kind: str) -> str:
    few = sum(flagged(d) for k, d in small.items() if k[3] == kind)
    many = sum(flagged(d) for k, d in large.items() if k[3] == kind)
    return f"{few} -> {many} flags ({100 * (many - few) / few:+.0f}%)" if few else f"{few} -> {many} flags"


def bot_comparison(jobs, settings: Settings, limit: int) -> dict[str, str]:
    """The default rollout player against HeuristicBot rollouts, on the same deals (plays only)."""
    fast, slow = {}, {}
    bots = replace(settings, bot=HeuristicBot)
    for game, number in jobs:
        for seat in range(game.seats):
            if len(fast) >= limit:
                break
            one = review_game(game, settings, seats=[seat], hands=[number])
            other = review_game(game, bots, seats=[seat], hands=[number])
            for d, e in zip(one.decisions, other.decisions):
                if d.kind == "play" and not d.forced:
                    fast[(game.game_id, d.hand, d.seat, d.kind, d.trick)] = d
                    slow[(game.game_id, d.hand, d.seat, d.kind, d.trick)] = e
    return model_comparison(fast, slow, "play")


def model_comparison(a: dict, b: dict, kind: str) -> dict[str, str]:
    """Two reviews of the same decisions on the same deals with different rollout players."""
    keys = [k for k in a if k[3] == kind and k in b]
    either = [k for k in keys if flagged(a[k]) or flagged(b[k])]
    costs = np.array([[a[k].cost, b[k].cost] for k in keys]) if keys else np.zeros((0, 2))
    corr = float(np.corrcoef(costs.T)[0, 1]) if len(keys) > 2 else float("nan")
    return {
        "cost correlation": f"{corr:.2f} over {len(keys)}",
        "better choice agrees": _share(sum(a[k].best == b[k].best for k in keys), len(keys)),
        "class agrees when flagged": _share(sum(a[k].category == b[k].category for k in either), len(either)),
    }


def _hand_points(table, play) -> list[int]:
    public = play.public
    shooter = moon_shooter(table, public.taken)
    if shooter is None:
        return [raw_points(table, t, w) for t, w in zip(public.taken, public.tricks_won)]
    return list(moon_points(table, public.taken, shooter, "add_to_others"))


def pass_under_bots(game, number: int, seat: int, options: list[int], deals: int, seed: int) -> np.ndarray:
    """``(options, deals)`` points of ``seat`` passing each option, the hand played out by heuristic bots
    on deals of the hidden cards (the same deals and bot seeds for every option)."""
    table = game.rules.table(game.seats)
    result = replay_game(game).hands[number - 1]
    dealt = mask_of(game.hands[number - 1].deal[seat])
    rng = np.random.default_rng([seed, number, seat])
    hands = sample_hands(before_pass(table, seat, dealt), deals, rng)
    count, offset = table.rules.pass_count, table.pass_offset(result.pass_direction)
    points = np.zeros((len(options), deals))
    for i, row in enumerate(hands.tolist()):
        for a, option in enumerate(options):
            bots = [HeuristicBot(random.Random(f"{seed}:{i}:{s}")) for s in range(game.seats)]
            play = HandPlay(table, row, number, result.dealer, (0,) * game.seats, result.pass_direction)
            given = [option if s == seat else bots[s].choose_pass(play.views[s], count) for s in range(game.seats)]
            play.exchange(given, offset)
            play.start()
            play.play_out(bots)
            points[a, i] = _hand_points(table, play)[seat]
    return points


def pass_under_model(game, number: int, seat: int, options: list[int], deals: int, seed: int,
                     model: str) -> np.ndarray:
    """``(options, deals)`` points of ``seat`` passing each option, the hand played out by the rollout
    player ``model`` on fresh deals of the hidden cards."""
    table = game.rules.table(game.seats)
    result = replay_game(game).hands[number - 1]
    dealt = mask_of(game.hands[number - 1].deal[seat])
    hands = sample_hands(before_pass(table, seat, dealt), deals, np.random.default_rng([seed, number, seat]))
    return pass_out(table, seat, hands, result.pass_direction, options, result.dealer,
                    model=MODELS[model]).points[:, :, seat]


def pass_check(jobs, decisions: dict, deals: int, model: str) -> dict[str, str]:
    """Flagged passes: is the better pass better when the hand is played out by another model (the
    heuristic bots, and the other rollout player)?"""
    games = {game.game_id: game for game, _ in jobs}
    wins = model_wins = total = 0
    costs, review_costs = [], []
    for key, d in decisions.items():
        if key[3] != "pass" or not flagged(d):
            continue
        options = [mask_of(d.played), mask_of(d.best)]
        points = pass_under_bots(games[key[0]], d.hand, d.seat, options, deals, 7)
        cost = float((points[0] - points[1]).mean())
        other = pass_under_model(games[key[0]], d.hand, d.seat, options, 16 * deals, 7, model)
        wins += cost > 0
        model_wins += float((other[0] - other[1]).mean()) > 0
        total += 1
        costs.append(cost)
        review_costs.append(d.cost)
    corr = float(np.corrcoef(costs, review_costs)[0, 1]) if total > 2 else float("nan")
    return {"better pass is better under heuristic bots": _share(wins, total),
            f"better pass is better under the {model} rollout player": _share(model_wins, total),
            "mean cost under the bots (review's mean)": f"{np.mean(costs) if costs else 0:.2f} "
                                                        f"({np.mean(review_costs) if costs else 0:.2f})",
            "cost correlation, review vs bots": f"{corr:.2f}"}


def contradictions(jobs, decisions: dict) -> str:
    """Flagged passes whose better pass breaks advice the played pass kept."""
    games = {game.game_id: game for game, _ in jobs}
    found = total = 0
    for key, d in decisions.items():
        if key[3] != "pass" or not flagged(d):
            continue
        game = games[key[0]]
        direction = replay_game(game).hands[d.hand - 1].pass_direction
        dealt = mask_of(game.hands[d.hand - 1].deal[d.seat])
        kept = {v.code for v in advise(dealt, mask_of(d.played), direction)}
        found += any(v.code not in kept for v in advise(dealt, mask_of(d.best), direction))
        total += 1
    return _share(found, total)


CURVE = (("default", {}), ("2x budget", {"budget": 2}), ("4x budget", {"budget": 4}),
         ("4x budget, 2x samples, no early tolerance", {"budget": 4, "samples": 2, "early_tolerance": 0}))
"""The settings ``--curve`` compares: factors of the default budget and samples, and the early tolerance."""


def curve(jobs, default: Settings) -> None:
    """Agreement between two seeds against the time spent: does more sampling settle the classes?"""
    print("\nagreement between two seeds, flagged in either, against the deals spent")
    for name, change in CURVE:
        settings = replace(default, budget=default.budget * change.get("budget", 1),
                           samples=default.samples * change.get("samples", 1),
                           early_tolerance=change.get("early_tolerance", default.early_tolerance))
        one, seconds = reviewed(jobs, settings)
        two, _ = reviewed(jobs, replace(settings, seed=settings.seed + 1))
        print(f"  {name} ({seconds:.2f} s per hand)")
        for kind in ("play", "pass"):
            shares = agreement(one, two, kind)
            label = "plays:" if kind == "play" else "passes:"
            print(f"    {label:<7} class {shares['class agrees, flagged in either']}, better choice "
                  f"{shares['better choice agrees (cost > margin in either)']}; class differs: "
                  f"{flip_causes(one, two, kind)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=32)
    parser.add_argument("--seed", type=int, default=UNSEEN_SEED, help="seed of the simulated games")
    parser.add_argument("--budget-factor", type=int, default=4)
    parser.add_argument("--pass-deals", type=int, default=0, metavar="N",
                        help="play each flagged pass and its better pass out with heuristic bots on N deals "
                             "(and with the other rollout player on 16 N)")
    parser.add_argument("--bots", type=int, default=0, metavar="N",
                        help="also compare with HeuristicBot rollouts on N plays (slow: one deal at a time)")
    parser.add_argument("--infer", default=None, metavar="MODEL",
                        help="weight the deals by the others' plays under this rollout player")
    parser.add_argument("--no-confirm", action="store_true", help="flag on the default model alone")
    parser.add_argument("--no-models", action="store_true", help="skip the review with the other rollout player")
    parser.add_argument("--curve", action="store_true",
                        help="only the agreement between two seeds at larger budgets and samples (slow)")
    parser.add_argument("--dump", metavar="FILE", help="also pickle the decisions of the three runs (seed, other seed, "
                                                      "larger budget) to FILE, for a closer look")
    args = parser.parse_args()
    jobs = hands_of(args.hands, args.seed)
    default = Settings(infer=args.infer, confirm=not args.no_confirm)
    if args.curve:
        return curve(jobs, default)
    other_model = OTHER_MODEL[default.model]
    one, seconds = reviewed(jobs, default)
    two, _ = reviewed(jobs, replace(default, seed=default.seed + 1))
    large, _ = reviewed(jobs, replace(default, samples=default.samples * args.budget_factor,
                                      budget=default.budget * args.budget_factor))
    if args.dump:
        with open(args.dump, "wb") as out:
            pickle.dump({"one": one, "two": two, "large": large}, out)
    counts = {kind: sum(k[3] == kind for k in one) for kind in ("play", "pass")}
    print(f"{len(jobs)} hands (games of seed {args.seed}), all four seats: {counts['play']} unforced plays, "
          f"{counts['pass']} passes; seconds per 4-seat hand at the default settings: {seconds:.2f} CPU")
    print(f"settings: confirm={default.confirm} infer={default.infer} model={default.model}")
    alone = dict(one)
    if not args.no_models:
        alone, _ = reviewed(jobs, replace(default, confirm=False)) if default.confirm else (one, 0)
        others, _ = reviewed(jobs, replace(default, model=other_model, confirm=False))
    for kind in ("play", "pass"):
        print(f"\n{kind}es" if kind == "pass" else f"\n{kind}s")
        for name, value in agreement(one, two, kind).items():
            print(f"  {name:<56} {value}")
        print(f"  {'why the class differs, flagged in either':<56} {flip_causes(one, two, kind)}")
        print(f"  {'flags at ' + str(args.budget_factor) + 'x the samples and budget':<56} "
              f"{flag_drift(one, large, kind)}")
        unclear = sum(d.unclear for k, d in one.items() if k[3] == kind)
        vetoed = sum(d.unclear and d.other_cost is not None for k, d in one.items() if k[3] == kind)
        print(f"  {'unclear (of them: the models disagree)':<56} {unclear} ({vetoed})")
        flags = [d for k, d in one.items() if k[3] == kind and flagged(d)]
        print(f"  {'flagged decisions with a reason in words':<56} {_share(sum(bool(d.reason) for d in flags), len(flags))}")
        if not args.no_models:
            for name, value in model_comparison(alone, others, kind).items():
                print(f"  {default.model + ' vs ' + other_model + ' rollouts: ' + name:<56} {value}")
    print(f"  {'contradictions: better pass breaks kept advice':<56} {contradictions(jobs, one)}")
    if args.pass_deals:
        for name, value in pass_check(jobs, one, args.pass_deals, other_model).items():
            print(f"  {name:<56} {value}")
    if args.bots:
        print("\nplays: default rollouts against HeuristicBot rollouts (same deals)")
        for name, value in bot_comparison(jobs, default, args.bots).items():
            print(f"  {name:<56} {value}")


if __name__ == "__main__":
    main()
