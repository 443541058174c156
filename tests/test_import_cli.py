"""How users reach the log formats: hearts import / export, and every command reading logs directly."""

from __future__ import annotations

import shutil
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import game_to_dict, read_json_path
from killer_logs import GAMES, killer_games, killer_log

EXAMPLES = Path(__file__).parent.parent / "examples"
SHORT = Path(__file__).parent / "fixtures" / "killer" / "short.log"


@pytest.fixture(scope="module")
def log_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("killer")
    path = folder / "KHearts.log"
    path.write_text(killer_log(killer_games()))
    return path


def run(*args, input=None):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_import_recognises_the_format_from_the_content(log_file, tmp_path):
    out = tmp_path / "games.jsonl"
    result = run("import", log_file, "-o", out)
    assert result.exit_code == 0, result.output
    assert len(lines(out)) == GAMES and f"imported {GAMES} games" in result.output
    named = tmp_path / "named.jsonl"
    assert run("import", "killer", log_file, "-o", named).exit_code == 0
    assert named.read_bytes() == out.read_bytes()
    assert run("import", "-o", tmp_path / "first.jsonl", log_file).exit_code == 0


def test_import_to_parquet_and_from_stdin(log_file, tmp_path):
    out = tmp_path / "games.parquet"
    assert run("import", log_file, "-o", out).exit_code == 0
    result = run("validate", out)
    assert result.exit_code == 0 and f"{GAMES} games" in result.output
    piped = run("import", "-", input=log_file.read_text())
    assert piped.exit_code == 0 and len(piped.stdout.splitlines()) == GAMES


def test_every_reading_command_takes_logs_and_folders(log_file, tmp_path):
    folder = tmp_path / "KillerHearts"
    folder.mkdir()
    shutil.copy(log_file, folder / "KHearts.log")
    shutil.copy(EXAMPLES / "clean-4p-standard.json", folder / "club.json")
    (folder / "readme.txt").write_text("Killer Hearts keeps its log beside this file.\n")
    result = run("validate", folder)
    assert result.exit_code == 0 and f"{GAMES + 1} games" in result.output
    assert run("validate", "--engine", "reference", folder).output == result.output
    assert run("score", SHORT).exit_code == 0
    assert run("analyze", SHORT, "--format", "json").exit_code == 0
    assert run("stats", SHORT).exit_code == 0
    site = tmp_path / "site"
    (folder / "KHearts.log").unlink()
    shutil.copy(SHORT, folder / "KHearts.log")
    report = run("report", folder, "-o", site, "--js-beside")
    assert report.exit_code == 0, report.output
    assert (site / "audit.html").exists()


def test_bad_input_names_file_line_and_field_and_the_rest_is_imported(log_file, tmp_path):
    text = log_file.read_text().splitlines()
    bad = next(i for i, line in enumerate(text) if line.startswith("trick  2: "))
    text[bad] = text[bad][:10] + text[bad][10:].replace("  ", "  Q:", 1)  # the second play reads 'Q:N:KH'
    broken = tmp_path / "broken.log"
    broken.write_text("\n".join(text) + "\n")
    out = tmp_path / "games.jsonl"
    result = run("import", broken, "-o", out)
    assert result.exit_code == 2
    assert f"{broken}:{bad + 1}: error: deal 1, trick 2: expected a play such as W:TS" in result.output
    assert len(lines(out)) == GAMES - 1


def test_a_file_in_no_known_format_is_an_error(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("the club meets on Tuesdays\n")
    result = run("import", path, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2 and "not a log format hearts import reads" in result.output
    assert run("import", tmp_path / "missing.log").exit_code == 2


def test_a_file_of_another_format_or_empty_is_an_error_and_leaves_the_output_alone(log_file, tmp_path):
    output = tmp_path / "club.jsonl"
    assert run("import", log_file, "-o", output).exit_code == 0
    kept = output.read_bytes()
    for name, text in (("empty.log", ""), ("night.txt", "# Club night\nN: ann bob cy dee\n")):
        path = tmp_path / name
        path.write_text(text)
        result = run("import", "killer", path, "-o", output)
        assert result.exit_code == 2, result.output
        assert f"{path}: error: no Killer Hearts" in result.output and "nothing written" in result.output
        assert output.read_bytes() == kept


def test_export_writes_what_the_format_holds_and_names_the_rest(tmp_path):
    out = tmp_path / "KHearts.log"
    result = run("export", "killer", EXAMPLES / "clean-4p-standard.json", EXAMPLES / "omnibus.json",
                 EXAMPLES / "five-players.json", "-o", out)
    assert result.exit_code == 2
    assert "omnibus.json:1: game example-omnibus-4p-4: not exported: Killer Hearts plays its own rules" in result.output
    assert "5 players; Killer Hearts seats 4" in result.output
    back = tmp_path / "back.jsonl"
    assert run("import", out, "-o", back).exit_code == 0
    original = game_to_dict(next(read_json_path(EXAMPLES / "clean-4p-standard.json")).game)
    (imported,) = lines(back)
    assert [h["plays"] for h in imported["hands"]] == [h["plays"] for h in original["hands"]]
    assert [h.get("passes") for h in imported["hands"]] == [h.get("passes") for h in original["hands"]]


def test_openspiel_commands_are_kept():
    assert run("import", "openspiel", "--help").exit_code == 0
    assert run("export", "openspiel", "--help").exit_code == 0
    help_text = run("import", "--help").output
    assert "killer" in help_text and "openspiel" in help_text and "Example" in help_text
    assert "Example: hearts export killer" in run("export", "killer", "--help").output


# -- recognised by content: every format's own files, as their programs lay them out ---------------
def python2_repr(value) -> str:
    """A value as Python 2's ``repr`` prints it: ``u'...'`` strings, ``True``/``False``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{python2_repr(k)}: {python2_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(python2_repr(v) for v in value) + "]"
    return f"u{value!r}" if isinstance(value, str) else repr(value)


def trend_python_log(games) -> str:
    """Trend events as the contest's sample bot logs them, its own notes between them."""
    from hearts_analysis.interop import trend
    lines = []
    for game in games:
        for event in trend.game_events(game):
            lines.append(f"2018-09-10 21:37:59,683 INFO {event['eventName']}")
            if event["eventName"] == "turn_end":
                lines.append("2018-09-10 21:37:59,690 INFO Player name:north, Pick card:2C, Is timeout:False")
            lines.append(f"2018-09-10 21:37:59,740 INFO {python2_repr(event['data'])}")
    return "\n".join(lines) + "\n"


def simulated(preset: str, count: int = 2, **overrides):
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_games
    return list(simulate_games(count, Rules.preset(preset, **overrides), seed=3))


def test_the_trend_sample_bots_python_log_is_recognised_and_read(tmp_path):
    games = simulated("trend_hearts")
    path = tmp_path / "hearts_logs.log"
    path.write_text(trend_python_log(games))
    out = tmp_path / "games.jsonl"
    result = run("import", path, "-o", out)
    assert result.exit_code == 0, result.output
    assert [[h["plays"] for h in g["hands"]] for g in lines(out)] == \
        [[h["plays"] for h in game_to_dict(g)["hands"]] for g in games]
    assert run("validate", out).exit_code == 0


def test_a_python_log_data_line_that_is_not_a_literal_is_named_and_never_run(tmp_path):
    games = simulated("trend_hearts", 2)
    text = trend_python_log(games).splitlines()
    marker = tmp_path / "ran"
    evil = f"2018-09-10 21:37:59,740 INFO {{u'x': __import__('os').system('touch {marker}')}}"
    index = next(i for i, line in enumerate(text) if "INFO turn_end" in line) + 2
    text[index] = evil
    path = tmp_path / "hearts_logs.log"
    path.write_text("\n".join(text) + "\n")
    result = run("import", "trend", path, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 2 and not marker.exists()
    assert "error: event: the data is not a Python dict literal (it holds a call, a name or an operator)" \
        in result.output and f"{path}:" in result.output
    assert "imported 1 game" in result.output  # the other game is read


def test_the_league_round_file_alone_and_the_folder_of_both_import_each_game_once(tmp_path):
    from hearts_analysis.interop import league
    games = [g for g in simulated("hearts_league", 2)]
    league.write_files(games, tmp_path)
    for given in (tmp_path / "RoundHistory.csv", tmp_path / "TrickHistory.csv", tmp_path):
        out = tmp_path.parent / f"{tmp_path.name}-{Path(given).name}.jsonl"
        result = run("import", given, "-o", out)
        assert result.exit_code == 0, result.output
        assert len(lines(out)) == 2 and all(h["points"] for g in lines(out) for h in g["hands"])


def test_openspiel_histories_and_its_playthrough_are_recognised(tmp_path):
    from hearts_analysis.interop import openspiel
    games = simulated("openspiel", 3)
    histories = [openspiel.history_of_hand(g.hands[0], g.hands[0].pass_direction) for g in games]
    plain = tmp_path / "train.txt"
    plain.write_text("\n".join(histories))  # no newline after the last line, as OpenSpiel's own file
    out = tmp_path / "plain.jsonl"
    result = run("import", plain, "-o", out)
    assert result.exit_code == 0, result.output
    assert [g["hands"][0]["plays"] for g in lines(out)] == [game_to_dict(g)["hands"][0]["plays"] for g in games]
    actions = histories[0].split()
    states = "".join(f"History() = [{', '.join(actions[:n])}]\nReturns() = [0, 0, 0, 0]\n\n"
                     for n in range(1, len(actions)))
    playthrough = tmp_path / "hearts.txt"
    points = games[0].hands[0].points
    playthrough.write_text(f"game: hearts\n\nGameType.long_name = \"Hearts\"\n\n{states}IsTerminal() = True\n"
                           f"History() = [{', '.join(actions)}]\n"
                           f"Returns() = [{', '.join(str(26 - p) for p in points)}]\n")
    out = tmp_path / "playthrough.jsonl"
    result = run("import", playthrough, "-o", out)
    assert result.exit_code == 0, result.output
    (game,) = lines(out)
    assert game["hands"][0]["plays"] == game_to_dict(games[0])["hands"][0]["plays"]
    assert game["hands"][0]["points"] == list(points) and run("validate", out).exit_code == 0
    other = tmp_path / "chess.txt"
    other.write_text("game: chess\n\nHistory() = [1, 2]\n")
    kept = out.read_bytes()
    result = run("import", "openspiel", other, "-o", out)
    assert result.exit_code == 2 and "a playthrough of OpenSpiel's 'chess' game" in result.output
    unknown = tmp_path / "notes.txt"
    unknown.write_text("1 2 3\n")
    assert "formats: killer, sturtevant, league, killer-json, trend, turbo, openspiel, text" in \
        run("import", unknown).output


# -- a cut-off deal costs only itself, in every importer ---------------------------------------------
CUT_PRESETS = {"killer": "killer_hearts", "killer-json": "killer_hearts", "sturtevant": "sturtevant",
               "trend": "trend_hearts", "turbo": "turbo_hearts", "text": "standard", "league": "hearts_league",
               "openspiel": "standard"}


def written_log(name: str, folder: Path):
    """One simulated game of several deals in the format's own file, and the game."""
    from hearts_analysis.interop import formats, league, openspiel
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_games
    rules = Rules.preset(CUT_PRESETS[name])
    if name == "openspiel":
        rules = Rules.preset("standard", pass_cycle=["left", "right", "across", "hold"], moon="add_to_others",
                             only_hearts_lead="queen_first")
    (game,) = simulate_games(1, rules, seed=4)
    module = formats.formats()[name]
    if name == "league":
        league.write_files([game], folder)
        return module, folder / "TrickHistory.csv", game
    path = folder / "log.txt"
    with path.open("w") as out:
        if name == "openspiel":
            exported = openspiel.export_game(game)
            openspiel.write_histories([exported], exported.parameters, out)
        else:
            module.write([game], out)
    return module, path, game


@pytest.mark.parametrize("name", sorted(CUT_PRESETS))
@pytest.mark.parametrize("at_line_end", [True, False])
def test_a_log_cut_off_keeps_every_complete_deal_before_the_cut(tmp_path, name, at_line_end):
    module, path, game = written_log(name, tmp_path)
    text = path.read_text()
    for fraction in (0.97, 0.9, 0.8):
        cut = text[:int(len(text) * fraction)]
        if at_line_end:
            cut = cut[:cut.rfind("\n") + 1]
        path.write_text(cut)
        with path.open() as stream:
            items = list(module.read(stream, str(path)))
        read = [item.game for item in items if item.game is not None]
        assert len(read) == 1, [str(item.error) for item in items]
        kept = read[0].hands
        assert len(kept) >= 2 and [h.plays for h in kept[:-1]] == [h.plays for h in game.hands[:len(kept) - 1]]
        last = kept[-1].plays
        if name == "sturtevant" and not at_line_end:
            last = last[:-1]  # a bare card number cut short (32 -> 3) is another card: it cannot be told
        assert last == game.hands[len(kept) - 1].plays[:len(last)]
        complete = [h for h in kept if len(h.plays) == 52]
        assert [[sorted(cards) for cards in h.deal] for h in complete] == \
            [[sorted(cards) for cards in h.deal] for h in game.hands[:len(complete)]]
