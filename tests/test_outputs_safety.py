"""Where ``-o`` writes: FIFOs, devices and standard output are written through, symlinks are followed or
refused, an output is never one of the inputs, a failed write names the user's path, a convert that
read nothing writes nothing, and ``--workers`` never starts more processes than there are CPUs or work."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis import atomic, cpus
from hearts_analysis.cli import app

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


# Each command that takes an output: its arguments for the input and an output of the given name.
COMMANDS = {
    "convert": lambda src, out: ["convert", src, out],
    "simulate": lambda src, out: ["simulate", "--games", "1", "--rules", "standard", "--set", "target=30",
                                  "-o", out],
    "analyze": lambda src, out: ["analyze", src, "-o", out],
    "analyze-csv": lambda src, out: ["analyze", src, "--format", "csv", "-o", out],
    "stats": lambda src, out: ["stats", src, "-o", out],
    "review": lambda src, out: ["review", src, "--summary", "--samples", "10", "--hand", "1", "-o", out],
    "report": lambda src, out: ["report", src, "--audit", "-o", out],
    "export": lambda src, out: ["export", "openspiel", src, "-o", out],
}
SUFFIX = {"convert": ".jsonl", "simulate": ".jsonl", "stats": ".csv", "review": ".csv", "report": ".html",
          "analyze-csv": ".csv"}


def suffix(command: str) -> str:
    return SUFFIX.get(command, ".txt")


def read_fifo(path: Path, into: list[bytes]) -> threading.Thread:
    def reader() -> None:
        with open(path, "rb") as stream:
            into.append(stream.read())
    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    return thread


# -- 1. FIFOs, devices, symlinks, standard output --------------------------------------------------
@pytest.mark.parametrize("command", ["convert", "simulate", "analyze", "analyze-csv", "stats", "report", "export"])
def test_a_fifo_at_the_output_is_written_through_and_stays_a_fifo(tmp_path, games_file, command):
    fifo = tmp_path / f"pipe{suffix(command)}"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = read_fifo(fifo, got)
    done = run(*COMMANDS[command](games_file, fifo))
    thread.join(timeout=20)
    assert done.exit_code == 0, done.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].strip()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("command", ["convert", "simulate", "analyze", "stats", "report", "export"])
def test_a_device_at_the_output_is_written_through_and_stays_a_device(tmp_path, games_file, command):
    device = tmp_path / f"null{suffix(command)}"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))   # a copy of /dev/null
    before = os.lstat(device)
    done = run(*COMMANDS[command](games_file, device))
    assert done.exit_code == 0, done.output
    after = os.lstat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert stat.S_IMODE(after.st_mode) == stat.S_IMODE(before.st_mode)
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("command", ["convert", "simulate", "analyze", "stats", "export"])
def test_a_symlink_to_a_file_is_kept_and_its_target_replaced(tmp_path, games_file, command):
    real = tmp_path / "real" / f"out{suffix(command)}"
    real.parent.mkdir()
    real.write_text("old")
    link = tmp_path / f"link{suffix(command)}"
    link.symlink_to(Path("real") / real.name)
    done = run(*COMMANDS[command](games_file, link))
    assert done.exit_code == 0, done.output
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / real.name)
    assert real.read_bytes() != b"old" and real.stat().st_size > 0


@pytest.mark.parametrize("command", ["convert", "analyze", "stats", "export"])
def test_a_dangling_symlink_is_refused_and_left_alone(tmp_path, games_file, command):
    link = tmp_path / f"link{suffix(command)}"
    link.symlink_to(tmp_path / "nowhere" / "gone.txt")
    done = run(*COMMANDS[command](games_file, link))
    assert done.exit_code == 2
    assert str(link) in done.stderr and "link" in done.stderr and "Traceback" not in done.output
    assert link.is_symlink() and not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("command", ["analyze", "analyze-csv", "stats", "review", "convert"])
def test_dash_writes_to_standard_output(tmp_path, games_file, command, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run(*COMMANDS[command](games_file, "-"))
    assert done.exit_code == 0, done.output
    assert done.stdout.strip()
    assert not (tmp_path / "-").exists()


def test_a_report_to_standard_output_is_refused_plainly(tmp_path, games_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("report", games_file, "-o", "-")
    assert done.exit_code == 2 and "-" in done.stderr and "Traceback" not in done.output
    assert not (tmp_path / "-").exists()


def test_atomic_open_writes_through_a_fifo_without_a_temporary_file(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    thread = read_fifo(fifo, got)
    with atomic.atomic_open(fifo, "wb") as out:
        out.write(b"through")
    thread.join(timeout=10)
    assert got == [b"through"] and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_failed_write_to_a_regular_file_leaves_the_old_one(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError):
        with atomic.atomic_open(target) as out:
            out.write("new")
            raise RuntimeError("stop")
    assert target.read_text() == "old" and os.listdir(tmp_path) == ["out.txt"]


# -- 2. an output that is an input ---------------------------------------------------------------
@pytest.mark.parametrize("command", ["convert", "analyze", "analyze-csv", "stats", "review", "export"])
@pytest.mark.parametrize("how", ["same", "relative", "symlink", "hardlink"])
def test_an_output_that_is_an_input_is_refused_and_the_input_kept(tmp_path, games_file, command, how,
                                                                    monkeypatch):
    before = games_file.read_bytes()
    monkeypatch.chdir(tmp_path)
    out: Path | str = games_file
    if how == "relative":
        (tmp_path / "sub").mkdir()
        out = "sub/../games.jsonl"
    elif how == "symlink":
        out = tmp_path / "alias.jsonl"
        out.symlink_to(games_file)
    elif how == "hardlink":
        out = tmp_path / "twin.jsonl"
        os.link(games_file, out)
    done = run(*COMMANDS[command](games_file, out))
    assert done.exit_code == 2, done.output
    assert str(out) in done.stderr and str(games_file) in done.stderr
    assert "input" in done.stderr and "Traceback" not in done.output
    assert games_file.read_bytes() == before


def test_an_output_folder_that_is_an_input_folder_is_refused(tmp_path, games_file):
    folder = tmp_path / "corpus"
    assert run("convert", games_file, folder).exit_code == 0
    kept = sorted(p.read_bytes() for p in folder.iterdir())
    done = run("convert", folder, folder)
    assert done.exit_code == 2 and "input" in done.stderr
    assert sorted(p.read_bytes() for p in folder.iterdir()) == kept


@pytest.mark.parametrize("command", ["convert", "analyze", "stats"])
def test_a_game_file_inside_an_input_folder_is_refused_as_an_output(tmp_path, games_file, command):
    folder = tmp_path / "club"
    folder.mkdir()
    inside = folder / "week1.jsonl"
    inside.write_bytes(games_file.read_bytes())
    before = inside.read_bytes()
    done = run(*COMMANDS[command](folder, inside))
    assert done.exit_code == 2, done.output
    assert "inside the input folder" in done.stderr and str(folder) in done.stderr
    assert inside.read_bytes() == before


def test_a_file_inside_an_input_folder_that_is_never_read_as_games_may_be_written(tmp_path, games_file):
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "week1.jsonl").write_bytes(games_file.read_bytes())
    (folder / "stats.csv").write_text("old")
    atomic.check_output(folder / "stats.csv", [folder])   # a CSV of statistics is not read from the folder
    atomic.check_output(folder / "new.jsonl", [folder])   # nor is a file not written yet destroyed


def test_the_folder_suffixes_are_the_readers():
    from hearts_analysis.records.sources import JSON_SUFFIXES, PARQUET_SUFFIXES
    assert set(atomic.FOLDER_GAME_SUFFIXES) == set(JSON_SUFFIXES + PARQUET_SUFFIXES)


def test_check_output_names_both_paths(tmp_path, games_file, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(atomic.OutputError) as raised:
        atomic.check_output("./games.jsonl", [str(games_file)])
    assert "./games.jsonl" in str(raised.value) and str(games_file) in str(raised.value)
    atomic.check_output(tmp_path / "new.csv", [str(games_file), "-"])   # a new file is fine


# -- 3. a convert that read nothing ---------------------------------------------------------------
def test_a_convert_that_read_nothing_leaves_the_output_alone(tmp_path, games_file):
    target = tmp_path / "c.parquet"
    assert run("convert", games_file, target).exit_code == 0
    before = target.read_bytes()
    done = run("convert", tmp_path / "typo.parquet", target)
    assert done.exit_code == 2 and str(target) in done.stderr
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.parquet", "games.jsonl"]


def test_swapped_convert_arguments_do_not_empty_the_input(tmp_path, games_file):
    before = games_file.read_bytes()
    done = run("convert", tmp_path / "missing.parquet", games_file)
    assert done.exit_code == 2 and "no such file" in done.stderr
    assert games_file.read_bytes() == before


def test_a_convert_of_only_bad_records_writes_nothing(tmp_path):
    source = tmp_path / "bad.jsonl"
    source.write_text("not json\n{}\n")
    target = tmp_path / "out.jsonl"
    target.write_text("keep\n")
    done = run("convert", source, target)
    assert done.exit_code == 2 and target.read_text() == "keep\n"


# -- 4. --workers ---------------------------------------------------------------------------------
def test_worker_count_is_bounded_by_the_cpus_and_the_work(monkeypatch):
    monkeypatch.setattr(cpus, "cpu_count", lambda: 4)
    assert cpus.worker_count(3000) == 4
    assert cpus.worker_count(3000, work=2) == 2
    assert cpus.worker_count(3, work=10) == 3
    assert cpus.worker_count(3000, work=0) == 1
    assert cpus.worker_count(1, work=10) == 1
    monkeypatch.undo()
    assert 1 <= cpus.cpu_count() <= (os.cpu_count() or 1)


def test_validate_with_3000_workers_starts_at_most_one_per_part(tmp_path, games_file, monkeypatch):
    import hearts_analysis.fastpath as fastpath
    asked: list[int] = []
    real = fastpath.process_pool

    def recording(workers):
        asked.append(workers)
        assert workers <= cpus.cpu_count(), f"a pool of {workers} processes"   # never start them
        return real(workers)
    monkeypatch.setattr(fastpath, "process_pool", recording)
    corpus = tmp_path / "corpus.parquet"
    assert run("convert", games_file, corpus).exit_code == 0
    started = time.perf_counter()
    done = run("validate", corpus, "--workers", "3000")
    assert done.exit_code in (0, 1), done.output
    assert time.perf_counter() - started < 30
    assert all(n <= min(cpus.cpu_count(), 1) for n in asked)   # one row group pair: no pool at all


def test_stats_with_3000_workers_starts_at_most_one_process_per_cpu(tmp_path, games_file, monkeypatch):
    import concurrent.futures
    import multiprocessing.context
    asked: list[int] = []
    real, real_executor = multiprocessing.context.BaseContext.Pool, concurrent.futures.ProcessPoolExecutor.__init__

    def recording(self, processes=None, *args, **kwargs):   # the per-game count of .json files
        asked.append(processes)
        assert processes <= 2, f"a pool of {processes} processes"   # never start them
        return real(self, processes, *args, **kwargs)

    def recording_executor(self, max_workers=None, *args, **kwargs):   # the count of parts, from columns
        asked.append(max_workers)
        assert max_workers <= 2, f"a pool of {max_workers} processes"
        return real_executor(self, max_workers, *args, **kwargs)
    monkeypatch.setattr(multiprocessing.context.BaseContext, "Pool", recording)
    monkeypatch.setattr(concurrent.futures.ProcessPoolExecutor, "__init__", recording_executor)
    monkeypatch.setattr(cpus, "cpu_count", lambda: 2)
    from hearts_analysis.analysis import stats
    monkeypatch.setattr(stats, "BATCH_GAMES", 1)
    done = run("stats", games_file, games_file, games_file, "--workers", "3000")
    assert done.exit_code == 0, done.output
    assert asked and all(n <= 2 for n in asked)


def test_help_says_workers_are_bounded():
    for command in ("validate", "stats"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "CPU" in text, command


# -- 6, 7. unwritable outputs: a plain message naming the user's path -----------------------------
@pytest.mark.parametrize("command", ["convert", "simulate", "analyze", "analyze-csv", "stats", "review", "export"])
def test_an_output_that_is_a_folder_is_refused_plainly(tmp_path, games_file, command):
    folder = tmp_path / f"out{suffix(command)}"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep")
    done = run(*COMMANDS[command](games_file, folder))
    assert done.exit_code == 2, done.output
    assert str(folder) in done.stderr
    assert "Traceback" not in done.output and "Errno" not in done.stderr and ".tmp" not in done.stderr
    assert [p.name for p in folder.iterdir()] == ["keep.txt"]


@pytest.mark.parametrize("command", ["convert", "simulate", "analyze", "analyze-csv", "stats", "review",
                                     "export", "report"])
def test_an_output_under_a_file_is_refused_plainly(tmp_path, games_file, command):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file, not a folder")
    target = blocker / f"out{suffix(command)}"
    done = run(*COMMANDS[command](games_file, target))
    assert done.exit_code == 2, done.output
    assert str(target) in done.stderr or str(blocker) in done.stderr
    assert "Traceback" not in done.output and "Errno" not in done.stderr and ".tmp" not in done.stderr


def test_a_report_folder_that_is_a_file_is_refused_plainly(tmp_path, games_file):
    target = tmp_path / "reports"
    target.write_text("a file")
    done = run("report", games_file, "-o", target)
    assert done.exit_code == 2 and str(target) in done.stderr
    assert "Errno" not in done.stderr and target.read_text() == "a file"


def test_a_failing_write_names_the_users_path_not_the_temporary_file(tmp_path):
    target = tmp_path / "out.csv"
    with pytest.raises(atomic.OutputError) as raised:
        with atomic.atomic_open(target, "w") as out:
            raise OSError(28, "No space left on device", out.name)
    message = str(raised.value)
    assert str(target) in message and "No space left" in message
    assert ".tmp" not in message and "Errno" not in message
    assert os.listdir(tmp_path) == []


def test_a_write_error_that_quotes_the_temporary_file_quotes_the_users_path(tmp_path):
    import pyarrow as pa
    target = tmp_path / "out.parquet"
    with pytest.raises(atomic.OutputError) as raised:
        with atomic.atomic_path(target) as path:
            raise pa.ArrowIOError(f"error writing to {path}: disk full")
    message = str(raised.value)
    assert message == f"{target}: cannot be written: error writing to {target}: disk full"
    assert os.listdir(tmp_path) == []


def test_errors_about_other_files_pass_through(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        with atomic.atomic_open(tmp_path / "out.txt"):
            open(tmp_path / "some-input.jsonl")
    assert "some-input.jsonl" in str(raised.value) and not isinstance(raised.value, atomic.OutputError)
