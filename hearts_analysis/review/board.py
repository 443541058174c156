"""The analysis board: the judge's verdict on a position in progress, for the seat that must decide.

A review says what a decision cost after the game; the board says, during it, what each choice
is worth. Both ask one evaluator (:func:`~.play_review.play_outcomes`,
:func:`~.pass_review.pass_outcomes`), so the judge's own choice is the review's best choice.

The board reads only what the seat could know: its cards, what it passed, the public plays and
what the rules reveal (:mod:`.information_set`). The other seats' cards never reach it: the position
it evaluates holds, for the others, any cards that fit their counts, and its deals are drawn
from the seat's knowledge by a random stream seeded from the seat's information state alone.
So the same position always gets the same advice, however the unseen cards lie.

Seat 1 of a simulated game, asked for its pass, then for its first play once the passes are made:

>>> from dataclasses import replace
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=3, max_hands=1)
>>> hand = game.hands[0]
>>> asked = replace(game, hands=(replace(hand, passes=None, plays=(), points=None, totals=None),), complete=None)
>>> advice = advise(asked, 1, settings=Settings(samples=50))
>>> advice.kind, len(advice.best), list(advice.to_dict())
('pass', 3, ['seat', 'kind', 'best', 'options', 'decided_by'])
>>> opened = replace(asked, hands=(replace(asked.hands[0], passes=hand.passes, plays=hand.plays[:5]),))
>>> advice = advise(opened, settings=Settings(samples=50))
>>> advice.kind, advice.seat == hand.plays[5][0], advice == advise(opened, settings=Settings(samples=50))
('play', True, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from ..cards import Card, Mask, describe, iter_cards, mask_of, names
from ..engine.replay import replay_game
from ..engine.state import HandState
from ..records.json import game_from_dict
from ..records.model import GameRecord
from ..records.views import viewer
from ..rules import Table
from ..violations import Code
from .choices import canonical_pass, play_choices
from .classes import mean_and_margin
from . import context
from .decision import GAME, POINTS, Option, deal_wins, game_order, options_of
from .others import Others
from .pass_review import pass_candidates, pass_outcomes
from .play_review import play_deals, play_outcomes
from .settings import Settings
from .game import unreviewed
from .information_set import at_play, before_pass, seat_state
from .opponents import posteriors
from ..kernel.masks import U64
from .policy import MODELS
from .reasons import explain
from .rollout import History
from .views import stand_in


_LETTERS = tuple("ABCDEFG")
"""The seats' names where the position names no players (the hand-entry notation's letters)."""


class PositionError(ValueError):
    """The game does not stand at a decision the board can advise on (named in the message)."""


@dataclass(frozen=True)
class AdvisedOption:
    """One choice and what it leads to, over the deals the seat's knowledge allows."""

    option: Option
    """The evaluator's numbers for it (its cards, expected points, chance of QS, hearts, a moon against)."""
    margin: float
    """``confidence_z`` standard errors of :attr:`expected`."""
    reason: str
    """Why it stands where it does, in words."""
    equal: bool = False
    """Within the noise of the best: its paired difference from the best is no more than its margin
    (the board marks it "≈", not ranked below)."""

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.option.cards

    @property
    def expected(self) -> float:
        """Expected hand points for the seat."""
        return self.option.expected

    def to_dict(self) -> dict[str, Any]:
        chance = self.option.win_chance
        return {"cards": names(self.cards), "expected_points": round(self.expected, 2),
                "margin": round(self.margin, 2), "equal": self.equal, "reason": self.reason,
                "win_chance": None if chance is None else round(chance, 3)}


@dataclass(frozen=True)
class Advice:
    """The judge's verdict on one decision: every real choice, best first."""

    seat: int
    kind: str
    """``play`` or ``pass``."""
    options: tuple[AdvisedOption, ...]
    samples: int
    """Deals each choice was played out on."""
    readings: tuple[tuple[int, dict[str, float]], ...] = ()
    """At a play, how the judge reads each other seat from its plays this hand (:attr:`.Others.identify`):
    ``(seat, {model: chance})``, averaged over the deals (:func:`.opponents.posteriors`). The text of ``hearts
    advise`` shows them; :meth:`to_dict` keeps to the contract's four fields."""
    position: "Position | None" = None
    """What the board judged, as the seat sees it (the text of ``hearts advise`` shows it)."""
    decided_by: str = POINTS
    """Which measure ranked the options: :data:`~.evaluate.POINTS` (expected hand points), or
    :data:`~.evaluate.GAME` (the chance of winning the game, where the hand can end it and an option leads the
    points' best in it clearly: :func:`.context.game_choice`), as the review decides."""

    @property
    def best_cards(self) -> tuple[Card, ...]:
        return self.options[0].cards

    @property
    def best(self) -> tuple[str, ...]:
        """The best choice's card names (three for a pass of three)."""
        return tuple(names(self.best_cards))

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "best": list(self.best),
                "options": [o.to_dict() for o in self.options], "decided_by": self.decided_by}


@dataclass(frozen=True)
class Position:
    """The position the board judged, as the seat sees it."""

    players: tuple[str, ...]
    hand: Mask
    """The seat's cards now (after its pass, less what it played)."""
    trick: tuple[tuple[int, Card], ...]
    """The trick so far."""
    taken: tuple[int, ...]
    """Points each seat has taken this hand so far (its cards' points, before any moon)."""
    totals: tuple[int, ...]
    """The game score before the hand."""


def _points(table: Table, cards: Mask) -> int:
    from ..rules import heart_points, jack_points
    return heart_points(cards) + jack_points(table.rules, cards)


def _position(players: Sequence[str], state: HandState | None, seat: int, hand: Mask,
              totals: Sequence[int]) -> Position:
    if state is None:
        return Position(tuple(players), hand, (), (0,) * len(totals), tuple(totals))
    return Position(tuple(players), hand, tuple(state.trick), tuple(_points(state.table, t) for t in state.taken),
                    tuple(totals))


def information_rng(settings: Settings, *facts: object) -> np.random.Generator:
    """A random stream seeded from the settings' seed and ``facts``, which must be what the seat
    knows and nothing else: then two positions the seat cannot tell apart draw the same deals."""
    digest = hashlib.blake2b(repr((settings.seed,) + facts).encode(), digest_size=16).digest()
    return np.random.default_rng(list(np.frombuffer(digest, np.uint32)))


def _ranked(seat: int, kind: str, state: HandState | None, own: np.ndarray, options: list[Option],
            settings: Settings, wins: np.ndarray | None = None) -> tuple[tuple[AdvisedOption, ...], str]:
    """The options best first, and the measure that ranked them: the game's where ``wins`` (per-deal chances of
    winning, :func:`.context.deal_chances`) give an option a clear lead over the points' best."""
    order = sorted(range(len(options)), key=lambda i: (options[i].expected, i))
    if wins is not None:
        options = [replace(o, win_chance=float(c)) for o, c in zip(options, wins.mean(axis=1))]
        if context.game_choice(wins, order[0], settings.confidence_z) is not None:
            return _ranked_by_game(seat, kind, state, own, wins, options, settings), GAME
    best = order[0]
    ranked = []
    for i in order:
        _, margin = mean_and_margin(own[i], settings.confidence_z)
        more, apart = mean_and_margin(own[i] - own[best], settings.confidence_z)
        equal = i != best and more <= apart
        reason = (f"as good as {' '.join(names(options[best].cards))} within the noise ({more:.1f} \u00b1 "
                  f"{apart:.1f} points more)" if equal else _reason(state, seat, kind, options, i, best, own, settings))
        ranked.append(AdvisedOption(options[i], margin, reason, equal))
    return tuple(ranked), POINTS


def _ranked_by_game(seat: int, kind: str, state: HandState | None, own: np.ndarray, wins: np.ndarray,
                    options: list[Option], settings: Settings) -> tuple[AdvisedOption, ...]:
    """The options by the chance of winning the game, best first (:func:`~.evaluate.game_order`)."""
    order = game_order(options)
    best = order[0]
    points_best = min(range(len(options)), key=lambda i: (options[i].expected, i))
    ranked = []
    for i in order:
        _, margin = mean_and_margin(own[i], settings.confidence_z)
        less, apart = mean_and_margin(wins[best] - wins[i], settings.confidence_z)
        equal = i != best and less <= apart
        chance = options[i].win_chance
        if i == best:
            reason = f"to win the game: your chance of winning is {chance:.0%}"
            if points_best != best:
                reason += (f", {options[points_best].win_chance:.0%} after "
                           f"{' '.join(names(options[points_best].cards))}, which takes fewer hand points")
        elif equal:
            reason = (f"as likely to win the game as {' '.join(names(options[best].cards))} within the noise "
                      f"({less:.0%} \u00b1 {apart:.0%} less)")
        else:
            reason = (f"your chance of winning the game is {chance:.0%}, {less:.0%} \u00b1 {apart:.0%} less than "
                      f"after {' '.join(names(options[best].cards))}")
        ranked.append(AdvisedOption(options[i], margin, reason, equal))
    return tuple(ranked)


def _reason(state: HandState | None, seat: int, kind: str, options: list[Option], index: int, best: int,
            own: np.ndarray, settings: Settings) -> str:
    option = options[index]
    if index == best:
        lead = "the only real choice" if len(options) == 1 else "fewest points on average"
        moon = f", another seat shoots the moon in {option.moon_against:.0%}" \
            if f"{option.moon_against:.0%}" != "0%" else ""
        return f"{lead}: QS in {option.queen:.0%} of the deals, {option.hearts:.1f} hearts{moon}"
    more, margin = mean_and_margin(own[index] - own[best], settings.confidence_z)
    why = explain(state, seat, kind, option, options[best])
    return f"{more:.1f} \u00b1 {margin:.1f} points more than {' '.join(names(options[best].cards))}" + (
        f": {why}" if why else "")


def advise_pass(table: Table, seat: int, dealt: Mask, direction: str, dealer: int,
                totals: tuple[int, ...], settings: Settings = Settings(), hand_number: int = 0) -> Advice:
    """The judge's pass for ``seat`` dealt ``dealt``: the passes that keep every rule of the passing
    advice the rollout player's own pass keeps (:func:`~.pass_review.pass_candidates`), screened, and
    the finalists played out."""
    count = table.rules.pass_count
    model_pass = int(MODELS[settings.model].passes(np.array([dealt], U64), count, direction, table.rules)[0])
    shown = pass_candidates(table, dealt, model_pass, direction)
    rng = information_rng(settings, "pass", seat, dealt, direction, dealer, tuple(totals))
    finalists, outcomes = pass_outcomes(table, seat, before_pass(table, seat, dealt), direction, dealer,
                                        list(shown), settings, rng, keep=canonical_pass(table, dealt, model_pass))
    alternatives = [tuple(iter_cards(shown[m])) for m in finalists]
    options = options_of(table, outcomes, seat, alternatives)
    own = outcomes.points[:, :, seat].astype(np.float64)
    ranked, decided_by = _ranked(seat, "pass", None, own, options, settings,
                                 deal_wins(table, totals, outcomes.points, seat, hand_number, settings))
    return Advice(seat, "pass", ranked, outcomes.points.shape[1],
                  position=_position(_LETTERS[:table.players], None, seat, dealt, totals), decided_by=decided_by)


def advise_play(table: Table, seat: int, hand: Mask, plays: Sequence[tuple[int, Card]], first_leader: int,
                totals: tuple[int, ...], settings: Settings = Settings(), passed: Mask = 0, offset: int = 0,
                hand_number: int = 1, dealer: int = 0, direction: str = "hold") -> Advice:
    """The judge's play for ``seat`` holding ``hand`` after ``plays`` (from trick 1, led by
    ``first_leader``); ``passed``: the cards it gave ``offset`` seats on."""
    receiver = (seat + offset) % table.players if offset else None
    plays = tuple(plays)
    state, shown = seat_state(table, seat, hand, plays, first_leader, passed, receiver)
    if state.is_over or state.to_play != seat:
        raise PositionError(f"seat {seat} is not to play after {len(plays)} plays")
    cards, _ = play_choices(state, seat)
    alternatives = [(c,) for c in cards]
    knowledge = at_play(state, seat, shown, passed, receiver)
    rng = information_rng(settings, "play", seat, hand, plays, first_leader, passed, offset, tuple(totals))
    own_pass = tuple(passed if s == seat else 0 for s in range(table.players))
    history = History(first_leader, plays, own_pass, hand_number, dealer, tuple(totals), direction)
    deals = play_deals(knowledge, settings.samples, rng, state, settings, history)
    others = Others.of(settings)
    logs = others.logs(state, seat, deals, history) if others.reads(history) else None
    outcomes = play_outcomes(state, seat, deals, cards, settings, history, logs=logs)
    options = options_of(table, outcomes, seat, alternatives)
    own = outcomes.points[:, :, seat].astype(np.float64)
    ranked, decided_by = _ranked(seat, "play", state, own, options, settings,
                                 deal_wins(table, totals, outcomes.points, seat, hand_number, settings))
    return Advice(seat, "play", ranked, outcomes.points.shape[1],
                  () if logs is None else _readings(seat, logs, others),
                  _position(_LETTERS[:table.players], state, seat, state.hands[seat], totals), decided_by)


def _readings(seat: int, logs: np.ndarray, others: Others) -> tuple[tuple[int, dict[str, float]], ...]:
    """:attr:`Advice.readings`, from the likelihoods the judge chose by."""
    chances = posteriors(logs)
    return tuple((s, dict(zip(others.identify, map(float, chances[s])))) for s in range(len(chances)) if s != seat)


def advise(game: GameRecord | dict, seat: int | None = None, *, settings: Settings | None = None) -> Advice:
    """The judge's advice at the end of ``game``, whose last hand is in progress.

    On a hand that passes, with no ``passes`` and no plays yet, it is ``seat``'s pass (``seat`` is
    then required); otherwise the play of the seat to move (``seat``, if given, must be it). The
    hands before the last give the game totals. Raises :class:`PositionError` (a ``ValueError``)
    naming the hand and what is wrong when the game does not stand at such a decision, and
    :class:`~hearts_analysis.records.RecordError` for a record that cannot be read.
    """
    settings = settings or Settings()
    if not isinstance(game, GameRecord):
        game = game_from_dict(game)
    advice = _advise(game, seat, settings)
    return replace(advice, position=replace(advice.position, players=game.players))


def _advise(game: GameRecord, seat: int | None, settings: Settings) -> Advice:
    if not game.hands:
        raise PositionError("the game has no hands: nothing to advise on")
    n = game.seats
    if seat is not None and not 0 <= seat < n:
        raise PositionError(f"seat {seat} is not at the table (seats 0-{n - 1})")
    asker = viewer(game)
    if asker is not None:          # a seat's view: the board asks nothing more of it (docs/views.md)
        if seat is not None and seat != asker:
            raise PositionError(f"the record is seat {asker}'s view: it cannot advise seat {seat}")
        seat = asker
        game = stand_in(game, asker)
    table = game.rules.table(n)
    number = len(game.hands)
    record = game.hands[-1]
    if not table.models("kernel") or unreviewed(record):
        fields = table.unmodelled("kernel")
        raise PositionError(f"hand {number}: the judge does not model "
                            + (f"these rules ({', '.join(fields)})" if fields else
                               "charges, claims or what an importer marked unmodelled"))
    result = replay_game(replace(game, complete=None))
    for hand in result.hands[:-1]:
        if hand.violations:
            v = hand.violations[0]
            raise PositionError(f"hand {hand.number} breaks the rules ({v.code}: {v.message}); "
                                "the totals before the hand in progress are not known")
    last = result.hands[-1]
    totals = result.hands[-2].totals if number > 1 else (0,) * n
    awaiting_pass = last.pass_direction != "hold" and table.rules.pass_count > 0 and record.passes is None
    if awaiting_pass and record.plays:
        raise PositionError(f"hand {number} passes {last.pass_direction} but records plays and no "
                            "passes: give the passes")
    allowed = {Code.HAND_INCOMPLETE} | ({Code.PASS_INVALID} if awaiting_pass else set())
    wrong = [v for v in last.violations if v.code not in allowed]
    if wrong:
        raise PositionError(f"hand {number} breaks the rules ({wrong[0].code}: {wrong[0].message})")
    if awaiting_pass:
        if seat is None:
            raise PositionError(f"hand {number} is at the pass ({last.pass_direction}): name the seat to "
                                "advise")
        return advise_pass(table, seat, mask_of(record.deal[seat]), last.pass_direction, last.dealer, totals,
                           settings, number)
    held = list(last.held)
    first_leader = HandState.first_leader_for(table, held, last.dealer)
    state = HandState(table, held, first_leader)
    for who, card in record.plays:
        state.push(who, card)
    if state.is_over:
        raise PositionError(f"hand {number} is over: every card is played, nothing to advise on")
    mover = state.to_play
    if seat is not None and seat != mover:
        raise PositionError(f"seat {seat} is not to move: seat {mover} plays next in hand {number}, "
                            f"trick {state.trick_number}")
    offset = table.pass_offset(last.pass_direction) if last.pass_direction != "hold" else 0
    return advise_play(table, mover, state.hands[mover], record.plays, first_leader, totals, settings,
                       last.passed[mover], offset, number, last.dealer, last.pass_direction)


def _entry_seat(text: str, n: int) -> int:
    """A seat written as a letter (``A`` is seat 0) or a number."""
    text = text.strip()
    index = "ABCDEFG".find(text.upper()) if len(text) == 1 and text.isalpha() else int(text) if text.isdigit() else -1
    if not 0 <= index < n:
        raise PositionError(f"seat {text!r}: expected a letter A-{'ABCDEFG'[n - 1]} or a number 0-{n - 1}")
    return index


def _entry_cards(text: str, what: str) -> tuple[Card, ...]:
    from ..cards import CardError, parse_card
    try:
        return tuple(parse_card(token) for token in text.replace(",", " ").split())
    except CardError as error:
        raise PositionError(f"{what}: {error}") from None


def advise_entry(hand: str, plays: str, seat: str, *, rules: str = "standard", direction: str | None = None,
                 passed: str = "", received: str = "", scores: Sequence[int] | None = None,
                 settings: Settings | None = None) -> Advice:
    """The advice on a position typed in, as ``hearts advise --hand ... --plays ... --seat ...`` takes it.

    ``hand``: the seat's cards as dealt (``QS TH 10H``); ``plays``: every play from the first lead as
    ``A:2C B:9C ...`` (seats as letters, ``A`` is seat 0, or numbers); ``direction`` with ``passed`` and
    ``received``: the pass (``passed`` left empty asks for the pass); ``scores``: the game totals
    before the hand (their count is the number of players, else 4).

    >>> advice = advise_entry("2C 3C 4C 5D 6D 7D QS 8S 9S TH JH QH KH", "", "A", settings=Settings(samples=20))
    >>> advice.kind, advice.best
    ('play', ('2C',))
    """
    from ..rules import Rules
    settings = settings or Settings()
    n = len(scores) if scores else 4
    table = Rules.preset(rules).table(n)
    asker = _entry_seat(seat, n)
    dealt = mask_of(_entry_cards(hand, "--hand"))
    if dealt & ~table.deck:
        raise PositionError(f"--hand: {describe(dealt & ~table.deck)} not in the deck of {n} players")
    if dealt.bit_count() != table.hand_size:
        raise PositionError(f"--hand: {dealt.bit_count()} different cards; each of {n} players is dealt "
                            f"{table.hand_size}")
    moves = []
    for token in plays.split():
        who, colon, card = token.partition(":")
        if not colon:
            raise PositionError(f"--plays: expected seat:card such as A:2C, got {token!r}")
        moves.append((_entry_seat(who, n), _entry_cards(card, "--plays")[0]))
    totals = tuple(scores) if scores else (0,) * n
    direction = direction or "hold"
    if direction not in ("left", "right", "across", "hold"):
        raise PositionError(f"--pass: unknown direction {direction!r} (left, right, across, hold)")
    if direction != "hold" and not passed:
        if moves:
            raise PositionError("--plays given but no --passed: give the pass made (--passed, --received)")
        return advise_pass(table, asker, dealt, direction, 0, totals, settings)
    gave, got = mask_of(_entry_cards(passed, "--passed")), mask_of(_entry_cards(received, "--received"))
    if direction != "hold":
        count = table.rules.pass_count
        for option, cards, wrong, why in (("--passed", gave, gave & ~dealt, "not in --hand"),
                                          ("--received", got, got & (dealt | ~table.deck), "in --hand or not in the deck")):
            if wrong:
                raise PositionError(f"{option}: {describe(wrong)} {why}")
            if cards.bit_count() != count:
                raise PositionError(f"{option}: {cards.bit_count()} different cards; the rules pass {count}")
    offset = table.pass_offset(direction)
    held = dealt & ~gave | got
    played = 0
    for who, card in moves:
        if played >> card & 1:
            raise PositionError(f"--plays: {names((card,))[0]} is played twice")
        played |= 1 << card
        if (who == asker) != bool(held >> card & 1):
            raise PositionError(f"--plays: {names((card,))[0]} is played by seat {who}, but seat {asker} "
                                + ("holds it" if held >> card & 1 else "does not hold it"))
        held &= ~(1 << card)
    first_leader = moves[0][0] if moves else asker
    return advise_play(table, asker, held, moves, first_leader, totals, settings, gave, offset, 1, 0, direction)
