"""A game whose numbers the Parquet columns cannot hold is refused by name, never written with wrapped numbers.

The ``trick`` column is int8 and ``index`` int16: a hand of 1,000 plays used to be written with tricks and
indexes that wrapped round to negative numbers, which every reader of the file took at their word. Now the
library's writer refuses such a game naming the hand, and ``convert`` and ``--append`` report it and still write
the others.
"""

from __future__ import annotations

import dataclasses
import json

import pyarrow.parquet as pq
import pytest

from hearts_analysis.records.append import append_items
from hearts_analysis.records.convert import convert
from hearts_analysis.records.errors import Item, RecordError
from hearts_analysis.records.json import game_to_dict
from hearts_analysis.records.parquet import read_parquet_items, write_parquet
from hearts_analysis.records.parquet.encode import MAX_TRICKS
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def _games(count: int = 3):
    return list(simulate_games(count, Rules.preset("standard", target=40), seed=3))


def _overlong(game, hand: int = 1, plays: int | None = None):
    """``game`` with hand ``hand`` (0-based) repeating its plays to ``plays`` (one more than the columns hold)."""
    plays = plays or MAX_TRICKS * len(game.players) + 1
    h = game.hands[hand]
    long_plays = (h.plays * (plays // len(h.plays) + 1))[:plays]
    hands = list(game.hands)
    hands[hand] = dataclasses.replace(h, plays=long_plays)
    return dataclasses.replace(game, hands=tuple(hands), game_id=game.game_id + "-long")


def test_the_most_plays_the_columns_hold_are_written_and_read_back_as_they_were(tmp_path):
    game = _overlong(_games(1)[0], plays=MAX_TRICKS * 4)
    write_parquet([game], tmp_path / "g.parquet")
    table = pq.read_table(tmp_path / "g.parquet", columns=["event", "index", "trick"]).to_pandas()
    plays = table[table.event == "play"]
    assert plays["index"].min() >= 0 and plays["trick"].min() >= 1 and plays["trick"].max() == MAX_TRICKS
    [item] = read_parquet_items(tmp_path / "g.parquet")
    assert item.game.hands[1].plays == game.hands[1].plays


def test_the_library_refuses_a_hand_of_more_plays_by_its_field_and_writes_nothing(tmp_path):
    target = tmp_path / "g.parquet"
    target.write_bytes(b"the previous corpus")
    with pytest.raises(RecordError) as raised:
        write_parquet([_games(1)[0], _overlong(_games(1)[0])], target)
    assert raised.value.field == "hands[1].plays"
    assert f"at most {MAX_TRICKS * 4:,} plays in a hand of 4 players" in str(raised.value)
    assert target.read_bytes() == b"the previous corpus"


def test_convert_reports_the_game_and_writes_the_others(tmp_path):
    games = _games()
    source = tmp_path / "games.jsonl"
    lines = [game_to_dict(g) for g in games[:1]] + [game_to_dict(_overlong(games[1]))] + [game_to_dict(games[2])]
    source.write_text("".join(json.dumps(line) + "\n" for line in lines))
    single = tmp_path / "one.json"
    single.write_text(json.dumps(game_to_dict(_overlong(games[0]))))
    errors: list[Item] = []
    result = convert([source, single], tmp_path / "out.parquet", on_error=errors.append)
    assert result.games == 2
    assert [(e.source, e.error.field) for e in errors] == [(f"{source}:2", "hands[1].plays"),
                                                          (f"{single}:1", "hands[1].plays")]
    assert [i.game.game_id for i in read_parquet_items(tmp_path / "out.parquet")] == [games[0].game_id,
                                                                                    games[2].game_id]


def test_append_reports_the_game_and_adds_the_others(tmp_path):
    games = _games()
    items = [Item("a", game=games[0]), Item("b", game=_overlong(games[1])), Item("c", game=games[2])]
    errors: list[Item] = []
    result = append_items(items, tmp_path / "corpus", on_error=errors.append)
    assert (result.games, result.errors) == (2, 1)
    assert [(e.source, e.error.field) for e in errors] == [("b", "hands[1].plays")]


@pytest.mark.parametrize("kind", ["deal", "passes"])
def test_a_seats_list_of_more_cards_than_the_index_numbers_is_refused_by_its_field(tmp_path, kind):
    from hearts_analysis.records.parquet.encode import MAX_CARDS
    game = next(g for g in simulate_games(4, Rules.preset("standard", target=100), seed=3) if len(g.hands) > 5)
    hands = list(game.hands)
    k = 5   # after the hand that holds (no passes list), so the field names the hand, not the passes' count
    lists = list(getattr(hands[k], kind))
    lists[3] = tuple(lists[3]) * (MAX_CARDS // len(lists[3]) + 1)
    hands[k] = dataclasses.replace(hands[k], **{kind: tuple(lists)})
    with pytest.raises(RecordError) as raised:
        write_parquet([dataclasses.replace(game, hands=tuple(hands))], tmp_path / "g.parquet")
    assert raised.value.field == f"hands[{k}].{kind}[3]"
    assert not (tmp_path / "g.parquet").exists()
