"""`hearts validate` on a seat's view (docs/views.md): what the view shows is checked, the rest is a note."""

from dataclasses import replace

import orjson
import pytest

from hearts_analysis.engine import replay_game
from hearts_analysis.records import game_to_dict
from hearts_analysis.records.views import view_of
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game
from incli import hearts

PLAYERS = ["ann", "bob", "cy", "dee"]
PRESETS = ["standard", "omnibus", "classic", "online", "openspiel", "sturtevant", "trend_hearts"]


def game_of(preset="standard", seed=5):
    return simulate_game(Rules.preset(preset), PLAYERS, seed=seed, max_hands=3)


def with_first_hand(game, **changes):
    return replace(game, hands=(replace(game.hands[0], **changes), *game.hands[1:]))


def codes(game):
    return [(v.code, v.hand, v.seat) for v in replay_game(game).violations]


@pytest.mark.parametrize("preset", PRESETS)
def test_views_of_clean_games_have_only_notes(preset):
    game = game_of(preset)
    assert replay_game(game).valid
    for seat in range(4):
        result = replay_game(view_of(game, seat))
        assert result.violations == ()
        assert [(n.code, n.hand, n.seat) for n in result.notes] == [("view-unchecked", h, seat)
                                                                  for h in range(1, len(game.hands) + 1)]
        assert result.totals == replay_game(game).totals and result.winners == replay_game(game).winners


def test_a_card_played_twice_is_found():
    game = game_of()
    plays = list(game.hands[0].plays)
    plays[6] = (plays[6][0], plays[1][1])
    view = view_of(with_first_hand(game, plays=tuple(plays)), 0)
    assert ("card-not-held", 1, plays[6][0]) in codes(view)


def test_a_play_out_of_turn_is_found():
    game = game_of()
    plays = list(game.hands[0].plays)
    plays[1], plays[2] = plays[2], plays[1]
    assert ("out-of-turn", 1, plays[1][0]) in codes(view_of(with_first_hand(game, plays=tuple(plays)), 3))


def revoked(game, seat):
    """The first hand with ``seat``'s card that followed suit swapped with a later card of another suit."""
    plays = list(game.hands[0].plays)
    for i, (s, card) in enumerate(plays):
        led = plays[i - i % 4][1] // 13
        if s != seat or i % 4 == 0 or card // 13 != led:
            continue
        later = next((j for j in range(i + 4 - i % 4, len(plays))
                      if plays[j][0] == seat and plays[j][1] // 13 != led), None)
        if later is not None:
            plays[i], plays[later] = (seat, plays[later][1]), (seat, card)
            return with_first_hand(game, plays=tuple(plays))
    raise AssertionError("no revoke to plant")


@pytest.mark.parametrize("asker", [1, 2])
def test_a_revoke_is_found_the_askers_and_a_proven_one_of_an_unseen_seat(asker):
    game = revoked(game_of(seed=11), 1)
    assert ("revoke", 1, 1) in codes(view_of(game, asker))       # asker 1: its own; asker 2: seat 1 revealed it


def test_wrong_points_on_a_complete_hand_are_found_and_a_note_is_not_a_violation():
    game = game_of()
    points = list(game.hands[0].points)
    points[0] += 1
    view = view_of(with_first_hand(game, points=tuple(points)), 2)
    assert ("points-mismatch", 1, 0) in codes(view)
    cut = with_first_hand(game, plays=game.hands[0].plays[:20])   # not every card played: points not checked
    result = replay_game(view_of(replace(cut, hands=cut.hands[:1], complete=None, winners=None), 2))
    assert [v.code for v in result.violations] == ["hand-incomplete"]
    assert "points are not checked" in result.notes[0].message


def test_no_command_prints_a_traceback_on_a_view(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the commands run in this interpreter (tests/incli.py), in the test's folder
    view = game_to_dict(view_of(game_of(), 1))
    (tmp_path / "view.json").write_bytes(orjson.dumps(view))
    (tmp_path / "views.jsonl").write_bytes(orjson.dumps(view) + b"\n" + orjson.dumps(view) + b"\n")
    for path in ("view.json", "views.jsonl"):
        done = hearts("validate", path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "view-unchecked" in done.stdout and "no violations" in done.stdout
    for args in (["score", "view.json"], ["analyze", "view.json"], ["stats", "view.json"],
                 ["report", "view.json", "-o", "report.html"], ["convert", "view.json", "view.parquet"]):
        done = hearts(*args)
        assert "Traceback" not in done.stderr + done.stdout, args
        assert done.returncode == (2 if args[0] == "convert" else 0), (args, done.stderr)
    assert (tmp_path / "report.html").exists() and not (tmp_path / "view.parquet").exists()
