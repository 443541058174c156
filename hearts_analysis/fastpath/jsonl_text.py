"""Game lines encoded from their text: the hands of a compact line are read without building them in Python.

Parsing a line with orjson builds a list and a string for every card and play
(about two thousand objects a game), and the encoder then writes the card
lists back to text to check them: together four fifths of the time of
``hearts validate x.jsonl``. Most lines are written compactly, as
``hearts convert`` and the simulator write them, and for those the text of
the ``hands`` array already is the card text the encoder wants (the hands of a
line with a space after every comma and colon, as Python's ``json`` writes
it, are made compact first). Here the
array is cut at its hands, and each hand at its fields by a pattern that
steps over card lists of the game's usual lengths at once (a pattern that
looked at every character would cost more than orjson), or else by byte
searches; every piece is checked strictly: the known fields in record order,
each once; card lists compared with the text their shape must have,
character class by character class; seats and dealers one digit; whole
numbers that fit in int32; no other whitespace, no escapes, no nulls. The rest of the line, with
``[]`` in place of the hands, is parsed by orjson and checked by the encoder itself. The hands of
consecutive lines are checked together (:meth:`LineEncoder.add_lines`).
A line that does not fit, anywhere, is parsed and encoded whole as before
(:meth:`EventEncoder.add_json`), so what this reads gives the rows the usual
path gives, and the tests compare the two.

>>> encoder = LineEncoder()
>>> line = (b'{"players":["a","b","c"],"hands":[{"dealer":0,"deal":[["2C"],["3C"],["4C"]],'
...         b'"plays":[[0,"2C"],[1,"3C"],[2,"4C"]],"points":[0,0,0]}]}')
>>> encoder.add_line(line), encoder.add_line(line.replace(b'"2C"', b'"2c"'))  # read from text, parsed
(True, False)
>>> encoder.games, encoder.hands
(2, 2)
"""

from __future__ import annotations

import re
from itertools import product, repeat
from operator import itemgetter
from typing import Any, Iterable, NamedTuple

import orjson

from ..records.model import HAND_KEYS, REFERENCE_ONLY
from ..records.parquet.encode import MAX_HANDS, EventEncoder, GameHeader
from ..records.parquet.shred import Shredded, decline
from ..rules import MOON_CHOICES, PASS_DIRECTIONS

_LANE_KEYS = tuple(key for key in HAND_KEYS if key not in REFERENCE_ONLY)
"""The hand fields this lane reads; a hand with any other (a charge, a claim, unmodelled notes) is declined, so
that the reference replay, which alone reads those, judges its game."""
_DEALER, _DIRECTION, _DEAL, _PASSES, _PLAYS, _MOON, _POINTS, _TOTALS = map(_LANE_KEYS.index, (
    "dealer", "pass_direction", "deal", "passes", "plays", "moon", "points", "totals"))
_NAME, _VALUE = itemgetter(2), itemgetter(0)
_LAYOUTS = {tuple(name.encode() for name in names): tuple(names.index(field) + 1 if field in names else 0
                                                          for field in _LANE_KEYS)
            for names in (tuple(field for field, given in zip(_LANE_KEYS, flags) if given)
                          for flags in product((False, True), repeat=len(_LANE_KEYS)))
            if "deal" in names and "plays" in names}
"""The names of a hand's fields, in record order (the deal and the plays among them) -> where each field of
:data:`_LANE_KEYS` is in the values of :func:`_fields` (0: absent)."""
_HANDS_KEY, _SPACED_HANDS_KEY, _PASSES_KEY = b'"hands":[{', b'"hands": [{', b'"passes":[['
_NUMBER_LIST = rb'\[[-0-9,]*\]'
"""What a hand's pattern takes for a list of points: :func:`_numbers` checks them all at once, which costs less than
a pattern of whole numbers in every hand."""
_NUMBER_TEXT = b"0123456789-,[]|"
_DIGIT_CLASS = bytes(ord("d") if chr(b).isdigit() else b for b in range(256))
_TEN_DIGITS = b"d" * 10
"""Points and totals have at most nine digits: within int32, as the columns hold them."""
_BAD = object()
_DIGITS = {str(d).encode(): d for d in range(10)} | {None: None}
_DIRECTIONS = {f'"{name}"'.encode(): name for name in PASS_DIRECTIONS} | {None: None}
_MOONS = {f'"{name}"'.encode(): name for name in MOON_CHOICES} | {None: None}
_RANKS = b"23456789TJQKA"
_SEAT_DIGITS = {n: bytes(range(ord("0"), ord("0") + n)) for n in range(3, 8)}
_PUNCTUATION = b'[],"'
_CARD_CLASS, _PLAY_CLASS = (bytes(ord("r") if chr(b) in ranks else ord("s") if chr(b) in "CDHS"
                                    else b if chr(b) in '[],"' else ord("?") for b in range(256))
                              for ranks in ("23456789TJQKA", "0123456789TJQKA"))
"""Character classes of card text: ``r`` a rank (of plays: or a seat), ``s`` a suit, the punctuation of lists
of strings as itself, ``?`` anything else."""
_CARD_SHAPE, _PLAY_SHAPE = b'"rs"', b'[r,"rs"]'
_SHAPES: dict[tuple, bytes] = {}
_SHAPES_MAX = 1024
_MOST_CARDS = 52
"""Cards a seat may hold here (a deck's); the shapes of longer lists are not made, nor kept."""
_HAND_PATTERNS: dict[tuple[int, int, int], Any] = {}
_REPEATED: dict[tuple[bytes, int], bytes] = {}


class LineEncoder(EventEncoder):
    """An :class:`EventEncoder` that also takes lines of JSON, reading compact ones from their text."""

    def add_line(self, line: bytes) -> bool:
        """Add the game on a line of JSON, exactly as ``add_json(orjson.loads(line))`` would (raising what it
        raises); ``True`` if its hands were read from the text."""
        game = self._text_game(line, self.next_game)
        if game is not None and self._add_text(game):
            return True
        self.add_json(orjson.loads(line))  # the usual path decides, and raises what it raises
        return False

    def add_lines(self, lines: Iterable[tuple[int, bytes]]) -> list[int]:
        """Add the game on each numbered line (its ``game`` value is the number less one), as :meth:`add_line`
        would one by one; the index of each line's game among the batch's games, or -1 where the line was not
        taken (what is wrong with it is the JSON reader's to say).

        The hands of consecutive compact lines are read together: the pattern of a game's hands (:func:`_rows`)
        is made once for all, and their card lists and numbers are checked at once, which costs a fraction of
        reading them game by game.

        A line that names more plays lists than a game may have hands here (:data:`MAX_HANDS`) is left to the JSON
        reader without being read: parsing a line of tens of megabytes only to be refused took longer, and as
        much memory again, as the reference engine's one parse of it. (Each hand has its plays; a line where the
        word is also in strings is merely left to the reader, which is always right.)
        """
        placed: list[int] = []
        run: list[_TextGame] = []
        for number, line in lines:
            if line.count(b'"plays"') > MAX_HANDS:  # more hands than the layout numbers: not parsed here at all
                placed += self._add_run(run)
                run = []
                placed.append(-1)
                continue
            game = self._text_game(line, number - 1)
            if game is not None:
                run.append(game)
                continue
            placed += self._add_run(run)
            run = []
            try:
                self.next_game = number - 1
                self.add_json(orjson.loads(line))
                placed.append(self.games - 1)
            except Exception:
                placed.append(-1)
        return placed + self._add_run(run)

    def _text_game(self, line: bytes, number: int) -> "_TextGame | None":
        """The game on a line whose hands are compact text and whose other fields pass the encoder's checks,
        its hands still text (one piece a hand, between its braces); else ``None``.

        The hands' text is checked to be valid JSON later (it holds no backslash), so the line is valid JSON
        exactly when the line with ``[]`` in its place is; with backslashes excluded there too, the only
        ``"hands"`` of that line is its top-level key, and the object orjson gives is the record's, hands aside.
        """
        at = line.find(_HANDS_KEY)
        if at < 0:
            return self._spaced_game(line, number)
        at += len(_HANDS_KEY) - 2
        found = _hand_texts(line, at + 1)
        if found is None:
            return None
        hands, end = found
        rest = line[:at] + b"[]" + line[end:]
        if b"\\" in rest or rest.count(b'"hands"') != 1:
            return None
        try:
            obj = orjson.loads(rest)
        except orjson.JSONDecodeError:
            return None
        if type(obj) is not dict or obj.get("hands") != []:
            return None
        obj["hands"] = hands
        try:
            return _TextGame(number, line, self.game_header(obj))
        except Exception:  # declined, or refused: the usual path decides
            return None

    def _spaced_game(self, line: bytes, number: int) -> "_TextGame | None":
        """:meth:`_text_game` of a line written with a space after each comma and colon (as Python's ``json``
        writes by default): its hands made compact first.

        Only a space after a comma or a colon goes; in the hands' known fields no string holds one, so what is read
        is what the line says, and a line whose hands were not valid JSON stays invalid (any other difference is
        declined by the checks, and the line parsed whole).
        """
        at = line.find(_SPACED_HANDS_KEY)
        if at < 0:
            return None
        end = line.find(b"}]", at) + 2
        if end < 2:
            return None
        hands = line[at:end].replace(b", ", b",").replace(b": ", b":")
        game = self._text_game(line[:at] + hands + line[end:], number)
        return None if game is None else game._replace(line=line)

    def _add_run(self, run: "list[_TextGame]") -> list[int]:
        """Add the games of consecutive lines in order (:meth:`add_lines`): runs of games whose hands all fit
        one pattern at once, any other alone."""
        placed: list[int] = []
        together: list[tuple[_TextGame, list]] = []
        patterns: dict[int, Any] = {}
        for game in run:
            texts, seats = game.header.hands, game.header.seats
            found = _read(patterns.get(seats), texts)
            if found is None:       # not the pattern of the last game of this size: this game's own
                patterns[seats] = _pattern(texts, seats)
                found = _read(patterns[seats], texts)
            if found is None:
                placed += self._add_together(together)
                together = []
                placed.append(self._add_alone(game))
                continue
            if together and together[-1][0].header.seats != seats:
                placed += self._add_together(together)
                together = []
            together.append((game, found))
        return placed + self._add_together(together)

    def _add_together(self, together: "list[tuple[_TextGame, list]]") -> list[int]:
        """Add games of one table size whose hands the pattern read, their card lists checked at once."""
        if not together:
            return []
        games = [game for game, _ in together]
        try:
            hands = _encoded([row for _, rows in together for row in rows], games[0].header.seats)
        except Exception:  # one of them is not as the text lane reads it: each alone
            return [self._add_alone(game) for game in games]
        first = self.games
        numbers = [number for _, rows in together for number in range(1, len(rows) + 1)]
        self.commit_games([game.header for game in games], hands._replace(numbers=numbers),
                          [game.number for game in games])
        return list(range(first, self.games))

    def _add_alone(self, game: "_TextGame") -> int:
        """Add one game as :meth:`add_line` would; its index in the batch, or -1 where the encoder refused it."""
        self.next_game = game.number
        if not self._add_text(game):
            try:
                self.add_json(orjson.loads(game.line))
            except Exception:
                return -1
        return self.games - 1

    def _add_text(self, game: "_TextGame") -> bool:
        """Add a game whose hands its text gives; ``False`` (nothing added) where the text lane declines them."""
        try:
            self.commit_games([game.header], _text_hands(game.header.hands, game.header.seats), [game.number])
        except Exception:  # declined, or refused: the usual path decides
            return False
        return True


def _read(pattern, texts: list[bytes]) -> list[tuple] | None:
    """The fields of every hand of ``texts`` by ``pattern``, or ``None`` unless it reads them all."""
    if pattern is None:
        return None
    found = list(map(pattern, texts))
    return None if None in found else [match.groups() for match in found]


class _TextGame(NamedTuple):
    """A line whose game is checked but for its hands, still text."""

    number: int
    """The game's ``game`` value."""
    line: bytes
    header: GameHeader


def _hand_texts(line: bytes, at: int) -> tuple[list[bytes], int] | None:
    """The text of each hand of the array whose first ``{`` is at ``at``, and where the array ends; ``None`` where
    a hand holds a ``}`` or the array is not ``[{...},...,{...}]``.

    Found by looking for each ``}`` (a fast byte search): a search for ``}]`` or a split at ``},{`` would stop at
    every ``]`` or ``,`` of the card lists and cost five times as much.
    """
    hands = []
    while True:
        close = line.find(b"}", at)
        if close < 0:
            return None
        hands.append(line[at + 1:close])
        after = line[close + 1:close + 3]
        if after == b",{":
            at = close + 2
        elif after[:1] == b"]":
            return hands, close + 2
        else:
            return None


def _text_hands(hands: list[bytes], n: int) -> Shredded:
    """The rows of a game's hands, each hand the text between its braces."""
    return _encoded(_rows(hands, n), n)


def _rows(hands: list[bytes], n: int) -> list:
    """The text of each field of each hand, as :func:`_fields` gives it."""
    pattern = _pattern(hands, n)
    if pattern is None:
        return list(map(_fields, hands))
    return [found.groups() if (found := pattern(hand)) else _fields(hand) for hand in hands]


def _pattern(hands: list[bytes], n: int):
    """The pattern of the game's usual hand (:func:`_hand_pattern`), or ``None`` if its lengths are not those
    of a deck's cards.

    The card lists of a game are most often all of one length: the deal of its first hand, the passes of the
    first hand that has them, all of its cards played. A pattern that steps over text of exactly those lengths
    at once reads such a hand; any other is read by :func:`_fields`.
    """
    first = hands[0]
    at = first.find(b'"deal":[[')
    deal = first.find(b"]", at) - at - 8  # '"deal":[[' and five characters a card, less a comma
    passing = next((hand for hand in hands if _PASSES_KEY in hand), None)
    passed = 0
    if passing is not None:
        at = passing.find(_PASSES_KEY)
        passed = passing.find(b"]", at) - at - 10
    each = (deal + 1) // 5
    if not 0 < each <= _MOST_CARDS or not 0 <= passed <= 5 * _MOST_CARDS:
        return None
    return _hand_pattern(n, each, (passed + 1) // 5)


def _hand_pattern(n: int, each: int, passed: int):
    """``fullmatch`` of a hand whose seats are dealt ``each`` cards, pass ``passed`` (if they pass) and play
    them all; the card lists are checked afterwards, by shape (:func:`_card_lists`, :func:`_plays`)."""
    key = (n, each, passed)
    found = _HAND_PATTERNS.get(key)
    if found is None:
        if len(_HAND_PATTERNS) >= _SHAPES_MAX:
            _HAND_PATTERNS.clear()
        deal, passes = len(_shape(_CARD_SHAPE, each, n)), len(_shape(_CARD_SHAPE, passed, n))
        plays = len(_shape(_PLAY_SHAPE, n * each))
        found = _HAND_PATTERNS[key] = re.compile(
            rb'(?s)(?:"dealer":([0-9]),)?(?:"pass_direction":(' + _quoted(PASS_DIRECTIONS) + rb'),)?'
            rb'"deal":(.{%d})(?:,"passes":(.{%d}))?,"plays":(.{%d})' % (deal, passes, plays) +
            rb'(?:,"moon":(' + _quoted(MOON_CHOICES) + rb'))?'
            rb'(?:,"points":(' + _NUMBER_LIST + rb'))?(?:,"totals":(' + _NUMBER_LIST + rb'))?').fullmatch
    return found


def _quoted(names: tuple[str, ...]) -> bytes:
    return b"|".join(re.escape(f'"{name}"'.encode()) for name in names)


def _fields(hand: bytes) -> list:
    """The text of each field of a hand (``None`` where absent), in :data:`_LANE_KEYS` order; or decline.

    The text is ``"name":value`` pairs; ``":`` is in no value of compact text, and a value ends at the last
    ``,"`` before the next ``":``. The names, in their order, must be one of :data:`_LAYOUTS`; the values are
    checked by the caller. Maps of C functions: a loop over the fields in Python costs as much as orjson.
    """
    parts = (b"," + hand).split(b'":')
    cut = list(map(bytes.rpartition, parts[:-1], repeat(b',"')))
    layout = _LAYOUTS.get(tuple(map(_NAME, cut)))
    if layout is None:
        decline("hand fields not known fields in record order")
    values = list(map(_VALUE, cut))
    values[0] = None  # what is before the first name: nothing, and what stands for an absent field
    values.append(parts[-1])
    return list(map(values.__getitem__, layout))


def _encoded(rows: list, n: int) -> Shredded:
    """The encoder's rows of a game's hands (as :func:`~hearts_analysis.records.parquet.shred.plain_hands` gives
    them), or decline."""
    columns = list(zip(*rows))
    count = len(rows)
    dealers, directions, moons = (list(map(codes.get, columns[at], [_BAD] * count))
                                  for codes, at in ((_DIGITS, _DEALER), (_DIRECTIONS, _DIRECTION), (_MOONS, _MOON)))
    if _BAD in dealers or _BAD in directions or _BAD in moons or max(filter(None, dealers), default=0) >= n:
        decline("dealer, pass direction or moon")
    if None in columns[_DEAL] or None in columns[_PLAYS]:
        decline("no deal or no plays")
    passes = columns[_PASSES]
    given = [text for text in passes if text is not None]
    deal_lens, *dealt = _card_lists(columns[_DEAL], n)
    pass_lens, *passed = _card_lists(given, n)
    plays_counts, *played = _plays(columns[_PLAYS], n)
    points, totals = _numbers(columns[_POINTS], n), _numbers(columns[_TOTALS], n)
    return Shredded(count, list(range(1, count + 1)), plays_counts, dealers, directions, moons, points, totals,
                    [None] * count, deal_lens, [text is not None for text in passes], pass_lens, tuple(dealt),
                    tuple(passed), tuple(played))


def _shape(item: bytes, count: int, seats: int = 0) -> bytes:
    """The classes of the text of a list of ``count`` items (of ``seats`` such lists, if given); kept."""
    key = (item, count, seats)
    text = _SHAPES.get(key)
    if text is None:
        if len(_SHAPES) >= _SHAPES_MAX:
            _SHAPES.clear()
        text = b"[" + b",".join([item] * count) + b"]"
        if seats:
            text = b"[" + b",".join([text] * seats) + b"]"
        _SHAPES[key] = text
    return text


def _card_lists(texts: Any, n: int) -> tuple[list[int], bytes, bytes]:
    """Cards of each seat of ``[[cards],...]`` texts, and their ranks and suits; decline unless each is a list
    of ``n`` lists of card names, none empty (an empty list of passes goes to the hand's meta: the encoder's
    own path keeps that).

    Where every text is as long as the first and every seat holds as many cards as its first seat, the text of
    them all is compared with the text that shape must have at once; else text by text.
    """
    if not texts:
        return [], b"", b""
    text = b"".join(texts)
    each = (text.find(b"]") - 1) // 5  # a card is '"XY",': five characters
    if not 0 < each <= _MOST_CARDS:
        decline("not a list of card names per seat")
    shape = _shape(_CARD_SHAPE, each, n)
    if set(map(len, texts)) == {len(shape)} and text.translate(_CARD_CLASS) == _repeated(
            shape, len(texts)):
        lengths = [each] * (n * len(texts))
    else:
        lengths = []
        for hand in texts:
            seats = [(len(seat) + 1) // 5 for seat in hand[2:-2].split(b"],[")]
            if (len(seats) != n or not 0 < min(seats) <= max(seats) <= _MOST_CARDS
                    or hand.translate(_CARD_CLASS) != b"[" + b",".join(_shape(_CARD_SHAPE, k) for k in seats) + b"]"):
                decline("not a list of card names per seat")
            lengths.extend(seats)
    names = text.translate(None, _PUNCTUATION)
    return lengths, names[0::2], names[1::2]


def _plays(texts: tuple, n: int) -> tuple[list[int], bytes, bytes, bytes]:
    """Plays of each ``[[seat, card],...]`` text, and their seats, ranks and suits; or decline.

    Each text's length gives its count of plays; the shape of that many is no longer than the text, and as
    long only if the length was exactly that of so many plays: the whole compared with the shapes end to end
    checks each text in its place.
    """
    counts = [(len(text) - 1) // 9 for text in texts]  # a play is '[0,"XY"],': nine characters
    if max(counts) > 7 * _MOST_CARDS:
        decline("more plays than cards")
    text = b"".join(texts)
    if counts.count(counts[0]) == len(counts):
        shapes = _repeated(_shape(_PLAY_SHAPE, counts[0]), len(counts))
    else:
        shapes = b"".join([_shape(_PLAY_SHAPE, k) for k in counts])
    if 0 in counts or text.translate(_PLAY_CLASS) != shapes:
        decline("plays not all [seat, card]")
    plays = text.translate(None, _PUNCTUATION)
    seats, ranks = plays[0::3], plays[1::3]
    if seats.translate(None, _SEAT_DIGITS[n]) or ranks.translate(None, _RANKS):
        decline("seat or card name")
    return counts, seats, ranks, plays[2::3]


def _repeated(shape: bytes, count: int) -> bytes:
    """``shape * count``, kept: a game's card lists are compared with it at once."""
    key = (shape, count)
    text = _REPEATED.get(key)
    if text is None:
        if len(_REPEATED) >= _SHAPES_MAX:
            _REPEATED.clear()
        text = _REPEATED[key] = shape * count
    return text


def _numbers(texts: tuple, n: int) -> list[list[int] | None]:
    """Points or totals of each hand (``None`` where absent), one whole number of at most nine digits per seat, or
    decline.

    The texts are checked together, joined by ``|``: each holds digits, signs and commas inside one pair of
    brackets (no ``|`` but the joints; every ``[`` follows a ``|`` and every ``]`` precedes one, as many of each
    as texts), and orjson refuses what else is not JSON (``[1,,2]``, ``[01]``, ``[-]``).
    """
    given = [text for text in texts if text is not None]
    count = len(given)
    joined = b"|".join(given)
    bounded = b"|" + joined + b"|"
    if (joined.translate(None, _NUMBER_TEXT) or joined.count(b"|") != max(0, count - 1) or joined.count(b"[") != count
            or joined.count(b"]") != count or bounded.count(b"|[") != count or bounded.count(b"]|") != count):
        decline("points or totals not lists of whole numbers")
    if _TEN_DIGITS in joined.translate(_DIGIT_CLASS):
        decline("points or totals beyond nine digits")
    try:
        values = orjson.loads(b"[" + joined.replace(b"|", b",") + b"]")
    except orjson.JSONDecodeError:
        decline("points or totals not lists of whole numbers")
    if set(map(len, values)) - {n}:
        decline("points or totals not one number per seat")
    if count < len(texts):
        found = iter(values)
        values = [None if text is None else next(found) for text in texts]
    return values
