"""Score sheets (points without cards): read from JSON, the hand-entry notation and CSV, and audited."""

from __future__ import annotations

import json

import pytest

from hearts_analysis.engine import replay_game
from hearts_analysis.interop.formats import recognise
from hearts_analysis.records import game_to_dict
from hearts_analysis.records.json import game_from_dict
from hearts_analysis.records.model import is_score_sheet
from hearts_analysis.records.sources import read_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game
from hearts_analysis.violations import CATALOGUE
from incli import hearts  # in this interpreter: these tests are about what the commands print

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def sheet_of(preset: str, seed: int, players=PLAYERS, target: int = 80) -> dict:
    """A simulated game's points and totals with its cards dropped."""
    game = game_to_dict(simulate_game(Rules.preset(preset, target=target), list(players), seed=seed))
    for hand in game["hands"]:
        for key in ("deal", "passes", "plays", "charged", "claim"):
            hand.pop(key, None)
    return game


def notation(game: dict, winner: str | None = None) -> str:
    lines = ["game club", f"rules: {game['rules']['preset'] if isinstance(game['rules'], dict) else 'standard'}"
             f" target={game['rules'].get('target', 100) if isinstance(game['rules'], dict) else 100}"]
    lines += [f"player {'ABCDEFG'[s]}: {name}" for s, name in enumerate(game["players"])]
    if winner:
        lines.append(f"winner: {winner}")
    for number, hand in enumerate(game["hands"], 1):
        lines += ["", f"hand {number}", "points: " + " ".join(map(str, hand["points"])),
                  "totals: " + " ".join(map(str, hand["totals"]))]
        if hand.get("moon"):
            lines.append(f"moon: {hand['moon']}")
    return "\n".join(lines) + "\n"


def csv_text(game: dict) -> str:
    rows = [",".join(game["players"])] + [",".join(map(str, h["points"])) for h in game["hands"]]
    return "\n".join(rows + ["TOTAL," + ",".join(map(str, game["hands"][-1]["totals"]))]) + "\n"


def codes_at(result) -> list[tuple[str, int | None]]:
    return [(v.code.value, v.hand) for v in result.violations]


@pytest.mark.parametrize("preset", ["standard", "omnibus", "black_queen", "basic", "hearts_league", "trend_hearts",
                                    "turbo_hearts"])
def test_a_simulated_games_points_and_totals_without_the_cards_are_a_clean_score_sheet(preset):
    for seed in range(4):
        sheet = sheet_of(preset, seed)
        game = game_from_dict(sheet)
        assert is_score_sheet(game)
        result = replay_game(game)
        assert result.violations == (), (preset, seed, codes_at(result))
        assert result.complete and result.ended_at == len(game.hands)
        assert game_to_dict(game) == sheet


def test_three_and_five_players_too():
    for players in (PLAYERS[:3], PLAYERS + ["Eve"]):
        for seed in range(3):
            assert replay_game(game_from_dict(sheet_of("standard", seed, players))).violations == ()


def planted(sheet: dict) -> dict[str, tuple[dict, int]]:
    """Each planted error: the sheet with it, and the hand (1-based) where it must be found."""
    out = {}
    wrong_total = json.loads(json.dumps(sheet))
    wrong_total["hands"][1]["totals"][0] += 10
    out["totals-mismatch"] = (wrong_total, 2)
    impossible = json.loads(json.dumps(sheet))
    impossible["hands"][0]["points"][0] += 1      # the hand now adds up to 27: no deal gives that
    for hand in impossible["hands"]:
        hand["totals"][0] += 1
    out["points-impossible"] = (impossible, 1)
    winner = json.loads(json.dumps(sheet))
    last = winner["hands"][-1]["totals"]
    winner["winners"] = [winner["players"][last.index(max(last))]]
    out["winner-mismatch"] = (winner, len(sheet["hands"]))
    past = json.loads(json.dumps(sheet))
    past["hands"].append({"points": [0, 13, 8, 5],
                          "totals": [t + p for t, p in zip(past["hands"][-1]["totals"], [0, 13, 8, 5])]})
    out["game-continued"] = (past, len(sheet["hands"]) + 1)
    return out


def test_each_planted_error_is_found_at_its_hand_with_its_own_code():
    sheet = sheet_of("standard", 1)
    for code, (bad, hand) in planted(sheet).items():
        assert code in CATALOGUE
        assert codes_at(replay_game(game_from_dict(bad))) == [(code, hand)], code


def test_an_impossible_hand_under_the_variants():
    omnibus = Rules.preset("omnibus").to_spec()
    base = {"players": PLAYERS, "rules": omnibus}
    good = replay_game(game_from_dict({**base, "hands": [{"points": [-10, 13, 8, 5]}]}))
    assert good.violations == ()
    bad = replay_game(game_from_dict({**base, "hands": [{"points": [0, 13, 8, 5]}]}))   # JD went nowhere
    assert codes_at(bad) == [("points-impossible", 1)]
    moon = [{"points": [0, 26, 26, 26]}, {"points": [-26, 0, 0, 0], "moon": "subtract_from_shooter"}]
    assert codes_at(replay_game(game_from_dict({"players": PLAYERS, "hands": moon[:1]}))) == []
    choice = {"players": PLAYERS, "rules": {"preset": "standard", "moon": "shooter_choice"}, "hands": moon}
    assert codes_at(replay_game(game_from_dict(choice))) == []
    fixed = {"players": PLAYERS, "hands": [{"points": [0, 26, 26, 26], "moon": "subtract_from_shooter"}]}
    assert codes_at(replay_game(game_from_dict(fixed))) == [("moon-choice-invalid", 1)]


def test_a_game_mixing_played_and_score_sheet_hands_is_refused_naming_the_hand():
    played = game_to_dict(simulate_game(Rules.preset("standard", target=60), PLAYERS, seed=2))
    played["hands"][1] = {"points": played["hands"][1]["points"]}
    with pytest.raises(Exception, match=r"hands\[1\]"):
        game_from_dict(played)


def test_the_notation_and_the_csv_are_recognised_and_read_as_the_same_sheet(tmp_path):
    sheet = sheet_of("standard", 3, target=100)
    text, table = notation(sheet), csv_text(sheet)
    assert recognise(text).NAME == "text" and recognise(table).NAME == "sheet-csv"
    (tmp_path / "night.txt").write_text(text)
    (tmp_path / "sheet.csv").write_text(table)
    from_text, from_csv = (next(read_games(tmp_path / name)).game for name in ("night.txt", "sheet.csv"))
    assert [h.points for h in from_text.hands] == [h.points for h in from_csv.hands] == \
        [tuple(h["points"]) for h in sheet["hands"]]
    assert from_csv.hands[-1].totals == tuple(sheet["hands"][-1]["totals"])
    assert replay_game(from_text).violations == replay_game(from_csv).violations == ()


def test_the_hearts_league_csv_is_not_taken_for_a_score_sheet():
    league = "season,game,round,score0,score1,score2,score3,qs\n1,1,1,0,13,8,5,1\n1,1,2,26,0,0,0,0\n"
    assert recognise(league) is None or recognise(league).NAME != "sheet-csv"
    assert recognise("Ann,Bob\n1,2\n") is None       # two players: not a Hearts table


def test_validate_reports_each_planted_error_of_a_csv_and_a_notation_sheet(tmp_path):
    sheet = sheet_of("standard", 3, target=100)
    clean_csv, clean_txt = tmp_path / "clean.csv", tmp_path / "clean.txt"
    clean_csv.write_text(csv_text(sheet))
    clean_txt.write_text(notation(sheet, winner=sheet["players"][min(range(4), key=sheet["hands"][-1]["totals"].__getitem__)]))
    for path in (clean_csv, clean_txt):
        run = hearts("validate", "--format", "json", str(path))
        assert run.returncode == 0, run.stdout + run.stderr
        assert json.loads(run.stdout)["games"][0]["violations"] == []
    for code, (bad, hand) in planted(sheet).items():
        path = tmp_path / f"{code}.txt"
        path.write_text(notation(bad, winner=(bad.get("winners") or [None])[0]))
        run = hearts("validate", "--format", "json", str(path))
        assert run.returncode == 1, run.stderr
        game = json.loads(run.stdout)["games"][0]
        assert game["valid"] is False
        assert [(v["code"], v["hand"]) for v in game["violations"]] == [(code, hand)]
    wrong_total = csv_text(sheet).rsplit("\n", 2)[0] + "\ntotal," + ",".join(
        str(t + 1) for t in sheet["hands"][-1]["totals"]) + "\n"
    (tmp_path / "wrong.csv").write_text(wrong_total)
    run = hearts("validate", "--format", "json", str(tmp_path / "wrong.csv"))
    violations = json.loads(run.stdout)["games"][0]["violations"]
    assert run.returncode == 1 and {(v["code"], v["hand"]) for v in violations} == {
        ("totals-mismatch", len(sheet["hands"]))}


def test_score_and_report_say_the_plays_were_not_checked(tmp_path):
    path = tmp_path / "sheet.csv"
    path.write_text(csv_text(sheet_of("standard", 3, target=100)))
    score = hearts("score", str(path))
    assert score.returncode == 0 and "score sheet: plays not checked" in score.stdout
    report = hearts("report", str(path), "-o", str(tmp_path / "page.html"))
    assert report.returncode == 0, report.stderr
    assert "score sheet: plays not checked" in (tmp_path / "page.html").read_text()


def test_a_score_sheet_is_refused_by_parquet_clearly(tmp_path):
    source = tmp_path / "sheet.json"
    source.write_text(json.dumps(sheet_of("standard", 1)))
    run = hearts("convert", str(source), str(tmp_path / "sheet.parquet"))
    assert run.returncode == 2 and "cannot be written to Parquet" in run.stderr
    assert "Traceback" not in run.stderr


def test_explain_knows_the_new_codes():
    for code in ("points-impossible", "winner-mismatch"):
        run = hearts("explain", code)
        assert run.returncode == 0 and code in run.stdout
