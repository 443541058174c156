"""No user file is lost: not by an output that holds an input, a write error, two runs at once, a ``kill -9`` at
a chosen point, a full or read-only disk, or an import or export that read no game.

Races run two real ``python -m hearts_analysis`` processes. Kills and pauses come from :data:`LAUNCH`, which
starts the command line with one function of the package wrapped (``HEARTS_TEST_WRAP=module:attr|action``):
paused before or after it runs, or the process killed with SIGKILL before or after it runs; nothing in the
package knows of it. Full and read-only disks are tiny tmpfs mounts (skipped where mounting is not allowed).
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.cli import app
from hearts_analysis.records.json import write_games
from hearts_analysis.records.sources import iter_sources
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()

LAUNCH = r"""
import importlib, os, signal, sys, time
spec = os.environ.get("HEARTS_TEST_WRAP")
if spec:
    where, action = spec.split("|")
    module_name, attribute = where.split(":")
    owner = importlib.import_module(module_name)
    *path, name = attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    original = getattr(owner, name)
    def wrapped(*args, **kwargs):
        if action.startswith("sleep:"):
            time.sleep(float(action[6:]))
        if action == "kill-before":
            os.kill(os.getpid(), signal.SIGKILL)
        if action == "false":
            return False
        result = original(*args, **kwargs)
        if action.startswith("sleep-after:"):
            time.sleep(float(action[12:]))
        if action == "kill-after":
            os.kill(os.getpid(), signal.SIGKILL)
        return result
    setattr(owner, name, wrapped)
sys.argv = ["hearts", *sys.argv[1:]]
from hearts_analysis.cli import main
main()
"""


def hearts(*args, wrap: str | None = None, start_only: bool = False):
    """The command line in a process of its own (with one function wrapped: see :data:`LAUNCH`)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEARTS_TEST_WRAP": wrap or ""}
    command = [sys.executable, "-c", LAUNCH, *map(str, args)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if start_only:
        return process
    out, err = process.communicate(timeout=300)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def games(n: int, seed: int, prefix: str | None = None):
    found = list(simulate_games(n, Rules.preset("standard", target=40), seed=seed))
    return found if prefix is None else [dataclasses.replace(g, game_id=f"{prefix}-{k}") for k, g in enumerate(found)]


def ids(path: Path) -> list[str]:
    items = list(iter_sources([path]))
    assert all(item.game is not None for item in items), [item.error for item in items if item.game is None]
    return [item.game.game_id for item in items]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def hidden(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def week(tmp_path_factory) -> tuple[Path, Path]:
    """Two JSON Lines files of 40 games each, different ids."""
    folder = tmp_path_factory.mktemp("week")
    first, second = folder / "a.jsonl", folder / "b.jsonl"
    write_games(games(40, 5), first)
    write_games(games(40, 6, "b"), second)
    return first, second


@contextlib.contextmanager
def tmpfs(where: Path, size: str):
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def read_only(where: Path) -> None:
    done = subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True)
    if done.returncode:
        pytest.skip(f"cannot remount read-only: {done.stderr.decode().strip()}")


# -- 1. an output folder that holds an input -----------------------------------------------------
def test_converting_a_part_into_the_folder_holding_it_is_refused(tmp_path, week):
    corpus = tmp_path / "c"
    assert run("convert", week[0], corpus, "-p", "100").exit_code == 0
    before = snapshot(corpus)
    assert len(before) > 1
    done = run("convert", corpus / "part-00001.parquet", corpus)
    assert done.exit_code == 2, done.output
    assert f"{corpus}: is a folder holding the input {corpus / 'part-00001.parquet'}" in done.stderr
    assert snapshot(corpus) == before


# -- 3. a write error ----------------------------------------------------------------------------
def test_a_write_that_fails_once_stops_the_conversion_and_keeps_the_old_folder(tmp_path, week, monkeypatch):
    from hearts_analysis.records.parquet import write
    corpus = tmp_path / "outc"
    assert run("convert", week[0], week[1], corpus, "-p", "60").exit_code == 0
    before = snapshot(corpus)
    calls = []
    real = write._Part.write

    def full_once(self, batch):
        calls.append(1)
        if len(calls) == 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, batch)
    monkeypatch.setattr(write._Part, "write", full_once)
    done = run("convert", week[0], week[1], corpus, "-p", "60")
    assert done.exit_code == 2
    assert f"hearts: {corpus}: cannot be written: No space left on device" in done.stderr
    assert "cannot read" not in done.stderr and "converted" not in done.stderr
    assert snapshot(corpus) == before
    assert hidden(tmp_path) == []


def test_a_full_disk_keeps_the_old_corpus_and_names_it(tmp_path, week):
    disk = tmp_path / "disk"
    with tmpfs(disk, "120k"):
        corpus = disk / "c.parquet"
        assert run("convert", week[0], corpus).exit_code == 0
        before = corpus.read_bytes()
        big = tmp_path / "big.jsonl"
        write_games(games(400, 9), big)
        done = run("convert", big, corpus)
        assert done.exit_code == 2
        assert f"{corpus}: cannot be written: No space left on device" in done.stderr, done.stderr
        assert corpus.read_bytes() == before and hidden(disk) == []
        club = disk / "club"
        assert run("convert", week[0], club, "--append").exit_code == 0
        kept = snapshot(club)
        done = run("convert", big, club, "--append")
        assert done.exit_code == 2
        assert f"hearts: {club}: cannot be written: No space left on device" in done.stderr, done.stderr
        assert "Errno" not in done.stderr and ".append" not in done.stderr
        assert snapshot(club) == kept and hidden(disk) == []


def test_a_read_only_folder_is_named_not_a_staging_folder(tmp_path, week):
    disk = tmp_path / "ro"
    with tmpfs(disk, "4m"):
        assert run("convert", week[0], disk / "c", "--append").exit_code == 0
        read_only(disk)
        done = run("convert", week[1], disk / "c", "--append")
        assert done.exit_code == 2
        assert done.stderr.strip() == f"hearts: {disk / 'c'}: Read-only file system"
        bad = tmp_path / "bad.jsonl"
        bad.write_text('{"players": 3}\n')
        done = run("report", bad, week[0], "-o", disk / "site")
        assert done.exit_code == 2 and f"{disk / 'site'}: cannot be written: Read-only file system" in done.stderr
        assert "players: expected a list" not in done.stderr   # refused before any game was read


# -- 4. two appends at once ----------------------------------------------------------------------
def test_two_appends_of_the_same_games_at_once_add_each_game_once(tmp_path, week):
    club = tmp_path / "club"
    slow = "hearts_analysis.records.append:_move_in|sleep:1.5"
    first, second = (hearts("convert", week[0], club, "--append", wrap=slow, start_only=True) for _ in range(2))
    results = [(p.wait(timeout=300), p.stderr.read()) for p in (first, second)]
    assert [code for code, _ in results] == [0, 0], results
    found = ids(club)
    assert len(found) == 40 and len(set(found)) == 40
    assert sorted("appended 40 games" in err for _, err in results) == [False, True]
    assert any("skipped 40 already there" in err for _, err in results)


@pytest.mark.long
def test_two_appends_of_different_games_at_once_lose_none(tmp_path, week):
    club = tmp_path / "club"
    assert run("convert", week[0], club, "--append").exit_code == 0
    third = tmp_path / "c.jsonl"
    write_games(games(40, 7, "c"), third)
    slow = "hearts_analysis.records.append:next_part_number|sleep-after:1.5"   # between choosing a name and taking it
    runs = [hearts("convert", source, club, "--append", wrap=slow, start_only=True) for source in (week[1], third)]
    assert [p.wait(timeout=300) for p in runs] == [0, 0], [p.stderr.read() for p in runs]
    found = ids(club)
    assert len(found) == 120 and len(set(found)) == 120


# -- 5. a kill while a folder is replaced; leftovers -----------------------------------------------
@pytest.mark.parametrize("wrap", ["hearts_analysis.workfiles:exchange|kill-before",
                                  "hearts_analysis.workfiles:exchange|kill-after"])
def test_a_kill_while_a_folder_is_replaced_leaves_a_whole_corpus(tmp_path, week, wrap):
    corpus = tmp_path / "corpus"
    assert run("convert", week[0], corpus, "-p", "100").exit_code == 0
    old = sorted(ids(corpus))
    killed = hearts("convert", week[1], corpus, "-p", "100", wrap=wrap)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    new = sorted(f"b-{n}" for n in range(40))
    assert sorted(ids(corpus)) in (old, new)
    assert hidden(tmp_path)   # the killed run's work is left beside it ...
    assert hearts("convert", week[0], tmp_path / "other.jsonl").returncode == 0
    assert run("convert", week[1], corpus, "--append").exit_code == 0
    assert hidden(tmp_path) == []   # ... and removed by the next run writing that output


def test_a_kill_between_two_renames_is_put_right_by_the_next_run(tmp_path, week, monkeypatch):
    """Where the system cannot swap two folders: the old one is moved aside first; killed then, the next run
    puts it back before doing anything."""
    from hearts_analysis import workfiles
    corpus = tmp_path / "corpus"
    assert run("convert", week[0], corpus, "-p", "100").exit_code == 0
    old = snapshot(corpus)
    code = LAUNCH.replace('spec = os.environ.get("HEARTS_TEST_WRAP")',
                          'import hearts_analysis.workfiles as w; w.exchange = lambda new, target: False\n'
                          'spec = os.environ.get("HEARTS_TEST_WRAP")')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HEARTS_TEST_WRAP": "hearts_analysis.workfiles:_move_aside|kill-after"}
    killed = subprocess.run([sys.executable, "-c", code, "convert", week[1], corpus, "-p", "100"], env=env,
                            capture_output=True, text=True, timeout=300)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not corpus.exists() and any(name.endswith(".old") for name in hidden(tmp_path))
    monkeypatch.setattr(workfiles, "exchange", lambda new, target: False)
    done = run("convert", week[1], corpus, "--append")
    assert done.exit_code == 0, done.output
    assert sorted(ids(corpus)) == sorted([f"sim-5-{n}" for n in range(1, 41)] + [f"b-{n}" for n in range(40)])
    assert {name: data for name, data in snapshot(corpus).items() if name in old} == old
    assert hidden(tmp_path) == []


def test_a_killed_conversion_and_a_killed_append_leave_nothing_after_the_next_run(tmp_path, week):
    target = tmp_path / "c.parquet"
    killed = hearts("convert", week[0], target, wrap="hearts_analysis.records.parquet.write:_Part.close|kill-before")
    assert killed.returncode == -signal.SIGKILL
    assert [name.endswith(".tmp") for name in hidden(tmp_path)] == [True] and not target.exists()
    assert run("convert", week[0], target).exit_code == 0
    assert hidden(tmp_path) == [] and len(ids(target)) == 40
    club = tmp_path / "c"
    killed = hearts("convert", week[0], club, "--append", wrap="hearts_analysis.records.append:_move_in|kill-before")
    assert killed.returncode == -signal.SIGKILL
    assert [name.endswith(".append") for name in hidden(tmp_path)] == [True]
    assert run("convert", week[0], club, "--append").exit_code == 0
    assert hidden(tmp_path) == [] and len(ids(club)) == 40


def test_work_in_progress_of_a_live_run_is_not_taken_for_a_leftover(tmp_path, week):
    club = tmp_path / "club"
    slow = hearts("convert", week[0], club, "--append", wrap="hearts_analysis.records.append:_move_in|sleep:3",
                  start_only=True)
    deadline = time.monotonic() + 60
    while not any(name.endswith(".append") for name in hidden(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert run("convert", week[0], tmp_path / "club.parquet").exit_code == 0   # another output: its own work
    from hearts_analysis.workfiles import clean_leftovers
    assert clean_leftovers(club) == []
    assert slow.wait(timeout=300) == 0, slow.stderr.read()
    assert len(ids(club)) == 40


# -- 9. an unreadable part -----------------------------------------------------------------------
def test_an_append_beside_an_unreadable_part_is_refused_by_name(tmp_path, week):
    from faults import damaged
    club = tmp_path / "club"
    assert run("convert", week[0], club, "--append").exit_code == 0
    part = club / "part-00000.parquet"
    damaged(part, tmp_path / "spoilt.parquet")
    os.replace(tmp_path / "spoilt.parquet", part)
    assert any(item.game is None for item in iter_sources([club]))
    before = snapshot(club)
    done = run("convert", week[0], club, "--append")
    assert done.exit_code == 2
    assert f"hearts: {part}: cannot be read, so the games already in its folder are not known" in done.stderr
    assert "skipped" not in done.stderr and snapshot(club) == before


# -- the site --------------------------------------------------------------------------------------
@pytest.mark.long
def test_a_site_is_replaced_whole(tmp_path, week, monkeypatch):
    site = tmp_path / "site"
    assert run("report", week[0], "-o", site).exit_code == 0
    first = snapshot(site)
    assert any(name.startswith("game-sim-5-") for name in first)
    from hearts_analysis.reports import render
    real = render._write_if_changed

    def full(path, text):
        if path.name == render.PLOTLY_FILE:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, text)
    monkeypatch.setattr(render, "_write_if_changed", full)
    (site / "assets" / render.PLOTLY_FILE).unlink()   # so that the next site writes it (and fails)
    first.pop(f"assets/{render.PLOTLY_FILE}")
    done = run("report", week[1], "-o", site)
    assert done.exit_code == 2 and f"{site}: cannot be written: No space left on device" in done.stderr
    assert snapshot(site) == first and hidden(tmp_path) == []
    monkeypatch.undo()
    assert run("report", week[1], "-o", site).exit_code == 0
    pages = snapshot(site)
    assert not any(name.startswith("game-sim-5-") for name in pages)     # no page of the earlier site stays
    assert any(name.startswith("game-b-") for name in pages) and f"assets/{render.PLOTLY_FILE}" in pages
    (site / "notes.txt").write_text("mine")
    done = run("report", week[0], "-o", site)
    assert done.exit_code == 2 and "holds other files (notes.txt)" in done.stderr
    assert (site / "notes.txt").read_text() == "mine"


# -- the cache folder ----------------------------------------------------------------------------
def test_a_relative_cache_home_is_ignored(monkeypatch, tmp_path):
    from hearts_analysis.review.cache import default_folder
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert default_folder() == tmp_path / ".cache" / "hearts-analysis" / "review"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "abs"))
    assert default_folder() == tmp_path / "abs" / "hearts-analysis" / "review"


# -- 2. export league ------------------------------------------------------------------------------
def test_export_league_writes_the_whole_record_set_and_never_over_a_file_it_reads(tmp_path):
    source = tmp_path / "games.jsonl"
    played = list(simulate_games(2, Rules.preset("hearts_league"), seed=2))
    write_games(played, source)
    league = tmp_path / "L"
    done = run("export", "league", source, "-o", league / "TrickHistory.csv")
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in league.iterdir()) == ["GameHistory.csv", "RoundHistory.csv", "TrickHistory.csv"]
    assert str(league / "RoundHistory.csv") in done.stderr and str(league / "GameHistory.csv") in done.stderr
    before = snapshot(league)
    for name in ("RoundHistory.csv", "GameHistory.csv"):
        for given in (league / "TrickHistory.csv", league):
            done = run("export", "league", given, "-o", league / name)
            assert done.exit_code == 2 and str(league / name) in done.stderr, done.output
    assert snapshot(league) == before
    back = [item.game for item in iter_sources([league / "TrickHistory.csv"])]
    assert [g.players for g in back] == [g.players for g in played]
    assert all(h.points is not None for g in back for h in g.hands)


# -- no import or export truncates an output it did not replace with games -------------
def _formats():
    from hearts_analysis.interop import formats
    return formats.formats()


@pytest.mark.parametrize("name", sorted(_formats()) + ["openspiel", None])
def test_an_import_that_reads_no_game_leaves_the_output(tmp_path, name):
    bad = tmp_path / "log.txt"
    bad.write_text("this is not a log of any program\n\x00\x01 nor this\n")
    out = tmp_path / "out.jsonl"
    out.write_text("kept\n")
    done = run("import", *([name] if name else []), bad, "-o", out)
    assert done.exit_code == 2, done.output
    assert out.read_text() == "kept\n" and "nothing written" in done.stderr
    assert hidden(tmp_path) == []


@pytest.mark.parametrize("name", sorted(n for n, m in _formats().items() if hasattr(m, "write")) + ["openspiel"])
def test_an_export_that_writes_no_game_leaves_the_output(tmp_path, name):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"players": 3}\n')
    out = tmp_path / "TrickHistory.csv"
    out.write_text("kept\n")
    done = run("export", name, bad, "-o", out)
    assert done.exit_code == 2, done.output
    assert out.read_text() == "kept\n" and "nothing written" in done.stderr
    assert hidden(tmp_path) == []


def test_an_append_through_a_link_to_the_corpus_adds_to_the_real_folder(tmp_path, week):
    real = tmp_path / "disk" / "club"
    link = tmp_path / "club"
    real.mkdir(parents=True)
    link.symlink_to(real)
    for source in week:
        done = run("convert", source, link, "--append")
        assert done.exit_code == 0, done.output
    assert link.is_symlink() and len(ids(real)) == 80
    assert hidden(tmp_path) == [] and hidden(real.parent) == []
