"""Simulated corpora with every kind of fault, for comparing the validation engines.

``every_violation`` turns clean simulated games into games that break each
rule of the violation catalogue (the engine's own findings are checked, so
the corpus is known to cover every code); ``write_with_unreadable_games``
writes a Parquet file of the exact ``events/1`` schema in which some games
cannot be read; ``truncated`` and ``damaged`` spoil whole files and row groups.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from hearts_analysis.cards import HEARTS, QS, parse_card
from hearts_analysis.engine.replay import replay_game
from hearts_analysis.records.model import GameRecord, HandRecord
from hearts_analysis.records.parquet import GameWriter
from hearts_analysis.records.parquet.encode import EventEncoder, SCHEMA_V1
from hearts_analysis.records.parquet.layout import COLUMNS, GAME_COLUMNS, HAND_COLUMNS, SCHEMA
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games
from hearts_analysis.violations import CATALOGUE, NOTES

TABLES = [("standard", 4), ("omnibus", 5), ("classic", 3), ("black_queen", 4), ("openspiel", 4),
          ("basic", 3), ("standard", 6), ("online", 4), ("classic", 7)]
"""Rule sets and table sizes of the test corpora: every preset family, 3 to 7 players."""


@lru_cache(maxsize=None)
def clean_games(per_table: int = 2, target: int = 40, seed: int = 11) -> tuple[GameRecord, ...]:
    """Short legal games (to ``target``) for every table of :data:`TABLES`."""
    games: list[GameRecord] = []
    for preset, players in TABLES:
        games.extend(simulate_games(per_table, Rules.preset(preset, target=target), players, seed=seed))
    return tuple(games)


# -- one violation of each kind ----------------------------------------------------------------
def _with_hand(game: GameRecord, number: int, **changes) -> GameRecord:
    hands = list(game.hands)
    hands[number] = dataclasses.replace(hands[number], **changes)
    return dataclasses.replace(game, hands=tuple(hands))


def _swap_plays(hand: HandRecord, i: int, j: int, cards_only: bool = False) -> tuple:
    plays = list(hand.plays)
    if cards_only:
        plays[i], plays[j] = (plays[i][0], plays[j][1]), (plays[j][0], plays[i][1])
    else:
        plays[i], plays[j] = plays[j], plays[i]
    return tuple(plays)


def _later_swap(game: GameRecord, want: Callable[[int, int, int, int, int], bool]) -> GameRecord | None:
    """Swap the cards of two plays by one seat, the earlier at trick ``t``, if ``want(t, position, seat, card, other)``."""
    n = game.seats
    for number, hand in enumerate(game.hands):
        for i, (seat, card) in enumerate(hand.plays):
            for j in range(i + 1, len(hand.plays)):
                other_seat, other = hand.plays[j]
                if other_seat == seat and want(i // n, i % n, seat, card, other):
                    return _with_hand(game, number, plays=_swap_plays(hand, i, j, cards_only=True))
    return None


def _deal_invalid(game):
    hand = game.hands[0]
    deal = list(hand.deal)
    deal[1] = (deal[0][0],) + deal[1][1:]
    return _with_hand(game, 0, deal=tuple(deal))


def _pass_invalid(game):
    for number, hand in enumerate(game.hands):
        if hand.passes:
            passes = list(hand.passes)
            passes[0] = (hand.deal[1][0],) + passes[0][1:]
            return _with_hand(game, number, passes=tuple(passes))
    return None


def _pass_on_hold(game):
    for number, hand in enumerate(game.hands):
        if not hand.passes and game.rules.pass_count:
            return _with_hand(game, number, passes=tuple(tuple(d[:game.rules.pass_count]) for d in hand.deal))
    return None


def _wrong_first_lead(game):
    hand = game.hands[0]
    seat, card = hand.plays[0]
    plays = (((seat + 1) % game.seats, card),) + hand.plays[1:]
    return _with_hand(game, 0, plays=plays)


def _out_of_turn(game):
    n = game.seats
    if len(game.hands[0].plays) < 2 * n + 3:
        return None
    return _with_hand(game, 0, plays=_swap_plays(game.hands[0], 2 * n + 1, 2 * n + 2))


def _card_not_held(game):
    hand = game.hands[0]
    n = game.seats
    if len(hand.plays) < n + 2:
        return None
    plays = list(hand.plays)
    plays[n + 1] = (plays[n + 1][0], plays[0][1])
    return _with_hand(game, 0, plays=tuple(plays))


def _revoke(game):
    return _later_swap(game, lambda t, pos, seat, card, other: pos > 0 and card // 13 != other // 13)


def _points_on_first_trick(game):
    return _later_swap(game, lambda t, pos, seat, card, other: t == 0 and pos > 0 and card // 13 != 0
                       and other // 13 == HEARTS)


def _hearts_not_broken(game):
    return _later_swap(game, lambda t, pos, seat, card, other: t == 1 and pos == 0 and card // 13 != HEARTS
                       and other // 13 == HEARTS)


def _hand_incomplete(game):
    return _with_hand(game, 0, plays=game.hands[0].plays[:-1])


def _points_mismatch(game):
    points = list(game.hands[0].points)
    points[0] += 1
    return _with_hand(game, 0, points=tuple(points))


def _totals_mismatch(game):
    if len(game.hands) < 2 or game.hands[1].totals is None:
        return None
    totals = list(game.hands[1].totals)
    totals[1] -= 2
    return _with_hand(game, 1, totals=tuple(totals))


def _game_over_early(game):
    return dataclasses.replace(game, hands=game.hands[:-1], complete=True)


def _game_continued(game):
    return dataclasses.replace(game, hands=game.hands + (game.hands[-1],))


def _moon_choice_invalid(game):
    for number, hand in enumerate(game.hands):
        if hand.moon is None:
            return _with_hand(game, number, moon="subtract_from_shooter")
    return None


def _charge_invalid(game):
    return _with_hand(game, 0, charged=(parse_card("AH"),)) if game.hands else None


def _unmodelled_hand(game):
    return _with_hand(game, len(game.hands) - 1, unmodelled=("keeper pass",)) if game.hands else None


def _unmodelled_game(game):
    return dataclasses.replace(game, unmodelled=("a scoring quirk of the program",))


def _winner_mismatch(game):
    """A complete game that names a winner the totals do not make (a seat with more than the lowest total)."""
    if not game.complete:
        return None
    totals = replay_game(game).totals
    losers = [name for name, total in zip(game.players, totals) if total > min(totals)]
    return dataclasses.replace(game, winners=(losers[0],)) if losers else None


def _queen_led_early(game):
    return _later_swap(game, lambda t, pos, seat, card, other: t == 1 and pos == 0 and other == QS)


MUTATIONS = [_deal_invalid, _pass_invalid, _pass_on_hold, _wrong_first_lead, _out_of_turn, _card_not_held, _revoke,
             _points_on_first_trick, _hearts_not_broken, _hand_incomplete, _points_mismatch, _totals_mismatch,
             _game_over_early, _game_continued, _moon_choice_invalid, _queen_led_early, _unmodelled_hand, _charge_invalid,
             _unmodelled_game, _winner_mismatch]

NOT_PLANTED = {"points-impossible": "a score sheet's: tests/test_score_sheets.py",
               "view-unchecked": "a view's note: tests/test_view_validation.py"}
"""Codes of the catalogue that no mutation of a played game can show, and where they are tested."""
PLANTED_VIOLATIONS = frozenset(set(CATALOGUE) - set(NOT_PLANTED) - NOTES)
"""The violation codes :func:`every_violation` shows (the other planted codes are notes)."""


@lru_cache(maxsize=None)
def every_violation(per_table: int = 2) -> tuple[GameRecord, ...]:
    """Clean games and, for each, every mutation that applies; together they show every code."""
    games = list(clean_games(per_table))
    mutated = []
    for number, game in enumerate(games):
        for mutation in MUTATIONS:
            changed = mutation(game)
            if changed is not None:
                mutated.append(dataclasses.replace(changed, game_id=f"{game.game_id}-{mutation.__name__[1:]}"))
    found = {v.code for game in mutated for result in [replay_game(game)] for v in result.violations + result.notes}
    assert found == set(CATALOGUE) - set(NOT_PLANTED), f"not covered: {set(CATALOGUE) - set(NOT_PLANTED) - found}"
    mixed = []
    for i, game in enumerate(mutated):
        mixed.append(game)
        if i < len(games):
            mixed.append(games[i])
    return tuple(mixed)


# -- files --------------------------------------------------------------------------------------
def write_parquet_file(games, path: Path, row_group_hands: int = 40) -> Path:
    with GameWriter(path, row_group_hands=row_group_hands) as writer:
        for game in games:
            writer.add(game)
    return path


def set_cell(column: str, value, game: int, event: str | None = None, index: int = 0) -> Callable:
    """An edit of the first row of ``game``, or of its first ``event`` row at ``index``."""
    def edit(columns: dict[str, list]) -> None:
        rows = range(len(columns["game"]))
        row = next(r for r in rows if columns["game"][r] == game and (
            event is None or (columns["event"][r] == event and columns["index"][r] == index)))
        columns[column][row] = value
    return edit


UNREADABLE_EDITS = [
    set_cell("seat", 9, 1, "play", 5),
    set_cell("card", "XX", 3, "deal", 2),
    set_cell("index", 7, 5, "play", 3),
    set_cell("players", None, 7),
    set_cell("rules", '{"preset": "nonsense"}', 9),
    set_cell("hand_meta", "{oops", 11),
    set_cell("game_meta", '{"complete": "yes"}', 13),
    set_cell("dealer", 6, 15),
    set_cell("hand_meta", '{"moon": null, "colour": "red"}', 16),
]
"""Unreadable games (and one readable odd hand) among the games of an edited file."""


def write_with_unreadable_games(games, path: Path, edits=UNREADABLE_EDITS, row_group_games: int = 10,
                                paired: bool = False) -> Path:
    """``games`` as a Parquet file of the exact layout schema, with ``edits`` applied to its cells (as
    ``events/1`` cells: game and hand values on the first row of their game or hand). ``paired``: written
    as ``events/2``, those values moved to header rows."""
    encoder = EventEncoder()
    for game in games:
        encoder.add_record(game)
    table = encoder.take()
    columns = {name: table.column(name).to_pylist() for name in COLUMNS}
    for edit in edits:
        edit(columns)
    starts = [r for r in range(len(columns["game"])) if r == 0 or columns["game"][r] != columns["game"][r - 1]]
    cuts = starts[::row_group_games][1:] + [len(columns["game"])]
    schema = SCHEMA if paired else SCHEMA_V1
    with pq.ParquetWriter(path, schema) as writer:
        begin = 0
        for cut in cuts:
            part = {name: values[begin:cut] for name, values in columns.items()}
            for rows in (_header_rows(part), part) if paired else (part,):
                if paired and rows is part:
                    rows = {name: [None] * len(values) if name in GAME_COLUMNS + HAND_COLUMNS else values
                            for name, values in rows.items()}
                writer.write_table(_table(rows, schema), row_group_size=len(rows["game"]))
            begin = cut
    return path


def _header_rows(columns: dict[str, list]) -> dict[str, list]:
    """``events/2`` header rows for ``events/1`` columns: a game row per game, a hand row per hand."""
    out: dict[str, list] = {name: [] for name in columns}
    game, hand = columns["game"], columns["hand"]
    for r in range(len(game)):
        new_game = r == 0 or game[r] != game[r - 1]
        if new_game:
            for name in columns:
                out[name].append(columns[name][r] if name in GAME_COLUMNS + ("game",) else None)
            out["hand"][-1], out["event"][-1], out["index"][-1] = 0, "game", 0
        if hand[r] and (new_game or hand[r] != hand[r - 1]):
            for name in columns:
                out[name].append(columns[name][r] if name in HAND_COLUMNS + ("game", "hand") else None)
            out["event"][-1], out["index"][-1] = "hand", 0
    return out


def _table(columns: dict[str, list], schema: pa.Schema) -> pa.Table:
    arrays = {}
    for field in schema:
        if pa.types.is_dictionary(field.type):
            arrays[field.name] = pa.array(columns[field.name], pa.string()).dictionary_encode().cast(field.type)
        else:
            arrays[field.name] = pa.array(columns[field.name], field.type)
    return pa.Table.from_pydict(arrays, schema=schema)


def truncated(path: Path, out: Path) -> Path:
    out.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return out


def damaged(path: Path, out: Path, row_group: int = 1, column: str = "card") -> Path:
    """A copy of ``path`` with zeros written over the middle of one row group's column."""
    meta = pq.ParquetFile(path).metadata.row_group(row_group).column(COLUMNS.index(column))
    data = bytearray(path.read_bytes())
    middle = meta.data_page_offset + meta.total_compressed_size // 2
    data[middle:middle + 16] = bytes(16)
    out.write_bytes(bytes(data))
    return out


def audit_reports(path, engine: str) -> list[tuple[str, object]]:
    """Every game report of ``path`` as ``(who judged it, report)``: ``screen`` for the fast path's own
    reports, ``reference`` for a game the reference engine replayed."""
    from hearts_analysis.fastpath import CleanRun, audit_entries
    found = []
    for entry in audit_entries([path], None, engine, reports=True):
        if isinstance(entry, CleanRun):
            found.extend(("screen", report) for report in entry.reports())
        else:
            by = "screen" if entry.item.game is None and entry.report is not None else "reference"
            found.append((by, entry.report))
    return found
