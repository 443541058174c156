"""Where the review's claimed costs come from, and which of them come true against the real players.

The hands are played by the baseline bot in every seat on the streams ``judge_strength.py`` seeds
(deal ``k``, seat ``k % 4``, the direction turning every four deals; the benchmark's own schedule now
turns the direction every deal, so the two no longer play the same seat of a deal). The seat's decisions are reviewed at the given
settings; then each decision whose named best differs from the choice is replayed **alone**: the
same deal and random streams, the seat plays the named best at that one decision and the baseline
bot's choice everywhere else. The points that single change saves against the real players
(baseline points minus replayed points, on the one real deal) are set against the cost claimed for
it, summed per decision kind (pass, play) and class (flagged, unclear, unflagged).

The claimed cost is an expectation over the deals the seat cannot tell from the real one, and the
real deal is one of them, so over many decisions the two means agree if the rollout players play
like the real ones; where they do not, the gap is the cost of the rollout model. A decision's
replay is one deal, so its saving is noisy (the standard errors say how much).

Also shown per group: the cost on the deals that chose the named best (against the claimed cost,
which is measured on fresh deals, it shows the winner's curse the fresh deals remove), and the cost
under the other rollout player where the review confirmed a flag with it (the claimed cost
elsewhere).

    python benchmarks/calibration_breakdown.py --hands 100
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

from hearts_analysis.review import Settings, review_game
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import BOT_KINDS
from hearts_analysis.simulate.game import play_hand
from hearts_analysis.records.model import GameRecord

DIRECTIONS = ("left", "right", "across", "hold")
PLAYERS = ("north", "east", "south", "west")


class Deviate:
    """The baseline bot, but for one decision of the seat: the pass, or its ``play``-th play (0-based)."""

    def __init__(self, bot, pass_cards=None, play: int | None = None, card=None):
        self.bot, self.pass_cards, self.play, self.card, self.plays = bot, pass_cards, play, card, 0

    def choose_pass(self, view, count):
        chosen = self.bot.choose_pass(view, count)     # the bot's streams advance as in the baseline
        return self.pass_cards if self.pass_cards is not None else chosen

    def choose_play(self, view, legal):
        chosen = self.bot.choose_play(view, legal)
        index, self.plays = self.plays, self.plays + 1
        if index == self.play:
            assert legal >> self.card & 1, "the named best is not legal in the replay"
            return self.card
        return chosen


def _hand(rules, k, seed, baseline, seat, deviate=None):
    bots = [BOT_KINDS[baseline](random.Random(f"{seed}:{k}:{s}")) for s in range(4)]
    if deviate is not None:
        bots[seat] = deviate(bots[seat])
    return play_hand(rules.table(4), 1, bots, random.Random(f"{seed}:{k}"), (0, 0, 0, 0))


def one_deal(job):
    k, baseline, seed, settings = job
    seat, direction = k % 4, DIRECTIONS[(k // 4) % 4]
    rules = Rules.preset("standard", pass_cycle=[direction])
    hand = _hand(rules, k, seed, baseline, seat)
    game = GameRecord(players=PLAYERS, hands=(hand,), rules=rules, rules_spec=rules.to_spec(),
                      game_id=f"duplicate-{seed}-{k}")
    decisions = review_game(game, settings, seats=[seat]).decisions
    plays = [d for d in decisions if d.kind == "play"]
    first = min((d.trick for d in plays), default=0)
    rows = []
    for d in decisions:
        cls = "flagged" if d.category else "unclear" if d.unclear else "unflagged"
        saved = 0.0
        if tuple(d.best) != tuple(d.played):
            if d.kind == "pass":
                mask = sum(1 << c for c in d.best)
                replay = _hand(rules, k, seed, baseline, seat, lambda b: Deviate(b, pass_cards=mask))
            else:
                replay = _hand(rules, k, seed, baseline, seat, lambda b: Deviate(b, play=d.trick - first, card=d.best[0]))
            saved = hand.points[seat] - replay.points[seat]
        by_cards = {tuple(o.cards): o.expected for o in d.options}
        chose = by_cards.get(tuple(d.best), 0.0)
        choosing = by_cards.get(tuple(d.played), chose) - chose
        other = d.cost if d.other_cost is None else d.other_cost
        rows.append((d.kind, cls, d.cost, saved, tuple(d.best) != tuple(d.played), choosing, other))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--baseline", default="heuristic")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--model", default=Settings.model)
    parser.add_argument("--bot", default=None, help="play the plays' rollouts with this simulator bot (Settings.bot)")
    parser.add_argument("--first", type=int, default=0, help="the first deal (to split a run)")
    args = parser.parse_args()
    settings = Settings(model=args.model, bot=BOT_KINDS[args.bot] if args.bot else None)
    rows = [r for k in range(args.first, args.first + args.hands) for r in one_deal((k, args.baseline, args.seed, settings))]
    groups = defaultdict(list)
    for kind, cls, cost, saved, differs, choosing, other in rows:
        if differs:
            for key in ((kind, cls), (kind, "all"), ("all", "all")):
                groups[key].append((cost, saved, choosing, other))
    n = args.hands
    print(f"{n} hands, baseline {args.baseline}, model {settings.model}, bot {args.bot}; decisions whose named best differs:")
    print("| kind | class | decisions | on the choosing deals/hand | claimed (fresh deals)/hand "
          "| under the other model/hand | saved/hand (single change, real players) | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(groups):
        pairs = groups[key]
        claimed = sum(p[0] for p in pairs)
        saved = [p[1] for p in pairs]
        choosing = sum(p[2] for p in pairs)
        other = sum(p[3] for p in pairs)
        mean = sum(saved) / len(saved)
        sd = math.sqrt(sum((s - mean) ** 2 for s in saved) / max(1, len(saved) - 1))
        se_hand = sd * math.sqrt(len(saved)) / n
        ratio = sum(saved) / claimed if claimed > 0 else float("nan")
        print(f"| {key[0]} | {key[1]} | {len(pairs)} | {choosing / n:.2f} | {claimed / n:.2f} | {other / n:.2f} | {sum(saved) / n:+.2f} \u00b1 {se_hand:.2f} "
              f"| {ratio:.2f} |")


if __name__ == "__main__":
    main()
