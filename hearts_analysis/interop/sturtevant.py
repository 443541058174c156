"""Sturtevant's Hearts game histories (``<user>.play``) <-> ``hearts-game/1`` records.

The history file of Nathan Sturtevant's Hearts program (the xinxin program from which
OpenSpiel's Hearts descends), as its ``SingleGameHistory`` and ``SingleHandHistory`` save
and load it. Numbers are separated by spaces, one group per line::

    <games>                                  the file's count of games
    <hands>                                  then, per game: its count of hands,
    <name0> <name1> <name2> <rules>          three player names and the rules bitmask,
    <s0> <s1> <s2> <s3>                      then per hand: each seat's points,
    <spades> <diamonds> <clubs> <hearts>     per seat (4 times): its hand after the pass,
    <c1> <c2> <c3>                           one 16-bit mask per suit, and the 3 cards it passed
                                             (-1 -1 -1 on a hold hand);
    <p1> ... <p52>                           the 52 cards played, trick by trick.

A card is ``suit * 16 + rank`` with suits spades 0, diamonds 1, clubs 2, hearts 3 and ranks
ace 0 to two 12; a suit mask has bit ``rank`` set for each card held.

The file keeps neither the dealt hands, nor the pass direction, nor who played each card: the
direction is the one seat offset (left +1, right -1, across +2) that puts every passed card in
its receiver's hand, the deal is the hand held less what was received plus what was given, and
the plays are seated by the rules (the holder of 2C leads; the trick winner leads next;
without a clubs-lead rule, seat ``k mod 4`` leads hand ``k + 1``, which the record states as the
dealer before it). Only three names are stored: the fourth seat is named after the file (the
program names the file after its user).

>>> card_name(card_from_sturtevant(2 * 16 + 12)), sturtevant_card(parse_card("QS"))
('2C', 2)
>>> rules_from_bits(DEFAULT_BITS)[0].to_spec()
{'preset': 'sturtevant'}
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from ..cards import JD, Card, card_name, iter_cards, mask_of, parse_card  # card_name, parse_card: doctest
from ..engine.replay import replay_game
from ..engine.state import HandState
from ..records.errors import Item, RecordError
from ..records.model import GameRecord, HandRecord
from ..rules import Rules, dealer_of
from .rebuild import (ExportError, cut_tolerant, deal_before_pass, integers, rebuild_direction, refuse_unfit,
                      rule_differences, trick_seats)

NAME = "sturtevant"
TITLE = "Sturtevant's Hearts (xinxin) game history, .play"
PRESET = "sturtevant"
PLAYERS = 4
_TABLE = Rules().table(PLAYERS)
_LEFT_OF_DEALER = Rules(first_lead="left_of_dealer").table(PLAYERS)
"""Four seats: who receives each pass, who deals each hand."""
HAND_SIZE = 13
PASS_CARDS = 3
HAND_LINES = 2 + 2 * PLAYERS
"""Lines per hand: points, then a hand line and a pass line per seat, then the plays."""

_SUIT_TO_OURS = (3, 1, 0, 2)
"""The program's suits spades, diamonds, clubs, hearts as ours (clubs 0, diamonds 1, hearts 2, spades 3)."""
_SUIT_FROM_OURS = tuple(_SUIT_TO_OURS.index(s) for s in range(4))

# The bits of the program's rules bitmask, by the names it gives them.
QUEEN_PENALTY, JACK_BONUS, NO_TRICK_BONUS, END_SCORE_BONUS = 0x0001, 0x0002, 0x0004, 0x0008
SHOOTING_NEEDS_JACK, LEAD_2_CLUBS, LEAD_CLUBS, NO_HEARTS_FIRST_TRICK = 0x0010, 0x0020, 0x0040, 0x0080
NO_QUEEN_FIRST_TRICK, QUEEN_BREAKS_HEARTS, DO_PASS_CARDS, MUST_BREAK_HEARTS = 0x0100, 0x0200, 0x0400, 0x0800
HEARTS_ARENT_POINTS, NO_SHOOTING = 0x1000, 0x2000
KNOWN_BITS = 0x3FFF
DEFAULT_BITS = (QUEEN_PENALTY | MUST_BREAK_HEARTS | QUEEN_BREAKS_HEARTS | DO_PASS_CARDS
                | NO_QUEEN_FIRST_TRICK | NO_HEARTS_FIRST_TRICK | LEAD_CLUBS)
"""The rules the program's own driver sets: the ``sturtevant`` preset."""
JACK_POINTS, NO_TRICK_POINTS = -10, -5


# -- cards ---------------------------------------------------------------------------
def card_from_sturtevant(value: int) -> Card:
    suit, rank = value >> 4 & 3, value & 15
    return _SUIT_TO_OURS[suit] * 13 + (12 - rank)


def sturtevant_card(card: Card) -> int:
    return _SUIT_FROM_OURS[card // 13] * 16 + (12 - card % 13)


def cards_of_suits(masks: list[int]) -> int:
    """Our mask of the cards in the four suit masks (spades, diamonds, clubs, hearts)."""
    return mask_of(card_from_sturtevant(suit * 16 + rank)
                   for suit, bits in enumerate(masks) for rank in range(HAND_SIZE) if bits >> rank & 1)


def suits_of_cards(mask: int) -> list[int]:
    masks = [0] * 4
    for card in iter_cards(mask):
        value = sturtevant_card(card)
        masks[value >> 4] |= 1 << (value & 15)
    return masks


# -- rules bitmask <-> rules -------------------------------------------------------------
def rules_from_bits(bits: int) -> tuple[Rules, tuple[str, ...]]:
    """The rule set the bitmask plays, and what of it the engine does not model (in words)."""
    overrides: dict[str, Any] = {}
    unmodelled: list[str] = []
    if not bits & DO_PASS_CARDS:
        overrides["pass_count"] = 0
    if bits & LEAD_2_CLUBS:
        overrides["first_lead"] = "lowest_club"
    elif not bits & LEAD_CLUBS:
        overrides["first_lead"] = "left_of_dealer"
    first_trick = bits & (NO_HEARTS_FIRST_TRICK | NO_QUEEN_FIRST_TRICK)
    if not first_trick:
        overrides["points_on_first_trick"] = True
    elif first_trick != NO_HEARTS_FIRST_TRICK | NO_QUEEN_FIRST_TRICK:
        which = "hearts" if bits & NO_HEARTS_FIRST_TRICK else "QS"
        unmodelled.append(f"rules bitmask {bits}: only {which} is kept off the first trick")
    if not bits & MUST_BREAK_HEARTS:
        overrides["hearts_must_be_broken"] = False
    if not bits & QUEEN_BREAKS_HEARTS:
        overrides["hearts_broken_by"] = "heart"
    if bits & JACK_BONUS:
        overrides["jack_of_diamonds"] = JACK_POINTS
        unmodelled.append(f"rules bitmask {bits}: JD -10 under a moon (the program takes 10 off every "
                          "seat's moon score when the shooter took JD)")
    if bits & NO_TRICK_BONUS:
        overrides["no_tricks_bonus"] = NO_TRICK_POINTS
    if bits & NO_SHOOTING:
        overrides["moon"] = "none"
    named = {QUEEN_PENALTY: "QS not a penalty card", END_SCORE_BONUS: "the end-score bonus",
             SHOOTING_NEEDS_JACK: "shooting the moon needs JD", HEARTS_ARENT_POINTS: "hearts scoring no points"}
    for bit, words in named.items():
        if (bit == QUEEN_PENALTY) != bool(bits & bit):
            unmodelled.append(f"rules bitmask {bits}: {words}")
    if bits & ~KNOWN_BITS:
        unmodelled.append(f"rules bitmask {bits}: unknown bits {bits & ~KNOWN_BITS:#x}")
    return Rules.preset(PRESET, **overrides), tuple(unmodelled)


def bits_for(rules: Rules) -> int:
    """The program's bitmask for a rule set; raises :class:`ExportError` naming what it cannot express."""
    bits, problems = _bits(rules)
    if problems:
        raise ExportError(_cannot_express(problems))
    return bits


def _cannot_express(problems: list[str]) -> str:
    return f"the program's rules bitmask cannot express this game's rules: {'; '.join(problems)}"


def _bits(rules: Rules) -> tuple[int, list[str]]:
    """The program's bitmask for a rule set, and what of the rules it cannot express, in words."""
    bits = QUEEN_PENALTY | NO_HEARTS_FIRST_TRICK | NO_QUEEN_FIRST_TRICK | MUST_BREAK_HEARTS | QUEEN_BREAKS_HEARTS
    base = Rules.preset(PRESET)
    problems = rule_differences(rules, base, PLAYERS, ("removed_cards", "pass_cycle", "only_hearts_lead",
                                                       "queen_of_clubs_cancels_queen", "target", "end_at"))
    if rules.pass_count not in (0, PASS_CARDS):
        problems.append(f"pass_count {rules.pass_count}, where it passes {PASS_CARDS} cards or none")
    if rules.pass_count:
        bits |= DO_PASS_CARDS
    bits |= {"lowest_club": LEAD_2_CLUBS, "any_club": LEAD_CLUBS, "left_of_dealer": 0}[rules.first_lead]
    if rules.points_on_first_trick:
        bits &= ~(NO_HEARTS_FIRST_TRICK | NO_QUEEN_FIRST_TRICK)
    if not rules.hearts_must_be_broken:
        bits &= ~MUST_BREAK_HEARTS
    if rules.hearts_broken_by == "heart":
        bits &= ~QUEEN_BREAKS_HEARTS
    if rules.jack_of_diamonds == JACK_POINTS:
        bits |= JACK_BONUS
    elif rules.jack_of_diamonds:
        problems.append(f"jack_of_diamonds {rules.jack_of_diamonds}, where its JD counts {JACK_POINTS} or nothing")
    if rules.no_tricks_bonus == NO_TRICK_POINTS:
        bits |= NO_TRICK_BONUS
    elif rules.no_tricks_bonus:
        problems.append(f"no_tricks_bonus {rules.no_tricks_bonus}, where its bonus is {NO_TRICK_POINTS} or nothing")
    if rules.moon == "none":
        bits |= NO_SHOOTING
    elif rules.moon != "add_to_others":
        problems.append(f"moon {rules.moon}, where it plays add_to_others or none")
    problems += rule_differences(rules, base, PLAYERS, ("charges", "ten_of_clubs", "deals_per_game", "claims"))
    return bits, problems


def unfit(game: GameRecord) -> str | None:
    """Why the program's history file cannot hold this game, in words; ``None`` where it can: the program plays
    4 seats, its rules are those its bitmask expresses, and it saves finished hands (and scores JD under a moon
    its own way)."""
    if game.seats != PLAYERS:
        return f"{game.seats} players; the program plays with {PLAYERS}"
    bits, problems = _bits(game.rules)
    if problems:
        return _cannot_express(problems)
    result = replay_game(game)
    for number, (hand, replayed) in enumerate(zip(game.hands, result.hands), 1):
        if len(hand.plays) != PLAYERS * HAND_SIZE:
            return f"hand {number}: {len(hand.plays)} of {PLAYERS * HAND_SIZE} cards played; the program saves " \
                   "finished hands only"
        if replayed.moon is not None and bits & JACK_BONUS and any(t >> JD & 1 for t in replayed.taken):
            return f"hand {number}: the program scores JD under a moon its own way"
    return None


# -- reading --------------------------------------------------------------------------
class _Lines:
    """The non-blank lines of a stream, with their numbers."""

    def __init__(self, stream: TextIO):
        self.lines = [(n, text.strip()) for n, text in enumerate(stream, 1) if text.strip()]
        self.at = 0

    def __bool__(self) -> bool:
        return self.at < len(self.lines)

    def take(self) -> tuple[int, str]:
        line = self.lines[self.at]
        self.at += 1
        return line

    def peek(self, ahead: int = 0) -> str | None:
        index = self.at + ahead
        return self.lines[index][1] if index < len(self.lines) else None


def _is_game_start(lines: _Lines) -> bool:
    count, header = lines.peek(), lines.peek(1)
    if count is None or header is None or not count.lstrip("-").isdigit():
        return False
    tokens = header.split()
    return len(tokens) == 4 and tokens[3].lstrip("-").isdigit()


def sniff(head: str) -> bool:
    """Two or three lines of counts, then three names and a number, then four points."""
    rows = [line.split() for line in head.splitlines() if line.strip()][:4]
    shape = [len(r) for r in rows]
    if shape[:3] == [1, 1, 4]:
        rows = rows[1:]
    elif shape[:2] != [1, 4]:
        return False
    rows = rows[:3]
    try:
        return rows[0][0].lstrip("-").isdigit() and rows[1][3].lstrip("-").isdigit() and (
            len(rows) < 3 or (len(rows[2]) == PLAYERS and all(t.lstrip("-").isdigit() for t in rows[2])))
    except IndexError:
        return False


def _hand(lines: _Lines, number: int, clubs_lead: bool) -> tuple[HandRecord, bool]:
    """One hand; ``(hand, cut)``: ``cut`` when the file ends inside its plays (the hand is then incomplete)."""
    field = f"hands[{number - 1}]"
    line, text = lines.take()
    try:
        points = integers(text, f"{field}.points", PLAYERS)
        held, passes = [], []
        for seat in range(PLAYERS):
            line, text = lines.take()
            suits = integers(text, f"{field}.cards[{seat}]", 4)
            if any(not 0 <= s < 1 << 16 for s in suits):
                raise RecordError("a suit mask is out of range 0..65535", f"{field}.cards[{seat}]")
            held.append(cards_of_suits(suits))
            line, text = lines.take()
            given = integers(text, f"{field}.passes[{seat}]", PASS_CARDS)
            passes.append(None if given == [-1] * PASS_CARDS else tuple(_card(v, f"{field}.passes[{seat}]")
                                                                        for v in given))
        cut = not lines or _is_game_start(lines)
        plays_text = ""
        if not cut:
            line, plays_text = lines.take()
        played = [_card(v, f"{field}.plays") for v in integers(plays_text, f"{field}.plays")]
    except IndexError:
        raise RecordError("the file ends inside this hand", field).at(f"line {line}") from None
    except RecordError as error:
        raise error.at(f"line {line}")
    if len(played) > PLAYERS * HAND_SIZE:
        raise RecordError(f"{len(played)} cards played; a hand has {PLAYERS * HAND_SIZE}",
                          f"{field}.plays").at(f"line {line}")
    if all(p is None for p in passes):
        direction = "hold"
    else:
        if any(p is None for p in passes):
            raise RecordError("some seats passed and others did not", f"{field}.passes").at(f"line {line}")
        found = rebuild_direction(passes, held, _TABLE)
        if found is None:
            raise RecordError("the passed cards are not each in one receiving seat's hand: no pass "
                              "direction fits", f"{field}.passes").at(f"line {line}")
        direction = found
    deal = deal_before_pass(held, passes, direction, _TABLE)
    # seat 3 deals the program's hand 1, so the seat left of the dealer leads hand k (k - 1 mod 4) unless
    # the holder of 2C leads
    dealer = dealer_of(number, PLAYERS - 1, PLAYERS)
    leader = HandState.first_leader_for(_TABLE if clubs_lead else _LEFT_OF_DEALER, held, dealer)
    seats, _ = trick_seats(played, leader, PLAYERS)
    hand = HandRecord(deal=tuple(tuple(iter_cards(m)) for m in deal), plays=tuple(zip(seats, played)),
                      passes=None if direction == "hold" else tuple(passes), pass_direction=direction,
                      points=tuple(points))
    return hand, len(played) < PLAYERS * HAND_SIZE


def _card(value: int, field: str) -> Card:
    if not 0 <= value < 64 or value & 15 > 12:
        raise RecordError(f"{value} is not a card code (suit * 16 + rank, rank 0-12)", field)
    return card_from_sturtevant(value)


def _game(lines: _Lines, stem: str, index: int, skipped: list[RecordError]) -> GameRecord:
    """One game; a last hand the file ends inside of is named in ``skipped`` and left out."""
    line, text = lines.take()
    count = integers(text, "hands", 1)[0]
    line, text = lines.take()
    tokens = text.split()
    try:
        bits = integers(tokens[3] if len(tokens) == 4 else "x", "rules", 1)[0]
    except RecordError as error:
        raise error.at(f"line {line}")
    rules, unmodelled = rules_from_bits(bits)
    hands = []
    for number in range(1, count + 1):
        if not lines or _is_game_start(lines):
            break
        clubs_lead = rules.first_lead != "left_of_dealer"
        try:
            hand, cut = _hand(lines, number, clubs_lead)
        except RecordError as error:
            if lines:
                raise
            # the file ends inside this hand's cards: its deal cannot be known, and only it is lost
            if not hands:
                raise RecordError(f"the file ends inside the game's first hand ({error.detail})", error.field
                                  ).at(error.source or "")
            why = "" if error.detail.startswith("the file ends") else f" ({error.detail})"
            skipped.append(RecordError(f"the file ends inside this hand{why}: it is left out, the "
                                       f"{len(hands)} before it are kept", error.field).at(error.source or ""))
            break
        if not clubs_lead:  # seat 3 deals hand 1; the seat left of this dealer, (k - 1) mod 4, leads hand k
            hand = HandRecord(deal=hand.deal, plays=hand.plays, passes=hand.passes,
                              dealer=dealer_of(number, PLAYERS - 1, PLAYERS),
                              pass_direction=hand.pass_direction, points=hand.points)
        hands.append(hand)
        if cut:
            break
    return GameRecord(players=(*tokens[:3], stem), hands=tuple(hands), rules=rules, rules_spec=rules.to_spec(),
                      game_id=f"{stem}-{index}", unmodelled=unmodelled or None, extra={"sturtevant_rules": bits})


@cut_tolerant
def read(stream: TextIO, name: str) -> Iterator[Item]:
    """Every game of a history file; an unreadable game is an error item and the next game is read."""
    stem = Path(name).stem or "player4"
    lines = _Lines(stream)
    if lines.peek() is not None and not _is_game_start(lines):
        line, text = lines.take()  # the file's count of games (absent from a single game's text)
        try:
            integers(text, "games", 1)
        except RecordError as error:
            yield Item(f"{name}:{line}", error=error.at(f"{name}:{line}"))
    index = 0
    while lines:
        index += 1
        start = lines.lines[lines.at][0]
        skipped: list[RecordError] = []
        try:
            game = _game(lines, stem, index, skipped)
        except RecordError as error:
            where = f"{name}:{(error.source or f'line {start}').removeprefix('line ')}"
            yield Item(where, error=error.at(where))
            while lines and not _is_game_start(lines):
                lines.take()
            continue
        for error in skipped:
            where = (error.source or f"line {start}").removeprefix("line ")
            yield Item(f"{name}:{where}", error=error.at(f"{name}:{where}"))
        yield Item(f"{name}:{start}", game)


# -- writing --------------------------------------------------------------------------
def game_text(game: GameRecord) -> str:
    """One game as the program saves it; raises :class:`ExportError` where it cannot hold the game (:func:`unfit`)."""
    refuse_unfit(game, unfit)
    bits = bits_for(game.rules)
    result = replay_game(game)
    lines = [str(len(game.hands)), " ".join(_name(p) for p in game.players[:3]) + f" {bits}"]
    for hand, replayed in zip(game.hands, result.hands):
        points = hand.points if hand.points is not None else replayed.points
        lines.append(" ".join(map(str, points)))
        for seat in range(PLAYERS):
            lines.append(" ".join(map(str, suits_of_cards(replayed.held[seat]))))
            given = hand.passes[seat] if hand.passes and hand.passes[seat] else None
            lines.append(" ".join(str(sturtevant_card(c)) for c in given) if given else "-1 -1 -1")
        lines.append(" ".join(str(sturtevant_card(card)) for _, card in hand.plays))
    return "\n".join(lines) + "\n"


def _name(player: str) -> str:
    return "_".join(player.split()) or "?"


def write(games: Iterable[GameRecord], out: TextIO) -> int:
    """A history file of the games (the program reads its names with ``%s``: spaces become ``_``)."""
    texts = [game_text(game) for game in games]
    out.write(f"{len(texts)}\n")
    out.writelines(texts)
    return len(texts)


__all__ = ["DEFAULT_BITS", "NAME", "TITLE", "bits_for", "card_from_sturtevant", "game_text", "read",
           "rules_from_bits", "sniff", "sturtevant_card", "unfit", "write"]
