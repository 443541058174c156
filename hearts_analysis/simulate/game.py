"""Simulated games: legal, complete, deterministic for a seed."""

from __future__ import annotations

import random
from typing import Callable, Iterator, Sequence

from ..cards import Card, iter_cards, mask_of
from ..engine.replay import _is_over
from ..engine.scoring import moon_points, moon_shooter, raw_points
from ..engine.state import HandState
from ..records.model import GameRecord, HandRecord
from ..rules import PASS_DIRECTIONS, Rules, Table
from .bots import Bot, HeuristicBot, RandomBot

BotFactory = Callable[[random.Random], Bot]


def deal(table: Table, rng: random.Random) -> list[list[Card]]:
    cards = list(iter_cards(table.deck))
    rng.shuffle(cards)
    size = table.hand_size
    return [sorted(cards[i * size:(i + 1) * size]) for i in range(table.players)]


def _moon_choice(table: Table, taken, shooter: int, totals: Sequence[int]) -> str:
    """Add 26 to the others unless that ends the game with the shooter not alone in the lead."""
    after = [t + p for t, p in zip(totals, moon_points(table, taken, shooter, "add_to_others"))]
    if _is_over(table, after) and min(after) < after[shooter] or after.count(after[shooter]) > 1 and _is_over(table, after):
        return "subtract_from_shooter"
    return "add_to_others"


def play_hand(table: Table, number: int, bots: Sequence[Bot], rng: random.Random,
              totals: Sequence[int]) -> HandRecord:
    n = table.players
    dealt = deal(table, rng)
    hands = [mask_of(cards) for cards in dealt]
    expected = table.pass_direction(number)
    direction = rng.choice(PASS_DIRECTIONS) if expected == "any" else expected
    passes = None
    if direction != "hold" and table.rules.pass_count:
        passes = [sorted(bots[s].choose_pass(hands[s], table.rules.pass_count, direction)) for s in range(n)]
        offset = table.pass_offset(direction)
        given = [mask_of(p) for p in passes]
        for s in range(n):
            hands[s] &= ~given[s]
        for s in range(n):
            hands[(s + offset) % n] |= given[s]
    dealer = (number - 1) % n
    state = HandState(table, hands, HandState.first_leader_for(table, hands, dealer))
    plays = []
    while not state.is_over:
        seat = state.to_play
        card = bots[seat].choose_play(state, seat)
        plays.append((seat, card))
        state.push(seat, card)
    shooter = moon_shooter(table, state.taken)
    moon = None
    if shooter is None:
        points = [raw_points(table, t, w) for t, w in zip(state.taken, state.tricks_won)]
    else:
        rule = table.rules.moon
        moon = _moon_choice(table, state.taken, shooter, totals) if rule == "shooter_choice" else rule
        points = moon_points(table, state.taken, shooter, moon)
    new_totals = [t + p for t, p in zip(totals, points)]
    return HandRecord(deal=tuple(tuple(d) for d in dealt), plays=tuple(plays),
                      passes=None if passes is None else tuple(tuple(p) for p in passes),
                      dealer=dealer, pass_direction=direction if expected == "any" else None,
                      moon=moon, points=tuple(points), totals=tuple(new_totals))


def simulate_game(rules: Rules, players: Sequence[str], seed: int | random.Random,
                  bot: BotFactory = HeuristicBot, game_id: str | None = None,
                  max_hands: int = 1000) -> GameRecord:
    """A full game to the target, every seat played by ``bot``; the same seed gives the same game."""
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    table = rules.table(len(players))
    bots = [bot(random.Random(rng.getrandbits(64))) for _ in players]
    totals = [0] * len(players)
    hands = []
    for number in range(1, max_hands + 1):
        hand = play_hand(table, number, bots, rng, totals)
        hands.append(hand)
        totals = list(hand.totals)
        if _is_over(table, totals):
            break
    return GameRecord(players=tuple(players), hands=tuple(hands), rules=rules,
                      rules_spec=rules.to_spec(), game_id=game_id, complete=_is_over(table, totals))


def simulate_games(count: int, rules: Rules, players: int = 4, seed: int = 0,
                   bot: BotFactory = HeuristicBot) -> Iterator[GameRecord]:
    names = [f"bot{i + 1}" for i in range(players)]
    for index in range(count):
        yield simulate_game(rules, names, random.Random(f"{seed}:{index}"), bot,
                            game_id=f"sim-{seed}-{index + 1}")
