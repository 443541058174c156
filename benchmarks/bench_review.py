"""How fast the review runs: seconds per hand (every pass and play of all seats) and decisions/second
on one core, at the default settings, with ratios to baselines measured in the same run.

Baselines: the reference replay of the same hands (the floor of any per-hand work), and the
same decisions reviewed with the simulator's HeuristicBot playing the rollouts one deal at a
time (what the numpy lanes replace). Times are CPU seconds of this process.

    python benchmarks/bench_review.py --hands 8 --samples 200
    python benchmarks/bench_review.py --hands 4 --compare
    python benchmarks/bench_review.py --long-game 30 --samples 20

``--long-game N`` instead reviews one game of N hands whole, as ``hearts review`` does (``review_items``),
where replaying the game once per hand would cost O(N²) replays; run it under two versions of the code
with ``farm-bench --vs`` for a ratio.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import replace

from hearts_analysis.engine.replay import Running, replay_hand
from hearts_analysis.review import Settings, review_game
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import HeuristicBot, simulate_games


def cpu(run):
    start = time.process_time()
    value = run()
    return time.process_time() - start, value


def _replay(game, number):
    """The reference replay of hand ``number`` alone."""
    table = game.rules.table(game.seats)
    running = Running(game.seats)
    running.totals = game.hands[number - 2].totals if number > 1 else (0,) * game.seats
    return replay_hand(table, number, game.hands[number - 1], game.players, running)


def long_game(hands: int, settings: Settings, seed: int) -> None:
    from hearts_analysis.records.errors import Item
    from hearts_analysis.review.batch import review_items
    from hearts_analysis.simulate import simulate_game

    rules = replace(Rules.preset("standard"), target=10_000)
    game = simulate_game(rules, ["ann", "bob", "cy", "dee"], seed=seed, max_hands=hands)
    seconds, [done] = cpu(lambda: list(review_items([Item("long", game)], settings)))
    print(f"one game of {len(game.hands)} hands reviewed whole: {seconds:.2f} s, "
          f"{seconds / len(game.hands):.3f} s per hand, {len(done.review.decisions)} decisions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8, help="hands to review (whole hands, all four seats)")
    parser.add_argument("--samples", type=int, default=Settings.samples)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--pass-samples", type=int, default=None, help="default: the review's (Settings.pass_deals)")
    parser.add_argument("--bot-decisions", type=int, default=3, help="decisions for the bot-rollout baseline")
    parser.add_argument("--model", default=Settings.model, help="the rollout player: strong or basic")
    parser.add_argument("--compare", action="store_true",
                        help="also time the same hands without the second model and with inferred deals")
    parser.add_argument("--long-game", type=int, default=None, metavar="N",
                        help="review one game of N hands whole instead (a high target keeps it going)")
    args = parser.parse_args()
    settings = Settings(samples=args.samples, seed=args.seed, model=args.model, pass_samples=args.pass_samples)
    rules = Rules.preset("standard")
    if args.long_game:
        return long_game(args.long_game, settings, args.seed)

    jobs = []
    for game in simulate_games(50, rules, 4, seed=args.seed):
        for number in range(1, len(game.hands) + 1):
            jobs.append((game, number))
            if len(jobs) == args.hands:
                break
        if len(jobs) == args.hands:
            break
    review_game(jobs[0][0], Settings(samples=20), hands=[1])  # warm the caches and imports

    per_hand, decisions = [], []
    wall = time.perf_counter()
    for game, number in jobs:
        seconds, review = cpu(lambda: review_game(game, settings, hands=[number]))
        per_hand.append(seconds)
        decisions.extend(review.decisions)
    wall = time.perf_counter() - wall
    replay_seconds, _ = cpu(lambda: [_replay(game, number) for game, number in jobs])

    total = sum(per_hand)
    unforced = [d for d in decisions if not d.forced]
    passes = [d for d in decisions if d.kind == "pass"]
    lanes = sum(d.samples * len(d.options) for d in unforced)
    print(f"review at default settings: {args.samples} sampled deals per decision, exact search for the last "
          f"{settings.exact_tricks} tricks; passes screened on {settings.pass_screen_samples} deals, "
          f"{settings.pass_finalists} finalists")
    print(f"hands reviewed: {len(jobs)} (all four seats, {len(passes)} passes)")
    print(f"decisions: {len(decisions)} ({len(unforced)} unforced), {lanes:,} rollouts (deal x alternative)")
    print(f"seconds per hand: mean {statistics.mean(per_hand):.3f}, max {max(per_hand):.3f} "
          f"(goal <= 2.0: {'met' if max(per_hand) <= 2.0 else 'NOT met'}; wall clock mean "
          f"{wall / len(jobs):.3f} on a machine shared with other work)")
    print(f"hands near the target (winning chances computed): "
          f"{len({d.hand for d in decisions if d.win_chance is not None})}")
    print(f"decisions per second: {len(decisions) / total:.1f} ({len(unforced) / total:.1f} unforced)")
    print(f"rollouts per second: {lanes / total:,.0f}")

    # what the trust features cost, on the same hands in the same run
    for name, other in (("without the second model's confirmation", replace(settings, confirm=False)),
                        ("with deals weighted by the others' plays", replace(settings, infer="strong"))):
        if args.compare:
            seconds = sum(cpu(lambda: review_game(game, other, hands=[number]))[0] for game, number in jobs)
            print(f"{name}: {seconds / len(jobs):.3f} s per hand; the default takes {total / seconds:.2f}x "
                  f"that time")

    # baseline 1: replaying the same hands
    print(f"ratio to the reference replay of the same hands: {total / replay_seconds:,.0f}x its time")

    # baseline 2: the same decisions with bot rollouts, one deal at a time
    sample = [d for d in unforced if d.kind == "play"][: args.bot_decisions]
    bot_settings = Settings(samples=args.samples, seed=args.seed, bot=HeuristicBot)  # the model is unused
    fast_time = bot_time = 0.0
    for decision in sample:
        game = next(g for g, n in jobs if n == decision.hand)
        fast, _ = cpu(lambda: review_game(game, settings, seats=[decision.seat], hands=[decision.hand]))
        slow, _ = cpu(lambda: review_game(game, bot_settings, seats=[decision.seat], hands=[decision.hand]))
        fast_time += fast
        bot_time += slow
    if sample:
        print(f"bot rollouts (HeuristicBot, one deal at a time) on {len(sample)} seat-hands: "
              f"{bot_time:.2f} s against {fast_time:.2f} s: numpy lanes are {bot_time / fast_time:.0f}x faster")


if __name__ == "__main__":
    main()
