"""Positions for the review tests: random hands played part-way, and crafted mid-hand positions."""

from __future__ import annotations

import random
from typing import Sequence

from hearts_analysis.cards import DECK, HEARTS_MASK, QS_MASK, card_name, iter_cards, mask_of, parse_card
from hearts_analysis.engine.state import HandState
from hearts_analysis.rules import Rules
from hearts_analysis.simulate.game import deal

PRESET_RULES = [Rules.preset("standard"),
                Rules.preset("omnibus", no_tricks_bonus=-5, queen_of_clubs_cancels_queen=True),
                Rules.preset("black_queen"), Rules.preset("openspiel"), Rules.preset("basic"),
                Rules.preset("standard", moon="subtract_from_shooter", hearts_must_be_broken=False),
                Rules.preset("standard", only_hearts_lead="ends_hand")]
RULE_IDS = ["standard", "omnibus-variants", "black_queen", "openspiel", "basic", "subtract-unbroken", "ends-hand"]


def random_position(rules: Rules, rng: random.Random, tricks_left: int, players: int = 4,
                    ) -> tuple[HandState, list[tuple[int, int]], int]:
    """A random deal played by random legal cards until ``tricks_left`` tricks remain (plus a few
    cards into that trick); returns the state, the plays and the first leader."""
    table = rules.table(players)
    hands = [mask_of(cards) for cards in deal(table, rng)]
    first = HandState.first_leader_for(table, hands, 0)
    state = HandState(table, hands, first)
    plays = []
    stop = (table.hand_size - tricks_left) * players + rng.randrange(players)
    for _ in range(stop):
        if state.is_over:
            break
        seat = state.to_play
        card = rng.choice(list(iter_cards(state.legal_cards(seat))))
        plays.append((seat, card))
        state.push(seat, card)
    return state, plays, first


def masks(texts: Sequence[str]) -> list[int]:
    return [mask_of(parse_card(c) for c in text.split()) for text in texts]


def crafted(hands: Sequence[str], leader: int, trick_number: int, taken: Sequence[str] | None = None,
            plays: Sequence[tuple[int, str]] = (), rules: Rules = Rules.preset("standard")):
    """A full-deck position at ``trick_number``: ``hands`` held now, ``taken`` the cards each seat
    took (default: every other card, the point cards spread over all seats), then ``plays``.
    Returns ``(state, shown)``: what the plays revealed, for the seats' knowledge."""
    from hearts_analysis.review.information_set import observe
    table = rules.table(4)
    held = masks(hands)
    if taken is None:
        taken = spread_taken(held, trick_number)
    state = HandState(table, held, leader)
    state.trick_number = trick_number
    state.taken = masks(taken)
    state.played = 0
    for cards in state.taken:
        state.played |= cards
    state.tricks_won = [cards.bit_count() // 4 for cards in state.taken]
    state.broken = bool(state.played & (HEARTS_MASK | QS_MASK))
    shown = (0,) * 4
    for seat, text in plays:
        card = parse_card(text)
        shown = observe(shown, state, seat, card)
        state.push(seat, card)
    return state, shown


def spread_taken(held: Sequence[int], trick_number: int) -> list[str]:
    """The cards not held, dealt round the seats as taken tricks (points spread, no moon)."""
    rest = DECK
    for cards in held:
        rest &= ~cards
    per_seat = trick_number - 1  # one card per trick played, per seat
    seats: list[list[str]] = [[], [], [], []]
    points = [c for c in iter_cards(rest) if (HEARTS_MASK | QS_MASK) >> c & 1]
    others = [c for c in iter_cards(rest) if not (HEARTS_MASK | QS_MASK) >> c & 1]
    for i, card in enumerate(points):
        seats[i % 4].append(card_name(card))
    seat = 0
    for card in others:
        while len(seats[seat % 4]) >= per_seat:
            seat += 1
        seats[seat % 4].append(card_name(card))
        seat += 1
    return [" ".join(cards) for cards in seats]
