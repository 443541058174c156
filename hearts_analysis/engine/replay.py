"""The reference replay: re-deal, pass, play and score every hand, flagging every violation.

After a violation the card is taken as played, so that later, independent
violations are found too: two plays swapped in the first trick are two
plays out of turn, and the replay goes on to the end of the game.

>>> import dataclasses
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_games
>>> game = next(simulate_games(1, Rules.preset("standard", target=30)))
>>> plays = list(game.hands[0].plays)
>>> plays[1], plays[2] = plays[2], plays[1]
>>> first = dataclasses.replace(game.hands[0], plays=tuple(plays))
>>> result = replay_game(dataclasses.replace(game, hands=(first, *game.hands[1:])))
>>> [(v.code, v.hand, v.trick, v.seat) for v in result.violations]
[('out-of-turn', 1, 1, 1), ('out-of-turn', 1, 1, 0)]
>>> result.violations[0].message
"seat 1 (bot2) played QC out of turn: play goes clockwise, and it was seat 0's turn"
>>> result.complete, len(result.hands)
(True, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import add

from ..cards import Card, Mask, card_name, describe, mask_of, names
from ..records.model import GameRecord, HandRecord
from ..rules import Rules, Table
from ..violations import Code, Violation
from .interpreter import exchange
from .quick import replay_clean
from .scoring import Moon, score_hand
from .sheet import moon_pattern, possible as possible_points
from .state import HandState


@dataclass(frozen=True, slots=True)
class HandResult:
    """One replayed hand: what happened and what it scores."""

    number: int
    dealer: int
    pass_direction: str
    raw_points: tuple[int, ...]
    """Points before the moon adjustment."""
    points: tuple[int, ...]
    """Points after the moon adjustment."""
    totals: tuple[int, ...]
    """Computed running totals after this hand."""
    moon: Moon | None
    tricks_won: tuple[int, ...]
    taken: tuple[Mask, ...]
    trick_winners: tuple[int, ...]
    violations: tuple[Violation, ...]
    held: tuple[Mask, ...] = ()
    """Each seat's cards at the first lead, after the pass."""
    passed: tuple[Mask, ...] = ()
    """The cards each seat gave (and held), as the pass was applied; zeros on a hold hand."""
    notes: tuple[Violation, ...] = ()
    """What the audit could not check (``view-unchecked``): notes, not violations. An importer's
    ``unmodelled`` notes are the game's (:attr:`GameResult.notes`)."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """A replayed game: every hand, every violation, the result."""

    record: GameRecord
    hands: tuple[HandResult, ...]
    violations: tuple[Violation, ...]
    totals: tuple[int, ...]
    """The standings when the game ended (after hand ``ended_at``), else after the last hand: a hand
    recorded after the end is audited (``game-continued``) and keeps its running totals, but does not
    change the result."""
    complete: bool
    """A total reached the target (the game is over under the rules)."""
    ended_at: int | None
    """The hand after which the game ended."""
    winners: tuple[int, ...]
    """Seats with the lowest total when the game ended; empty while it is not over."""
    notes: tuple[Violation, ...] = ()
    """What could not be checked (an importer's ``unmodelled`` notes, game first, then a view's hands):
    notes, which leave the game valid."""

    @property
    def valid(self) -> bool:
        return not self.violations

    @property
    def counted(self) -> tuple[HandResult, ...]:
        """The hands that count towards the result: those up to the end of the game."""
        return self.hands if self.ended_at is None else self.hands[:self.ended_at]

    def after_end(self, hand: HandResult) -> bool:
        """Whether ``hand`` was recorded after the game had ended (it is audited, not counted)."""
        return self.ended_at is not None and hand.number > self.ended_at


_BIT = tuple(1 << card for card in range(52)).__getitem__


class _Collector:
    __slots__ = ("hand", "players", "items")

    def __init__(self, hand: int, players: tuple[str, ...]):
        self.hand = hand
        self.players = players
        self.items: list[Violation] = []

    def add(self, code: str, message: str, seat: int | None = None, trick: int | None = None,
            card: Card | None = None) -> None:
        self.items.append(Violation(code, self.hand, trick, seat,
                                    None if card is None else card_name(card), message))

    def who(self, seat: int) -> str:
        return seat_phrase(seat, self.players)


def seat_phrase(seat: int, players) -> str:
    """How a message names a seat: ``seat 2 (cy)``."""
    return f"seat {seat} ({players[seat]})"


def _cards(count: int, kind: str = "") -> str:
    return f"{count} {kind}card{'' if count == 1 else 's'}"


def _check_deal(table: Table, deal: tuple[tuple[Card, ...], ...], out: _Collector) -> list[Mask]:
    hands = [mask_of(cards) for cards in deal]
    size = table.hand_size
    union = 0
    for hand in hands:
        union |= hand
    if union == table.deck and all(len(cards) == size == hand.bit_count() for cards, hand in zip(deal, hands)) \
            and union.bit_count() == size * table.players:
        return hands  # the deck, dealt evenly, no card twice: nothing to report
    owner: dict[Card, int] = {}
    for seat, cards in enumerate(deal):
        if len(cards) != size:
            out.add(Code.DEAL_INVALID, f"{out.who(seat)} was dealt {_cards(len(cards))}; each seat gets {size}", seat)
        for card in cards:
            if card in owner:
                other = owner[card]
                where = "twice" if other == seat else f"to seat {other} and seat {seat}"
                out.add(Code.DEAL_INVALID, f"{card_name(card)} was dealt {where}; every card is dealt once", seat,
                        card=card)
            else:
                owner[card] = seat
            if table.removed >> card & 1:
                out.add(Code.DEAL_INVALID, f"{card_name(card)} was dealt, but the rules remove it from the deck "
                        f"({', '.join(table.removed_cards)})", seat, card=card)
    dealt = mask_of(owner)
    missing = table.deck & ~dealt
    if missing:
        out.add(Code.DEAL_INVALID, f"{describe(missing)} {'was' if missing.bit_count() == 1 else 'were'} "
                "not dealt; the whole deck is dealt")
    return hands


def _apply_passes(table: Table, number: int, record: HandRecord, hands: list[Mask],
                  out: _Collector) -> tuple[str, tuple[Mask, ...]]:
    """Check and apply the passes; returns the direction used (the recorded one if stated) and
    the cards each seat gave."""
    n = table.players
    direction = _pass_direction(table, number, record, out)
    passes = record.passes or (None,) * n
    if direction == "hold" or table.rules.pass_count == 0:
        for seat, cards in enumerate(passes):
            if cards:
                out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {', '.join(names(cards))}, "
                        f"but hand {number} is a hold hand: nobody passes", seat)
        return "hold", (0,) * n
    count = table.rules.pass_count
    offset = table.pass_offset(direction)
    given: list[Mask] = []
    for seat, cards in enumerate(passes):
        if cards is None:
            out.add(Code.PASS_INVALID, f"{out.who(seat)} has no recorded pass; every seat passes {_cards(count)} "
                    f"{direction} on hand {number}", seat)
            given.append(0)
            continue
        _check_pass_size(seat, cards, count, out)
        wanted = mask_of(cards)
        not_held = wanted & ~hands[seat]
        if not_held:
            out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {describe(not_held)}, which it was not dealt; "
                    f"a seat passes cards from its own hand: {describe(hands[seat])}", seat,
                    card=not_held.bit_length() - 1)
        given.append(wanted & hands[seat])
    exchange(hands, given, offset)
    return direction, tuple(given)


def _check_pass_size(seat: int, cards: tuple[Card, ...], count: int, out: _Collector) -> None:
    if len(cards) != count or len(set(cards)) != len(cards):
        out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {_cards(len(set(cards)), 'different ')} "
                f"({', '.join(names(cards)) or 'none'}); each seat passes exactly {count}", seat)


def _pass_direction(table: Table, number: int, record: HandRecord, out: _Collector) -> str:
    """The direction of hand ``number``'s pass (the recorded one if stated), a stated one the rules refuse
    reported."""
    n = table.players
    expected = table.pass_direction(number)
    stated = record.pass_direction
    if expected == "any":
        direction = stated or "hold"
        if stated is None and record.passes and any(record.passes):
            out.add(Code.PASS_INVALID, "the rules take each hand's pass direction from the record, "
                    "and this hand does not state one")
        elif stated == "across" and n % 2:
            out.add(Code.PASS_INVALID, f"the record says the pass went across, but there is no 'across' "
                    f"with an odd number of players ({n})")
    else:
        direction = stated or expected
        if stated is not None and stated != expected:
            out.add(Code.PASS_INVALID, f"the record says the pass went {stated}, but hand {number} "
                    f"passes {expected} under the pass cycle ({' '.join(table.pass_cycle)})")
    return direction


def _where_is(state: HandState, card: Card, seat: int, table: Table) -> str:
    if table.removed >> card & 1:
        return "it is removed from the deck"
    if state.played >> card & 1:
        return "it was already played"
    for other, hand in enumerate(state.hands):
        if hand >> card & 1:
            return f"seat {other} holds it"
    return "it is not in the deal"


def _play_hand(table: Table, record: HandRecord, hands: list[Mask], first: int,
               out: _Collector, charged: Mask = 0, state: HandState | None = None) -> HandState:
    """Every play judged and explained: the path for hands the fast lane had doubts about (``state``: a
    view's, which knows only some of the cards held)."""
    state = state or HandState(table, hands, first, charged)
    claim = _claim(table, record, out)
    expected_plays = table.hand_size * table.players if isinstance(state, _ViewState) \
        else sum(hand.bit_count() for hand in hands)
    plays = record.plays
    for index, (seat, card) in enumerate(plays):
        if state.ended or index >= expected_plays:
            extra = len(plays) - index
            reason = (f"the hand ended when seat {state.leader} had to lead holding only hearts "
                      "(only_hearts_lead ends_hand)" if state.ended else f"all {expected_plays} cards were played")
            out.add(Code.HAND_INCOMPLETE, f"{extra} more play{'s' if extra > 1 else ''} recorded after {reason}",
                    seat, state.trick_number, card)
            break
        trick = state.trick_number
        turn = state.to_play
        if seat != turn:
            if trick == 1 and not state.trick:
                rule = ("the seat left of the dealer" if table.rules.first_lead == "left_of_dealer"
                        else f"the holder of {card_name(table.lowest_club)}")
                out.add(Code.WRONG_FIRST_LEAD, f"{out.who(seat)} led trick 1, but {rule}, seat {turn}, "
                        "leads the first trick", seat, trick, card)
            else:
                why = (f"seat {turn} leads trick {trick} (winner of trick {trick - 1})" if not state.trick
                       else f"play goes clockwise, and it was seat {turn}'s turn")
                out.add(Code.OUT_OF_TURN, f"{out.who(seat)} played {card_name(card)} out of turn: {why}",
                        seat, trick, card)
        if not (state.hands[seat] >> card & 1):
            out.add(Code.CARD_NOT_HELD, f"{out.who(seat)} played {card_name(card)}, which it does not hold "
                    f"({_where_is(state, card, seat, table)})", seat, trick, card)
        elif seat == turn and not state.clearly_legal(seat, card):
            excluded = state.exclusion(seat, card)
            if excluded is not None:
                out.add(excluded.code, f"{out.who(seat)} played {card_name(card)}: {excluded.message}",
                        seat, trick, card)
        state.push(seat, card)
    else:
        if claim is not None and not state.ended:
            state.claim(claim)
        if not state.ended and len(plays) < expected_plays and not (isinstance(state, _ViewState)
                                                                    and state.may_have_ended()):
            played = len(plays)
            out.add(Code.HAND_INCOMPLETE, f"{played} plays recorded; the hand needs {expected_plays} "
                    f"({table.hand_size} per seat) and stops at trick {state.trick_number}",
                    trick=state.trick_number)
    return state


def _charges(table: Table, record: HandRecord, held: tuple[Mask, ...], out: _Collector, unknown: Mask = 0) -> Mask:
    """The cards charged this hand, as the rules allow them; each charge they do not allow is reported
    (``unknown``: the cards a view does not place, which some unseen seat held)."""
    listed = record.charged
    if not listed:
        return 0
    allowed = table.rules.charges
    charged = 0
    for card in listed:
        holder = next((seat for seat, hand in enumerate(held) if hand >> card & 1), None)
        if card_name(card) not in allowed:
            why = ("the rules allow no charges" if not allowed
                   else f"the rules allow charging only {', '.join(allowed)}")
            out.add(Code.CHARGE_INVALID, f"{card_name(card)} is recorded as charged, but {why}", holder, card=card)
        elif holder is None and not unknown >> card & 1:
            out.add(Code.CHARGE_INVALID, f"{card_name(card)} is recorded as charged, but no seat held it "
                    "after the pass", card=card)
        else:
            charged |= 1 << card
    return charged


def _claim(table: Table, record: HandRecord, out: _Collector) -> int | None:
    """The seat that claimed the rest of the hand, where the rules allow claims; else reported, ``None``."""
    seat = record.claim
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
        out.add(Code.HAND_INCOMPLETE, f"the record ends the hand with a claim by {seat!r}, which is not a seat")
        return None
    if not table.rules.claims:
        out.add(Code.HAND_INCOMPLETE, f"the record ends the hand with a claim by {out.who(seat)}, but the rules "
                "have no claims (claims false)", seat)
        return None
    return seat


def _special(record: HandRecord) -> bool:
    """The hand carries charges or a claim: only the full replay reads them."""
    return record.charged is not None or record.claim is not None


class Running:
    """What the game-level checks carry from one hand to the next."""

    __slots__ = ("totals", "deviation", "ended_at", "winners")

    def __init__(self, seats: int):
        self.totals: tuple[int, ...] = (0,) * seats
        self.deviation = [0] * seats
        """Recorded minus computed total per seat, as of the last hand that recorded totals."""
        self.ended_at: int | None = None
        self.winners: tuple[int, ...] = ()


def replay_hand(table: Table, number: int, record: HandRecord, players: tuple[str, ...],
                running: Running | None = None) -> HandResult:
    """Replay hand ``number``; ``running`` carries the totals and the game's end between hands."""
    running = running or Running(table.players)
    if record.deal is None:
        return _sheet_hand(table, number, record, players, running)
    if None in record.deal:
        return _view_hand(table, number, record, players, running)
    result = _clean_hand(table, number, record, running)
    if result is not None:
        return result
    out = _Collector(number, players)
    dealer = table.dealer(number, record.dealer)
    hands = _check_deal(table, record.deal, out)
    direction, passed = _apply_passes(table, number, record, hands, out)
    held = tuple(hands)
    first = HandState.first_leader_for(table, hands, dealer)
    special = not table.models("quick") or _special(record)
    charged = _charges(table, record, held, out) if special else 0
    clean = None if special else replay_clean(table, hands, first, record.plays)
    if clean is None:
        state = _play_hand(table, record, hands, first, out, charged)
        clean = state.taken, state.tricks_won, state.trick_winners
    taken, tricks_won, trick_winners = clean
    raw, points, moon = score_hand(table, taken, tricks_won, record.moon, record.points, charged)
    _check_moon_record(table, record, moon, out)
    if record.points is not None:
        for seat, (got, want) in enumerate(zip(record.points, points)):
            if got != want:
                out.add(Code.POINTS_MISMATCH, points_mismatch(out.who(seat), got, want, number, moon, seat), seat)
    totals = tuple(a + b for a, b in zip(running.totals, points))
    _check_game_so_far(table, number, record.totals, totals, running, out)
    return HandResult(number, dealer, direction, tuple(raw), tuple(points), totals, moon, tuple(tricks_won),
                      tuple(taken), tuple(trick_winners), tuple(out.items), held, passed)


def _sheet_hand(table: Table, number: int, record: HandRecord, players: tuple[str, ...],
                running: Running) -> HandResult:
    """A score-sheet hand (points, no cards): the points possible under the rules, the moon choice, the
    totals and the game's end; the tricks are not there to check."""
    out = _Collector(number, players)
    points = tuple(record.points)
    charged = None if record.charged is None else sum(1 << card for card in record.charged)
    if not possible_points(table, points, None, charged):
        out.add(Code.POINTS_IMPOSSIBLE, f"hand {number} records {' '.join(map(str, points))}: no way of taking the "
                f"point cards scores that under these rules{_sheet_hint(table, points)}")
    elif record.moon is not None:
        rule = table.rules.moon
        if rule == "none" or (rule != "shooter_choice" and record.moon != rule):
            out.add(Code.MOON_CHOICE_INVALID, f"the record gives a moon choice ({record.moon}), but the rules "
                    + ("have no moon (moon none)" if rule == "none" else f"fix the moon to {rule}"))
        elif not moon_pattern(table, points, record.moon, charged):
            out.add(Code.MOON_CHOICE_INVALID, f"the record gives a moon choice ({record.moon}), but hand "
                    f"{number}'s points are not a moon scored so")
    totals = tuple(map(add, running.totals, points))
    _check_game_so_far(table, number, record.totals, totals, running, out)
    dealer = table.dealer(number, record.dealer)
    direction = table.pass_direction(number)
    none = (0,) * table.players  # no tricks recorded: nothing taken, nothing held
    return HandResult(number, dealer, record.pass_direction or direction, points, points, totals, None, none, none,
                      (), tuple(out.items), none, none)


class _ViewState(HandState):
    """A view's hand: each unseen seat holds the cards it is known to hold (those it plays, those passed to it),
    a subset of its hand, so a rule the cascade applies to that subset excludes only what the whole hand would;
    a rule that turns on the whole hand (a sweep) applies only where that hand is known."""

    __slots__ = ("known", "unknown")

    def __init__(self, table: Table, hands: list[Mask], first: int, charged: Mask, known: tuple[bool, ...],
                 unknown: Mask):
        self.known = known
        """Per seat: its whole hand is known (the asker's, or an unseen seat's whose every card is placed)."""
        self.unknown = unknown
        """The cards no seat is known to hold: some unseen seat held them."""
        super().__init__(table, hands, first, charged)

    def _rest_to(self, seat: int) -> None:
        self.hands[seat] |= self.unknown & ~self.played
        self.unknown = 0

    def _sweep(self) -> None:
        if self.known[self.leader]:        # else its unseen cards may be other than hearts: no sweep proven
            self._rest_to(self.leader)
            super()._sweep()

    def claim(self, seat: int) -> None:
        self._rest_to(seat)
        super().claim(seat)

    def may_have_ended(self) -> bool:
        """The plays stop where an unseen leader may have held only hearts (only_hearts_lead ends_hand)."""
        return (self.table.ends_hand and not self.trick and not self.broken and not self.known[self.leader])


def _view_hand(table: Table, number: int, record: HandRecord, players: tuple[str, ...],
               running: Running) -> HandResult:
    """A hand of a view (``None`` for the deals a seat cannot see): the known deals and passes, every play
    against the cards known to be held (each card once, turn order, the known hands' legality, an unseen
    seat's play against what it revealed), and the points where every card is accounted for."""
    out = _Collector(number, players)
    n, size = table.players, table.hand_size
    seen = [seat for seat, cards in enumerate(record.deal) if cards is not None]
    hands = [0] * n
    for seat in seen:
        cards = record.deal[seat]
        hands[seat] = mask_of(cards)
        if len(cards) != size or hands[seat].bit_count() != len(cards):
            out.add(Code.DEAL_INVALID, f"{out.who(seat)} was dealt {_cards(len(cards))}"
                    f"{', some twice' if hands[seat].bit_count() != len(cards) else ''}; each seat gets {size} "
                    "different cards", seat)
        if hands[seat] & table.removed:
            out.add(Code.DEAL_INVALID, f"{describe(hands[seat] & table.removed)} dealt, but the rules remove it "
                    f"from the deck ({', '.join(table.removed_cards)})", seat)
    for seat in seen:
        for other in seen:
            if other > seat and hands[seat] & hands[other]:
                out.add(Code.DEAL_INVALID, f"{describe(hands[seat] & hands[other])} dealt to seat {seat} and "
                        f"seat {other}; every card is dealt once", other)
    dealt = tuple(hands)
    direction = _pass_direction(table, number, record, out)
    passes = record.passes or (None,) * n
    given = [0] * n
    if direction == "hold" or table.rules.pass_count == 0:
        direction = "hold"
        for seat, cards in enumerate(passes):
            if cards:
                out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {', '.join(names(cards))}, "
                        f"but hand {number} is a hold hand: nobody passes", seat)
    else:
        count, offset = table.rules.pass_count, table.pass_offset(direction)
        for seat in seen:
            if passes[seat] is None and (record.passes is not None or record.plays):
                out.add(Code.PASS_INVALID, f"{out.who(seat)} has no recorded pass; every seat passes "
                        f"{_cards(count)} {direction} on hand {number}", seat)
        for seat, cards in enumerate(passes):
            if cards is None:
                continue
            _check_pass_size(seat, cards, count, out)
            wanted, to = mask_of(cards), table.pass_target(seat, direction)
            if seat in seen and wanted & ~dealt[seat]:
                out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {describe(wanted & ~dealt[seat])}, which it "
                        f"was not dealt; a seat passes cards from its own hand: {describe(dealt[seat])}", seat)
                wanted &= dealt[seat]
            elif to in seen and wanted & dealt[to]:
                out.add(Code.PASS_INVALID, f"{out.who(seat)} passed {describe(wanted & dealt[to])} to seat {to}, "
                        "which was dealt it; a seat receives cards of other hands", seat)
                wanted &= ~dealt[to]
            given[seat] = wanted & ~table.removed
        exchange(hands, given, offset)
    placed = 0
    for hand in hands:
        placed |= hand
    for seat, card in record.plays:          # an unseen seat holds the cards it plays, unless placed already
        if 0 <= seat < n and record.deal[seat] is None and table.deck >> card & 1 and not placed >> card & 1:
            hands[seat] |= 1 << card
            placed |= 1 << card
    known = tuple(record.deal[seat] is not None or hands[seat].bit_count() == size for seat in range(n))
    unknown = table.deck & ~placed
    dealer = table.dealer(number, record.dealer)
    first = HandState.first_leader_for(table, hands, dealer)
    if table.first_lead_cards and unknown >> table.lowest_club & 1 and record.plays:
        first = record.plays[0][0]           # nobody known to hold the lowest club: the first lead is taken as given
    held = tuple(hands)
    charged = _charges(table, record, held, out, unknown)
    state = _ViewState(table, hands, first, charged, known, unknown)
    _play_hand(table, record, hands, first, out, charged, state)
    taken = 0
    for cards in state.taken:
        taken |= cards
    if taken == table.deck:                  # every card is accounted for: the points follow from the tricks
        raw, points, moon = score_hand(table, state.taken, state.tricks_won, record.moon, record.points, charged)
        _check_moon_record(table, record, moon, out)
        if record.points is not None:
            for seat, (got, want) in enumerate(zip(record.points, points)):
                if got != want:
                    out.add(Code.POINTS_MISMATCH, points_mismatch(out.who(seat), got, want, number, moon, seat),
                            seat)
        totals = tuple(map(add, running.totals, points))
        unchecked = ""
    else:
        raw = points = tuple(record.points) if record.points is not None else (0,) * n
        moon = None
        totals = tuple(map(add, running.totals, points))
        if record.points is None and record.totals is not None:
            totals = tuple(record.totals)    # this hand's points are unknown: its recorded totals are taken
        unchecked = "; not every card was played, so its points are not checked"
    _check_game_so_far(table, number, record.totals, totals, running, out)
    who = " and ".join(f"seat {seat}" for seat in seen) or "no seat"
    note = Violation(Code.VIEW_UNCHECKED, number, None, seen[0] if len(seen) == 1 else None, None,
                     f"hand {number} is {who}'s view: the other seats' deals and passes are not checked, and their "
                     f"plays only against the cards they revealed{unchecked}")
    return HandResult(number, dealer, direction, tuple(raw), tuple(points), totals, moon, tuple(state.tricks_won),
                      tuple(state.taken), tuple(state.trick_winners), tuple(out.items), held, tuple(given), (note,))


def _sheet_hint(table: Table, points: tuple[int, ...]) -> str:
    """What is off, where a plain sum shows it: hearts and QS add up to the deck's point total."""
    rules = table.rules
    if rules.jack_of_diamonds or rules.no_tricks_bonus or rules.queen_of_clubs_cancels_queen \
            or rules.ten_of_clubs != 1 or rules.charges or sum(points) == table.point_total:
        return ""
    return f" (they add up to {sum(points)}; a hand's points add up to {table.point_total}, or a moon's pattern)"


def _clean_hand(table: Table, number: int, record: HandRecord, running: Running) -> HandResult | None:
    """The result of a hand with nothing to report, found at speed; ``None`` where anything needs a closer look.

    Most recorded hands are clean. This lane makes each check of
    :func:`replay_hand` in its cheapest form, and gives up (leaving ``running``
    as it was) wherever a check might report something: the full replay then
    judges the hand, and explains what it finds.
    """
    if not table.models("quick") or _special(record):
        return None
    n = table.players
    size = table.hand_size
    hands = []
    union = 0
    for cards in record.deal:  # a sum of distinct bits is their union; a repeated card shows in the count
        hand = sum(map(_BIT, cards))
        if len(cards) != size or hand.bit_count() != size:
            return None
        union |= hand
        hands.append(hand)
    if len(hands) != n or union != table.deck:
        return None
    rules = table.rules
    expected = table.pass_direction(number)
    if expected == "any" or (record.pass_direction is not None and record.pass_direction != expected):
        return None
    passes = record.passes
    if expected == "hold":
        if passes and any(passes):
            return None
        passed = (0,) * n
    else:
        if passes is None or len(passes) != n:
            return None
        count = rules.pass_count
        given = []
        for hand, cards in zip(hands, passes):
            if cards is None or len(cards) != count:
                return None
            wanted = sum(map(_BIT, cards))
            if wanted.bit_count() != count or wanted & ~hand:
                return None
            given.append(wanted)
        exchange(hands, given, table.pass_offset(expected))
        passed = tuple(given)
    held = tuple(hands)
    dealer = table.dealer(number, record.dealer)
    clean = replay_clean(table, hands, HandState.first_leader_for(table, hands, dealer), record.plays)
    if clean is None:
        return None
    taken, tricks_won, trick_winners = clean
    raw, points, moon = score_hand(table, taken, tricks_won, record.moon, record.points)
    if record.moon is not None and (moon is None or (rules.moon != "shooter_choice" and record.moon != rules.moon)):
        return None
    points = tuple(points)
    if record.points is not None and tuple(record.points) != points:
        return None
    totals = tuple(map(add, running.totals, points))
    if running.ended_at is not None and running.ended_at == number - 1:
        return None
    if record.totals is not None:
        if tuple(record.totals) != totals:
            return None
        running.deviation[:] = (0,) * n
    if running.ended_at is None and table.game_over(totals, number):
        running.ended_at = number
        running.winners = table.winners(totals)
    running.totals = totals
    return HandResult(number, dealer, expected, tuple(raw), points, totals, moon, tuple(tricks_won),
                      tuple(taken), tuple(trick_winners), (), held, passed)


def check_game_so_far(table: Table, number: int, recorded_totals: tuple[int, ...] | None, totals: tuple[int, ...],
                      running: Running, players: tuple[str, ...]) -> list[Violation]:
    """The game-level checks of hand ``number`` (:func:`replay_hand`'s last step), for a caller that scored the
    hand itself (the fast screen): its violations, and ``running`` carried on."""
    out = _Collector(number, players)
    _check_game_so_far(table, number, recorded_totals, totals, running, out)
    return out.items


def _check_game_so_far(table: Table, number: int, recorded_totals: tuple[int, ...] | None,
                       totals: tuple[int, ...], running: Running, out: _Collector) -> None:
    """Recorded totals, hands after the end, and whether this hand ends the game."""
    if running.ended_at is not None and running.ended_at == number - 1:
        why = (f"a game is {table.rules.deals_per_game} deals" if table.rules.deals_per_game
               else f"a total reached {table.rules.target}")
        out.add(Code.GAME_CONTINUED, f"the game ended after hand {running.ended_at} ({why}), but hand {number} "
                "was recorded")
    if recorded_totals is not None:
        deviation = running.deviation
        for seat, (got, want) in enumerate(zip(recorded_totals, totals)):
            off = got - want
            if off and off != deviation[seat]:
                out.add(Code.TOTALS_MISMATCH, totals_mismatch(out.who(seat), got, want, number), seat)
            deviation[seat] = off
    if running.ended_at is None and table.game_over(totals, number):
        running.ended_at = number
        running.winners = table.winners(totals)
    running.totals = totals


def _moon_note(moon: Moon | None, seat: int) -> str:
    if moon is None:
        return ""
    who = "shot the moon" if moon.seat == seat else f"seat {moon.seat} shot the moon"
    return f" ({who}, scored {moon.choice.replace('_', ' ')})"


# The messages below are the reference engine's words; the fast screen, which judges these
# violations itself (fastpath/findings.py), builds its reports from the same functions.
def points_mismatch(who: str, got: int, want: int, number: int, moon: Moon | None, seat: int) -> str:
    """The message of ``points-mismatch``: ``who`` is :func:`seat_phrase` of ``seat``."""
    return f"{who} is recorded with {got} points for hand {number}; the tricks give {want}{_moon_note(moon, seat)}"


def totals_mismatch(who: str, got: int, want: int, number: int) -> str:
    """The message of ``totals-mismatch``."""
    return f"{who}'s total after hand {number} is recorded as {got}; the points add up to {want}"


def moon_record_problem(rule: str, recorded: str | None, moon: Moon | None) -> tuple[str, int | None] | None:
    """``moon-choice-invalid``'s message and seat where the recorded moon choice is refused, else ``None``."""
    if recorded is None:
        return None
    if moon is None:
        reason = "the rules have no moon (moon none)" if rule == "none" else "no seat took every heart and QS"
        return f"the record gives a moon choice ({recorded}), but {reason}", None
    if rule != "shooter_choice" and recorded != rule:
        return (f"seat {moon.seat} shot the moon and the record says {recorded}, but the rules fix the moon "
                f"to {rule}", moon.seat)
    return None


def game_over_early(rules: Rules, hands: int, top: int) -> str:
    """The message of ``game-over-early``: the record says complete, ``hands`` hands, highest total ``top``."""
    if rules.deals_per_game:
        return f"the record says the game is complete, but it has {hands} of its {rules.deals_per_game} deals"
    verb = "exceeded" if rules.end_at == "exceed" else "reached"
    return (f"the record says the game is complete, but no total {verb} the target of {rules.target} "
            f"(highest: {top})")


def _check_moon_record(table: Table, record: HandRecord, moon: Moon | None, out: _Collector) -> None:
    problem = moon_record_problem(table.rules.moon, record.moon, moon)
    if problem is not None:
        out.add(Code.MOON_CHOICE_INVALID, problem[0], problem[1])


_TABLES: dict[tuple[Rules, int], Table] = {}


def _table(rules: Rules, players: int) -> Table:
    """``rules.table(players)``, one per rule set and table size: its cached properties are then worked out once."""
    table = _TABLES.get((rules, players))
    if table is None:
        table = rules.table(players)
        if len(_TABLES) >= 64:
            _TABLES.clear()
        _TABLES[rules, players] = table
    return table


def unmodelled(game: GameRecord) -> list[Violation]:
    """A note (``unmodelled``) for each construct the record says the engine does not model (an imported
    log's): like ``view-unchecked``, it says what the audit could not check and leaves the game valid."""
    found = []
    for number, notes in [(None, game.unmodelled), *enumerate((h.unmodelled for h in game.hands), 1)]:
        if notes:
            for note in notes:
                found.append(Violation(Code.UNMODELLED, number, None, None, None,
                                       f"not checked: {note} (the engine does not model it; the rest is checked)"))
    return found


def replay_game(game: GameRecord) -> GameResult:
    """Replay and audit every hand of a game."""
    table = _table(game.rules, game.seats)
    running = Running(game.seats)
    results = [replay_hand(table, number, record, game.players, running)
               for number, record in enumerate(game.hands, 1)]
    violations = [v for hand in results for v in hand.violations]
    ended_at = running.ended_at
    totals = running.totals if ended_at is None or ended_at == len(results) else results[ended_at - 1].totals
    if game.complete and ended_at is None:
        top = max(totals) if game.hands else 0
        violations.append(Violation(Code.GAME_OVER_EARLY, None, None, None, None,
                                    game_over_early(table.rules, len(game.hands), top)))
    if game.winners is not None:
        violations += _check_winners(game, running.winners, ended_at, len(results), totals)
    notes = unmodelled(game) + [note for hand in results for note in hand.notes]
    return GameResult(game, tuple(results), tuple(violations), totals, ended_at is not None,
                      ended_at, running.winners, tuple(notes))


def _check_winners(game: GameRecord, winners: tuple[int, ...], ended_at: int | None, hands: int,
                   totals: tuple[int, ...]) -> list[Violation]:
    """``winner-mismatch`` where the players the record names are not the seats lowest when the game ended."""
    named = set(game.winners or ())
    right = {game.players[seat] for seat in winners}
    if named == right:
        return []
    said = ", ".join(game.winners or ()) or "nobody"
    if ended_at is None:
        why = "but the game has not ended, so nobody has won"
    else:
        low = totals[winners[0]]
        why = f"but after hand {ended_at} the lowest total ({low}) is {', '.join(sorted(right))}'s"
    return [Violation(Code.WINNER_MISMATCH, ended_at or hands or None, None, None, None,
                      f"the record names {said} the winner, {why}")]

