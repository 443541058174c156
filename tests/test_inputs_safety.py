"""Inputs that are not regular files: a FIFO would block forever and a device such as /dev/zero never ends.
Each is refused with a message naming it, quickly, and the other inputs are still read; ``-`` is how to
read standard input."""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hearts_analysis.records.sources import input_problem, iter_sources

COMMANDS = {
    "validate": ["validate"],
    "validate-reference": ["validate", "--engine", "reference"],
    "score": ["score"],
    "analyze": ["analyze"],
    "stats": ["stats"],
    "convert": ["convert"],
    "report": ["report", "--audit"],
    "review": ["review", "--samples", "10", "--hand", "1"],
    "rules": ["rules", "--infer"],
    "export": ["export", "openspiel"],
}


def _limited() -> None:
    """A child that reads /dev/zero whole must fail fast rather than take the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def hearts(tmp_path: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "hearts_analysis", *map(str, args)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=30, preexec_fn=_limited,
                          stdin=subprocess.DEVNULL)


def command_args(command: str, bad: Path, good: Path, tmp_path: Path) -> list:
    args = [*COMMANDS[command], bad, good]
    if command == "convert":
        args.append(tmp_path / "out.jsonl")
    if command in ("report", "export"):
        args += ["-o", tmp_path / ("out.html" if command == "report" else "out.txt")]
    return args


def assert_refused(tmp_path: Path, command: str, bad: Path, good: Path, word: str) -> None:
    try:
        done = hearts(tmp_path, *command_args(command, bad, good, tmp_path))
    except subprocess.TimeoutExpired:
        pytest.fail(f"hearts {command} blocked on or kept reading {bad}")
    said = done.stdout + done.stderr
    assert done.returncode == 2, done.stderr
    assert f"{bad}: " in said and word in said and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_fifo_input_is_refused_by_name(tmp_path, games_file, command):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert_refused(tmp_path, command, fifo, games_file, "FIFO")


@pytest.mark.parametrize("command", ["validate", "stats", "convert"])
def test_an_endless_device_input_is_refused_by_name(tmp_path, games_file, command):
    zero = tmp_path / "zero.jsonl"
    os.mknod(zero, stat.S_IFCHR | 0o444, os.makedev(1, 5))   # a copy of /dev/zero
    assert_refused(tmp_path, command, zero, games_file, "device")


def test_import_refuses_a_fifo(tmp_path):
    fifo = tmp_path / "histories.txt"
    os.mkfifo(fifo)
    try:
        done = hearts(tmp_path, "import", "openspiel", fifo, "-o", tmp_path / "out.jsonl")
    except subprocess.TimeoutExpired:
        pytest.fail("hearts import blocked on a FIFO")
    assert done.returncode == 2 and str(fifo) in done.stderr and "FIFO" in done.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_input_problem_names_what_the_path_is(tmp_path, games_file):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert input_problem(games_file) is None and input_problem(tmp_path) is None
    assert "FIFO" in input_problem(fifo) and "-" in input_problem(fifo)
    assert input_problem(tmp_path / "missing") == "no such file or folder"
    items = list(iter_sources([fifo, games_file]))
    assert items[0].source == str(fifo) and items[0].game is None and "FIFO" in items[0].error.text()
    assert [item.game is not None for item in items[1:]] == [True, True]   # the rest is still read


def test_a_fifo_inside_a_folder_is_skipped(tmp_path, games_file):
    os.mkfifo(tmp_path / "pipe.jsonl")
    items = list(iter_sources([tmp_path]))
    assert {item.source.split(":")[0] for item in items} == {str(games_file)} and len(items) == 2
