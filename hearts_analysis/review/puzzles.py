"""Flagged decisions as practice puzzles: the position a player faced, what they did, and what was better.

A player learns most from their own mistakes, replayed as questions (as chess
sites' "learn from your mistakes" does): each puzzle is one flagged decision of
a review, with only what the seat could know at that moment (its cards, the
trick so far, the cards already played, its pass) so that it can be solved
without seeing the answer. The JSON shape is documented in ``docs/review.md``.

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> from hearts_analysis.simulate.bots import HeuristicBot, RandomBot
>>> from hearts_analysis.review import Settings, review_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=3, max_hands=1,
...                      bot=[RandomBot, HeuristicBot, RandomBot, HeuristicBot])
>>> found = puzzles(game, review_game(game, Settings(samples=16), hands=[1]))
>>> all(p["played"] not in p["answer"]["better"] for p in found)
True
>>> len(found) > 0 and all(p["answer"]["expected"]["on"] == EXPECTED_ON for p in found)
True
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..cards import Mask, card_name, iter_cards, mask_of, names
from ..engine.replay import GameResult
from ..engine.state import HandState
from ..records.model import GameRecord
from .classes import INACCURACY
from .decision import Decision
from .game import GameReview, HandStart, hand_starts
from .page import fragment, play_number

PUZZLE_FORMAT = "hearts-puzzles/1"
EXPECTED_ON = "the deals that chose the best (the cost is measured on fresh deals)"
"""Which deals ``answer.expected`` is measured on: the choosing deals, which overstate what the best saves, so its
difference is not the puzzle's ``cost`` (measured on fresh deals, the figure the class comes from)."""


def _cards(mask: Mask) -> list[str]:
    return names(sorted(iter_cards(mask)))


def _answer(decision: Decision) -> dict[str, Any]:
    """The better choices: every alternative that saves at least an inaccuracy's worth of points, best first."""
    played = next((o for o in decision.options if o.cards == decision.played), None)
    better = [o for o in decision.options
              if played is not None and o.cards != decision.played and o.expected <= played.expected - INACCURACY]
    as_text = (lambda cards: names(cards)) if decision.kind == "pass" else (lambda cards: card_name(cards[0]))
    return {"best": as_text(decision.best),
            "better": [as_text(o.cards) for o in better] or [as_text(decision.best)],
            "expected": {"played": None if played is None else round(played.expected, 2),
                         "best": round(decision.options[0].expected, 2) if decision.options else None,
                         "on": EXPECTED_ON}}


def _held(start: HandStart) -> HandState:
    return HandState(start.position.table, list(start.held),
                     HandState.first_leader_for(start.position.table, list(start.held), start.dealer))


def _position(start: HandStart, decision: Decision, state: HandState | None) -> dict[str, Any]:
    """What the seat knew: its cards, the trick so far, the cards played before, its pass, the scores;
    ``state`` is the hand just before the decision's play (``None`` for a pass)."""
    seat = decision.seat
    table = start.position.table
    offset = table.pass_offset(start.direction)
    position: dict[str, Any] = {"score": list(start.position.totals), "direction": start.direction}
    if state is None:
        position.update(held=_cards(start.dealt[seat]), to=table.pass_target(seat, start.direction))
        return position
    in_trick = mask_of(c for _, c in state.trick)
    giver = table.pass_source(seat, start.direction)
    position.update(
        held=_cards(state.hands[seat]),
        legal=_cards(state.legal_cards(seat)),
        trick=[{"seat": who, "card": card_name(card)} for who, card in state.trick],
        played_before=_cards(state.played & ~in_trick),
        passed=_cards(start.passed[seat]) if offset and start.passed else [],
        received=_cards(start.passed[giver]) if giver is not None and start.passed else [],
    )
    return position


def puzzles(game: GameRecord, review: GameReview, source: str | None = None,
            result: GameResult | None = None, starts: Mapping[int, HandStart] | None = None) -> list[dict[str, Any]]:
    """A puzzle for each flagged decision of ``review`` (of ``game``), in the order played.

    ``starts`` (by hand number) are the hands' replayed starts where the caller has them (the review had
    them); otherwise the game is replayed once (``result`` where given). Each hand is walked once, in
    play order, whatever the number of its puzzles.
    """
    flagged = [d for d in review.decisions if d.category and d.hand <= len(game.hands)]
    hands = sorted({d.hand for d in flagged})
    if starts is None or any(h not in starts for h in hands):
        starts = {start.number: start for start in hand_starts(game, hands, result)}
    out = []
    for number in hands:
        start = starts[number]
        plays = start.plays
        mine = sorted(((play_number(plays, game.seats, d.trick if d.kind == "play" else None, d.seat), d)
                       for d in flagged if d.hand == number), key=lambda pair: pair[0])
        state, walked = _held(start), 0
        for play, decision in mine:
            if decision.kind == "play":
                for who, card in plays[walked:play - 1]:
                    state.push(who, card)
                walked = max(walked, play - 1)
            out.append({
                "source": source, "game_id": game.game_id, "hand": decision.hand, "play": play,
                "replay": fragment(decision.hand, play), "trick": decision.trick, "seat": decision.seat,
                "player": game.players[decision.seat], "players": list(game.players), "kind": decision.kind,
                "position": _position(start, decision, state if decision.kind == "play" else None),
                "played": names(decision.played) if decision.kind == "pass" else card_name(decision.played[0]),
                "answer": _answer(decision),
                "cost": round(decision.cost, 2), "class": decision.category, "reason": decision.reason,
            })
    out.sort(key=lambda p: (p["hand"], p["play"], p["seat"]))
    return out


def puzzles_document(found: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The file ``hearts review --puzzles`` writes."""
    return {"format": PUZZLE_FORMAT, "puzzles": list(found)}
