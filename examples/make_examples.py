"""Rebuild the example games in this folder: ``python examples/make_examples.py``.

Every example is a simulated game (deterministic seeds); the ones that show
violations get them by small, searched edits of a clean game, each chosen so
that it produces exactly the violation it is meant to show. Each game lists
the codes it must produce in ``expected_violations`` and, where it has some,
the notes in ``expected_notes`` (what the audit does not check, e.g. an
importer's ``unmodelled``; they leave the game valid): unknown fields, kept and
ignored by the toolkit, read by the tests.
"""

from __future__ import annotations

import copy
import itertools
import sys
from pathlib import Path
from typing import Callable, Iterable, Iterator

import orjson

from hearts_analysis.cards import POINT_CARDS_MASK
from hearts_analysis.engine import replay_game
from hearts_analysis.records.json import game_from_dict, game_to_dict
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

HERE = Path(__file__).resolve().parent
PLAYERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"]


def simulated(preset: str, players: int, seed: int, **overrides) -> dict:
    rules = Rules.preset(preset, **overrides)
    game = simulate_game(rules, PLAYERS[:players], seed, game_id=f"example-{preset}-{players}p-{seed}")
    return game_to_dict(game)


def codes(game: dict) -> list[str]:
    return sorted(v.code for v in replay_game(game_from_dict(game)).violations)


def note_codes(game: dict) -> list[str]:
    return sorted(n.code for n in replay_game(game_from_dict(game)).notes)


def first_with_moon(preset: str, players: int = 4, start: int = 0, **overrides) -> dict:
    for seed in itertools.count(start):
        game = simulated(preset, players, seed, **overrides)
        if _has_moon(game):
            return game
    raise AssertionError("unreachable")


def _has_moon(game: dict) -> bool:
    """A seat took every heart and QS in some hand (also under moon none, where it scores them)."""
    return any(cards & POINT_CARDS_MASK == POINT_CARDS_MASK
               for hand in replay_game(game_from_dict(game)).hands for cards in hand.taken)


# -- searched edits ------------------------------------------------------------
def swaps(game: dict, hand: int, first: range | None = None) -> Iterator[dict]:
    """Every swap of two plays by the same seat in one hand (the first of them in ``first``)."""
    plays = game["hands"][hand]["plays"]
    for i, j in itertools.combinations(range(len(plays)), 2):
        if plays[i][0] == plays[j][0] and (first is None or i in first):
            edited = copy.deepcopy(game)
            p = edited["hands"][hand]["plays"]
            p[i][1], p[j][1] = p[j][1], p[i][1]
            yield edited


def reorders(game: dict, hand: int) -> Iterator[dict]:
    """Two adjacent plays of one trick exchanged (order only)."""
    plays = game["hands"][hand]["plays"]
    for i in range(len(plays) - 1):
        edited = copy.deepcopy(game)
        p = edited["hands"][hand]["plays"]
        p[i], p[i + 1] = p[i + 1], p[i]
        yield edited


def replaced_cards(game: dict, hand: int) -> Iterator[dict]:
    """A play's card replaced by a card played earlier in the hand."""
    plays = game["hands"][hand]["plays"]
    for i in range(len(plays) - 1, 0, -1):
        for j in range(i):
            edited = copy.deepcopy(game)
            edited["hands"][hand]["plays"][i][1] = plays[j][1]
            yield edited


def dropped_last(game: dict, hand: int) -> Iterator[dict]:
    """The last play, or the whole last trick, left out."""
    for count in (1, len(game["players"])):
        edited = copy.deepcopy(game)
        del edited["hands"][hand]["plays"][-count:]
        yield edited


class NotFound(Exception):
    pass


def hand_codes(game: dict, hand: int) -> list[str]:
    """The codes one hand produces on its own (its recorded points still checked)."""
    rules = Rules.from_spec(game.get("rules"))
    direction = rules.table(len(game["players"])).pass_direction(hand + 1)
    alone = {key: value for key, value in game.items() if key not in ("hands", "complete")}
    alone["rules"] = {**rules.to_spec(), "pass_cycle": [direction]}
    alone["hands"] = [{k: v for k, v in game["hands"][hand].items() if k != "totals"}]
    return codes(alone)


def find(game: dict, code: str, hands: Iterable[int], edits: Callable[[dict, int], Iterator[dict]]) -> dict:
    """The edit that produces only ``code``, else the one that produces it with the fewest others."""
    best: tuple[int, dict] | None = None
    for hand in hands:
        for edited in edits(game, hand):
            found = hand_codes(edited, hand)
            if code not in found:
                continue
            if set(found) == {code} and set(codes(edited)) == {code}:
                return edited
            if best is None or len(found) < best[0]:
                best = (len(found), edited)
    if best is None:
        raise NotFound(code)
    return best[1]


def every_violation() -> list[dict]:
    for seed in itertools.count(11):
        base = simulated("standard", 4, seed)
        if len(base["hands"]) < 10:
            continue
        try:
            return _every_violation(base)
        except NotFound:
            continue
    raise AssertionError("unreachable")


def _every_violation(base: dict) -> list[dict]:
    game = copy.deepcopy(base)
    hands = game["hands"]
    used = {3, 8}  # hand 4 (a hold hand) and hand 9 get the deal, pass and scoring edits below
    first_trick = lambda g, k: swaps(g, k, range(len(g["players"])))  # noqa: E731
    for code, edits in [("wrong-first-lead", first_trick), ("points-on-first-trick", first_trick),
                        ("hearts-not-broken", swaps), ("revoke", swaps), ("out-of-turn", reorders),
                        ("card-not-held", replaced_cards), ("hand-incomplete", dropped_last)]:
        free = [k for k in range(len(hands)) if k not in used]
        edited = find(base, code, free, edits)
        changed = next(k for k in free if edited["hands"][k] != base["hands"][k])
        hands[changed] = edited["hands"][changed]
        used.add(changed)
    # deal: seat 0 is dealt one of its cards twice (14 cards, one duplicate)
    deal = hands[3]["deal"][0]
    deal.append(deal[0])
    # pass: a hold hand (hand 4 of the left right across hold cycle) with a pass recorded
    hands[3]["passes"] = [hands[3]["deal"][1][:3], None, None, None]
    # recorded points and totals wrong in hand 9; a moon choice recorded where nobody shot
    hands[8]["points"][0] += 5
    hands[8]["totals"][1] += 1
    hands[8]["moon"] = "subtract_from_shooter"
    # a charge the standard rules do not allow, and an importer's note of something the engine does not model
    hands[8]["charged"] = ["AH"]
    hands[8]["unmodelled"] = ["keeper pass (the seats' passes went to a common pile)"]
    # a hand after the game was over
    extra = copy.deepcopy(hands[0])
    extra["totals"] = [t + p for t, p in zip(hands[-1]["totals"], extra["points"])]
    hands.append(extra)
    game["game_id"] = "example-every-violation"
    game["expected_violations"] = codes(game)
    game["expected_notes"] = note_codes(game)

    short = simulated("standard", 4, 2)
    short["hands"] = short["hands"][:3]
    short["complete"] = True
    short["game_id"] = "example-stopped-early"
    short["winners"] = [short["players"][0]]   # named the winner of a game that has not ended
    short["expected_violations"] = codes(short)

    return [game, short]


def write(name: str, games: list[dict]) -> None:
    for game in games:
        game.setdefault("expected_violations", codes(game))
        if note_codes(game):
            game.setdefault("expected_notes", note_codes(game))
    path = HERE / name
    if name.endswith(".jsonl"):
        path.write_bytes(b"".join(orjson.dumps(g) + b"\n" for g in games))
    else:
        (game,) = games
        path.write_bytes(orjson.dumps(game, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"{path.name}: {', '.join(sorted(set(c for g in games for c in g['expected_violations']))) or 'clean'}")


def main() -> None:
    clean = simulated("standard", 4, 1)
    clean["game_id"] = "example-clean-4p"
    clean["played_at"] = "2026-11-29T20:14:00Z"
    write("clean-4p-standard.json", [clean])
    write("every-violation.jsonl", every_violation())
    for moon in ("add_to_others", "subtract_from_shooter", "shooter_choice", "none"):
        game = first_with_moon("standard", start=2, moon=moon)  # seed 1 is the clean example: no copy of it
        game["game_id"] = f"example-moon-{moon.replace('_', '-')}"
        write(f"moon-{moon.replace('_', '-')}.json", [game])
    write("three-players.json", [simulated("standard", 3, 2)])
    write("five-players.json", [simulated("standard", 5, 3)])
    write("omnibus.json", [simulated("omnibus", 4, 4)])
    write("left-of-dealer-hearts-break.json", [simulated("basic", 4, 5)])
    write("black-queen.json", [simulated("black_queen", 4, 6)])


if __name__ == "__main__":
    sys.exit(main())
