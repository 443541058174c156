"""Simulated games: legal, complete, deterministic for a seed."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Iterator, Sequence

from ..cards import Card, Mask, iter_cards
from ..engine.scoring import Moon, moon_points, moon_shooter, score_hand
from ..records.model import GameRecord, HandRecord
from ..rules import MOON_CHOICES, PASS_DIRECTIONS, Rules, Table
from .bits import BIT
from .bots import Bot, BotFactory, HeuristicBot
from .play import HandPlay


@lru_cache(maxsize=64)
def _deck_cards(table: Table) -> tuple[tuple[Card, ...], int]:
    return tuple(iter_cards(table.deck)), table.hand_size


def deal(table: Table, rng: random.Random) -> list[tuple[Card, ...]]:
    """Shuffle the table's deck (sorting by random keys: one C call per card) and deal it, each hand sorted."""
    cards, size = _deck_cards(table)
    key = rng.random
    shuffled = sorted(cards, key=lambda _card: key())
    return [tuple(sorted(shuffled[start:start + size])) for start in range(0, len(cards), size)]


def choose_moon(table: Table, taken: Sequence[Mask], shooter: int, totals: Sequence[int]) -> str:
    """The shooter's better option under ``shooter_choice``, given the totals before the hand.

    Ending the game as the only lowest total is best, then a shared win, then playing on;
    adding 26 that ends the game with the shooter not lowest is worst. When the game goes
    on either way the gaps between the seats are the same, so the shooter adds to the others
    (bringing the end nearer) only if it leads afterwards.
    """
    def outcome(choice: str) -> tuple[int, int]:
        after = [t + p for t, p in zip(totals, moon_points(table, taken, shooter, choice))]
        lowest = table.winners(after)
        leads = shooter in lowest
        if not table.game_over(after):
            return 1, (choice == "add_to_others") == leads
        if leads:
            return (3 if len(lowest) == 1 else 2), choice == "add_to_others"
        return 0, choice == "add_to_others"
    return max(MOON_CHOICES, key=outcome)


def hand_points(table: Table, taken: Sequence[Mask], won: Sequence[int], totals: Sequence[int]
                ) -> tuple[list[int], Moon | None]:
    """A played hand's points as the state machine scores them (no charges), and its moon: under
    ``shooter_choice`` the shooter takes the better option (:func:`choose_moon`)."""
    shooter = moon_shooter(table, list(taken))
    chosen = None
    if shooter is not None and table.rules.moon == "shooter_choice":
        chosen = choose_moon(table, taken, shooter, totals)
    _, points, shot = score_hand(table, list(taken), list(won), chosen)
    return points, shot


def pass_direction_for(table: Table, number: int, rng: random.Random) -> str:
    """The cycle's direction for hand ``number``; a chance draw where the cycle says ``any``."""
    expected = table.pass_direction(number)
    if expected != "any":
        return expected
    return rng.choice([d for d in PASS_DIRECTIONS if d != "across" or table.players % 2 == 0])


KERNEL: bool | None = None
"""Force the plays of tables of HeuristicBots onto the compiled kernel (``True``) or off it
(``False``), whatever a run asks (the tests compare the two, the benchmarks time them); ``None``
lets each run decide (:data:`KERNEL_GAMES`)."""
KERNEL_GAMES = 700
"""A run of this many games or more plays on the kernel (:func:`simulate_games`, the pools): loading
numba and the cached kernel costs a process about 0.7 s, which the kernel wins back at about 100 µs
a hand. Whole processes generating standard 4-player games took, on the kernel against Python, 1.16x
as long for 400 games, 0.84x for 700 and 0.71x for 1,000 (farm-bench, medians of 5 pairs): a break-even
near 500 games. A shorter run plays in Python, as fast as it ever did, and imports no numba."""


def kernel_run(games: int, table: Table | None = None) -> bool:
    """Whether a run of ``games`` games plays its tables of HeuristicBots on the kernel: a long run, under
    rules the kernel declares it plays (``table``'s lane ``kernel_play``, see :func:`on_kernel`)."""
    return games >= KERNEL_GAMES and (table is None or table.models("kernel_play"))


def on_kernel(bots: Sequence[Bot], table: Table | None = None) -> bool:
    """Whether the kernel plays these bots' hands: every seat exactly a :class:`HeuristicBot` (not a
    subclass, which plays otherwise), each seat its own (a bot in two seats would share one plan), under
    rules the kernel declares in the rule-field table (``table.models("kernel_play")``; a rule set
    outside that declaration plays in Python, whatever the run asks).

    The kernel's plays read the rules of play of the table's facts, as the simulator's do; it declares
    every value of the scoring, game-length, charge and claim fields (the score stays in Python, and the
    simulator never charges or claims), and a field added to the table only once it plays it.

    >>> from hearts_analysis.rules import Rules
    >>> bots = [HeuristicBot(random.Random(seat)) for seat in range(4)]
    >>> on_kernel(bots, Rules.preset("trend_hearts").table(4)), on_kernel(bots[:3] + bots[:1])
    (True, False)
    """
    return (all(type(bot) is HeuristicBot for bot in bots) and len({id(bot) for bot in bots}) == len(bots)
            and (table is None or table.models("kernel_play")))


def play_hand(table: Table, number: int, bots: Sequence[Bot], rng: random.Random,
              totals: Sequence[int], kernel: bool = False) -> HandRecord:
    """Deal, pass and play one hand; the record carries the points and the new totals. With ``kernel``
    a table of HeuristicBots (:func:`on_kernel`) plays on the compiled kernel: the same record."""
    n = table.players
    dealt = deal(table, rng)
    direction = pass_direction_for(table, number, rng)
    dealer = table.dealer(number)
    hands = [sum(map(BIT.__getitem__, cards)) for cards in dealt]
    play = HandPlay(table, hands, number, dealer, tuple(totals), direction)
    passes = None
    count = table.rules.pass_count
    if direction != "hold" and count:
        given = [bots[seat].choose_pass(play.views[seat], count) for seat in range(n)]
        for seat, cards in enumerate(given):
            if cards.bit_count() != count or cards & ~hands[seat]:
                raise ValueError(f"seat {seat} ({type(bots[seat]).__name__}) passed an invalid set of cards")
        play.exchange(given, table.pass_offset(direction))
        passes = tuple(tuple(iter_cards(cards)) for cards in given)
    play.start()
    if (kernel if KERNEL is None else KERNEL) and on_kernel(bots, table):
        from .kernel_play import play_out  # imports numba: only a simulation of HeuristicBots needs it
        plays, taken, won = play_out(play, bots)
    else:
        plays, taken, won = play.play_out(bots), play.taken, play.tricks_won
    points, shot = hand_points(table, taken, won, totals)
    moon = None if shot is None else shot.choice
    return HandRecord(deal=tuple(dealt), plays=tuple(plays), passes=passes, dealer=dealer,
                      pass_direction=direction if table.pass_direction(number) == "any" else None,
                      moon=moon if moon in MOON_CHOICES else None,  # a record names a choice, not other rules
                      points=tuple(points),
                      totals=tuple(t + p for t, p in zip(totals, points)))


MAX_HANDS = 1000
"""A simulated game stops after this many hands even if no total reached the target (``--set target=80000``);
its record then says ``complete: false``."""


def simulate_game(rules: Rules, players: Sequence[str], seed: int | str | random.Random,
                  bot: BotFactory | Sequence[BotFactory] = HeuristicBot, game_id: str | None = None,
                  max_hands: int = MAX_HANDS, kernel: bool = False) -> GameRecord:
    """A full game to the target (or of ``deals_per_game`` deals); the same seed gives the same game.
    A game still going after ``max_hands`` hands stops there, marked ``complete=False``.

    The bots never charge a card or claim the rest of a hand: both are optional in the rules that allow them.

    ``bot`` builds every seat's player, or give one factory per seat, e.g.
    ``[HeuristicBot, RandomBot, HeuristicBot, partial(BlunderBot, log=found)]``.
    ``kernel``: a table of HeuristicBots plays on the compiled kernel (the same game, about twice as
    fast once numba is loaded; see :data:`KERNEL_GAMES`).
    Raises :class:`~hearts_analysis.rules.RuleError` if the rules cannot be played by this many.
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    table = rules.table(len(players))

    factories = [bot] * len(players) if callable(bot) else list(bot)
    if len(factories) != len(players):
        raise ValueError(f"{len(factories)} bots for {len(players)} players")
    bots = [factory(random.Random(rng.getrandbits(64))) for factory in factories]
    totals: tuple[int, ...] = (0,) * len(players)
    hands = []
    for number in range(1, max_hands + 1):
        hand = play_hand(table, number, bots, rng, totals, kernel)
        hands.append(hand)
        totals = hand.totals
        if table.game_over(totals, number):
            break
    return GameRecord(players=tuple(players), hands=tuple(hands), rules=rules,
                      rules_spec=rules.to_spec(), game_id=game_id, complete=table.game_over(totals, len(hands)))


FIRST_ROUND = datetime(2026, 1, 5, 19, 0, tzinfo=timezone.utc)
ROUND_EVERY = timedelta(minutes=30)
"""Simulated rounds start this far apart; the tables of a round start a second apart, in table order."""


def played_at(round_number: int, table: int = 0) -> str:
    """When a simulated game started, ISO 8601 in UTC: later for a later round, or a later table of a round.

    >>> played_at(0), played_at(2, 1)
    ('2026-01-05T19:00:00Z', '2026-01-05T20:00:01Z')
    """
    moment = FIRST_ROUND + round_number * ROUND_EVERY + timedelta(seconds=table)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def simulate_preset(games: int, rules: Rules | str = "standard", *, players: int = 4, seed: int = 0,
                    **overrides) -> list[GameRecord]:
    """``games`` games of the heuristic bots under ``rules`` (a preset's name, or rules) with rule fields as
    ``overrides``: :func:`hearts_analysis.simulate` (the façade's).

    >>> [game.rules.target for game in simulate_preset(2, "standard", seed=3, target=30)]
    [30, 30]
    """
    chosen = Rules.preset(rules, **overrides) if isinstance(rules, str) else replace(rules, **overrides)
    return list(simulate_games(games, chosen, players, seed))


def simulate_games(count: int, rules: Rules, players: int = 4, seed: int = 0,
                   bot: BotFactory | Sequence[BotFactory] = HeuristicBot) -> Iterator[GameRecord]:
    """``count`` games, generated one at a time; game ``i`` depends only on ``seed`` and ``i``.

    One table, the same players in the same seats, one game a round (see :func:`played_at`); a run of
    :data:`KERNEL_GAMES` games or more plays its tables of HeuristicBots on the compiled kernel.
    """
    names = [f"bot{i + 1}" for i in range(players)]
    kernel = kernel_run(count, rules.table(players))
    for index in range(count):
        game = simulate_game(rules, names, random.Random(f"{seed}:{index}"), bot, game_id=f"sim-{seed}-{index + 1}",
                             kernel=kernel)
        yield replace(game, played_at=played_at(index))
