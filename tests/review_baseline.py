"""The outcomes of seeded rollouts and of a seeded review, digested: the kernel's test holds them to those
the numpy lanes (the code before the kernel) gave. Written against the public API both had, so that

    PYTHONPATH=<the code before the kernel> python tests/review_baseline.py > tests/data/kernel_baseline.json

recorded the baseline with this very function.
"""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np

from hearts_analysis.cards import iter_cards, mask_of
from hearts_analysis.engine.state import HandState
from hearts_analysis.review.policy import MODELS
from hearts_analysis.review.rollout import pass_out, play_out
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games
from hearts_analysis.simulate.game import deal

from review_positions import PRESET_RULES, RULE_IDS, random_position


def _deals(table, rng, count):
    return [[mask_of(h) for h in deal(table, rng)] for _ in range(count)]


def _deals_around(hands, seat, rng):
    """The other seats' cards of ``hands[0]`` dealt again for each row: ``seat`` always holds the same
    hand, as a reviewed seat's own does over the sampled deals."""
    out = []
    for _ in range(len(hands)):
        rest = [card for other, mask in enumerate(hands[0]) if other != seat for card in iter_cards(int(mask))]
        rng.shuffle(rest)
        row, start = [], 0
        for other, mask in enumerate(hands[0]):
            size = int(mask).bit_count()
            row.append(int(mask) if other == seat else mask_of(rest[start:start + size]))
            start += 0 if other == seat else size
        out.append(row)
    return np.array(out, np.uint64)


def seeded_outcomes() -> dict[str, str]:
    """Digests of rollouts (every preset, both players, passes and plays) and of the decisions of a
    seeded review of whole hands. Written against the public API the numpy lanes had too, so that
    the recorded baseline came from running this very function on the code before the kernel."""
    from hearts_analysis.review import Settings, review_game

    out = {}
    for rules, name in zip(PRESET_RULES, RULE_IDS):
        table = rules.table(4)
        rng = random.Random(f"baseline:{name}")
        hands = _deals_around(_deals(table, rng, 64), 1, rng)
        digest = hashlib.sha256()
        for model in ("basic", "strong"):     # the players the numpy lanes had
            for direction in ("left", "hold"):
                if rules.pass_count or direction == "hold":
                    options = [0] if direction == "hold" else [int(mask_of(list(iter_cards(int(hands[0, 1])))[:3]))]
                    outcomes = pass_out(table, 1, hands, direction, options, 0, 2, MODELS[model])
                    digest.update(outcomes.points.tobytes() + outcomes.taken.tobytes())
            for _ in range(4):
                state, _, _ = random_position(rules, rng, rng.randrange(1, 13))
                if state.is_over:
                    continue
                deals = np.array([state.hands] * 3, np.uint64)
                outcomes = play_out(state, deals, list(iter_cards(state.legal_cards())), 2, MODELS[model].plays)
                digest.update(outcomes.points.tobytes() + outcomes.taken.tobytes())
        out[f"rollouts:{name}"] = digest.hexdigest()[:20]
    game = next(iter(simulate_games(1, Rules.preset("standard"), 4, seed="baseline")))
    for model, infer in (("basic", None), ("strong", "strong")):
        review = review_game(game, Settings(samples=40, pass_samples=80, budget=256, batch=64, model=model,
                                                infer=infer), hands=[1, 2])
        fields = [(d.hand, d.seat, d.kind, d.trick, d.played, d.best, round(d.cost, 9), round(d.margin, 9),
                   d.category, d.unclear, d.samples) for d in review.decisions]
        out[f"review:{model}:{infer}"] = hashlib.sha256(repr(fields).encode()).hexdigest()[:20]
    return out


if __name__ == "__main__":
    print(json.dumps(seeded_outcomes(), indent=1, sort_keys=True))
