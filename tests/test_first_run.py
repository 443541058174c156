"""The first use after install (docs/first-run.md): a cold kernel is named while it compiles, a warm one
is not, and the background compile runs at most once and never with HEARTS_NO_WARMUP."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearts_analysis.kernel import warmup as kernel_warmup
from hearts_analysis.review.warmup import COMPILE_NOTICE, UNCOMPILED_NOTICE, WAIT_NOTICE

ROOT = Path(__file__).resolve().parents[1]
ADVISE = ["advise", "--hand", "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S", "--plays", "A:2C B:9C", "--seat", "C",
          "--pass", "hold"]
PREPARE = ("import sys; from hearts_analysis.review.warmup import prepare; "
           "print(prepare(lambda line: print(line, file=sys.stderr)))")


def _environment(tmp_path: Path, **changes: str) -> dict[str, str]:
    environment = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT))
    environment.update(changes)
    return environment


def test_a_cold_kernel_is_named_before_it_compiles(tmp_path):
    # An empty NUMBA_CACHE_DIR is a fresh install: numba holds no compiled code for the package's path there.
    environment = _environment(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    done = subprocess.run([sys.executable, "-c", PREPARE], env=environment, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert done.stderr.strip() == COMPILE_NOTICE


def test_a_warm_kernel_says_nothing(tmp_path):
    # The session fixture compiled the kernel into the cache these commands read.
    environment = _environment(tmp_path)
    done = subprocess.run([sys.executable, "-m", "hearts_analysis", *ADVISE], env=environment,
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "plays" in done.stdout
    assert "compiling" not in done.stderr and "waiting" not in done.stderr, done.stderr


def test_a_command_waits_for_the_background_compile_and_says_so(tmp_path):
    environment = _environment(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from hearts_analysis.kernel.warmup import lock; "
                               "assert lock(wait=False) is not None; print('held', flush=True); sys.stdin.read()"],
                              env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    waiting = None
    try:
        assert holder.stdout.readline().strip() == "held"
        waiting = subprocess.Popen([sys.executable, "-c", PREPARE], env=environment, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        assert waiting.stderr.readline().strip() == WAIT_NOTICE
        time.sleep(1)
        assert waiting.poll() is None   # held by the lock
        holder.stdin.close()            # the background compile ends
        assert holder.wait(timeout=60) == 0
        out, _ = waiting.communicate(timeout=120)
        assert waiting.returncode == 0 and out.strip() == "True"
    finally:
        holder.kill()
        if waiting is not None:
            waiting.kill()


def test_an_advice_does_not_wait_for_the_background_compile(tmp_path):
    # A cold kernel compiling in the background (a process holds its lock): the advice is judged without it,
    # says so, and is the advice the compiled kernel gives.
    environment = _environment(tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    environment.pop(kernel_warmup.NO_WARMUP, None)
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from hearts_analysis.kernel.warmup import lock; "
                               "assert lock(wait=False) is not None; print('held', flush=True); sys.stdin.read()"],
                              env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        done = subprocess.run([sys.executable, "-m", "hearts_analysis", *ADVISE], env=environment,
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert holder.poll() is None   # answered while the compile still held the lock
    finally:
        holder.kill()
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == UNCOMPILED_NOTICE
    warm = subprocess.run([sys.executable, "-m", "hearts_analysis", *ADVISE], env=_environment(tmp_path),
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert warm.returncode == 0 and warm.stderr == "", warm.stderr
    assert done.stdout == warm.stdout


def test_a_cold_advice_runs_uncompiled_until_the_background_compile_has_run(tmp_path, monkeypatch):
    from hearts_analysis.review import warmup
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(kernel_warmup.NO_WARMUP, "0")
    monkeypatch.setattr(kernel_warmup, "cold", lambda dispatchers: ["place_cards"])
    said = []
    assert warmup.judged_uncompiled(said.append) is True and said == [UNCOMPILED_NOTICE]
    assert not kernel_warmup.marker().exists()   # it starts nothing itself: the command does, as it exits
    kernel_warmup.marker().touch()               # it ran, and the kernel is still cold: compile here
    assert warmup.judged_uncompiled(said.append) is False and len(said) == 1
    monkeypatch.setenv(kernel_warmup.NO_WARMUP, "1")
    kernel_warmup.marker().unlink()
    assert warmup.judged_uncompiled(said.append) is False


def test_an_advice_waits_for_every_function_it_calls_not_only_the_first():
    # The background compile does the first function first: a check on it alone sent a later advice to
    # compile the rest itself, beside the background compile (136 s for a lead instead of 17 s uncompiled).
    from hearts_analysis.review.warmup import advice_needs, entry_points, first_needed
    needed = {f.py_func.__name__ for f in advice_needs()}
    assert {f.py_func.__name__ for f in first_needed()} < needed <= {f.py_func.__name__ for f in entry_points()}
    assert {"model_choices", "play_out_all", "passes_all"} <= needed


def test_a_review_waits_for_a_background_compile_past_its_first_function(tmp_path, monkeypatch):
    # The background compile has done place_cards, not the rest: a review waits for it, where a check on
    # place_cards alone let it compile the rest itself beside the background compile.
    from hearts_analysis.review import warmup
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(kernel_warmup, "cold", lambda dispatchers: [f.py_func.__name__ for f in dispatchers
                                                                    if f.py_func.__name__ != "place_cards"])
    def handle() -> int:
        return os.open(os.devnull, os.O_RDONLY)

    waits = []   # the lock is held by the background compile until this process waits for it
    monkeypatch.setattr(kernel_warmup, "lock", lambda wait: waits.append(wait) or (handle() if wait else None))
    said = []
    assert warmup.prepare(said.append) is True
    assert said == [WAIT_NOTICE] and waits == [False, True]
    # No compile running: place_cards compiled here before, so no notice, and nothing to wait for.
    monkeypatch.setattr(kernel_warmup, "lock", lambda wait: handle())
    said.clear()
    assert warmup.prepare(said.append) is False and said == []


def test_the_background_compile_is_skipped_with_hearts_no_warmup(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv(kernel_warmup.NO_WARMUP, "1")
    assert kernel_warmup.start("hearts_analysis.review.warmup") is False
    monkeypatch.setenv(kernel_warmup.NO_WARMUP, "0")
    kernel_warmup.marker().parent.mkdir(parents=True)
    kernel_warmup.marker().touch()
    assert kernel_warmup.start("hearts_analysis.review.warmup") is False   # it ran for these sources already
    # A command with HEARTS_NO_WARMUP set starts nothing, so leaves no marker behind.
    environment = _environment(tmp_path / "other", HEARTS_NO_WARMUP="1")
    subprocess.run([sys.executable, "-m", "hearts_analysis", "rules", "--help"], env=environment,
                   capture_output=True, timeout=120)
    subprocess.run([sys.executable, "-m", "hearts_analysis", "validate", str(ROOT / "examples")], env=environment,
                   capture_output=True, timeout=120)
    assert not (tmp_path / "other" / "xdg" / "hearts-analysis").exists()


def test_the_first_command_compiles_in_the_background_once(tmp_path):
    environment = _environment(tmp_path)
    environment.pop(kernel_warmup.NO_WARMUP, None)
    command = [sys.executable, "-m", "hearts_analysis", "validate", str(ROOT / "examples" / "clean-4p-standard.json")]
    subprocess.run(command, env=environment, capture_output=True, timeout=120)
    folder = tmp_path / "xdg" / "hearts-analysis"
    deadline = time.monotonic() + 600   # it compiles what the session fixture did not
    while not list(folder.glob("kernel-warm-*")) and time.monotonic() < deadline:
        time.sleep(0.5)
    markers = list(folder.glob("kernel-warm-*"))
    assert len(markers) == 1, "the background compile left no marker"
    # Once it ran, no later command starts it again: a held lock would show a second one.
    check = ("import sys; from hearts_analysis.kernel.warmup import start; "
             "sys.exit(1 if start('hearts_analysis.review.warmup') else 0)")
    assert subprocess.run([sys.executable, "-c", check], env=environment, timeout=120).returncode == 0


@pytest.mark.long
def test_a_second_background_compile_leaves_while_the_first_holds_the_lock(tmp_path):
    environment = _environment(tmp_path)
    holder = subprocess.Popen([sys.executable, "-c", "import time; from hearts_analysis.kernel.warmup import lock; "
                               "assert lock(wait=False) is not None; print('held', flush=True); time.sleep(60)"],
                              env=environment, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "hearts_analysis.review.warmup"], env=environment,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert time.monotonic() - started < 50   # it did not wait for the lock
        assert not list((tmp_path / "xdg" / "hearts-analysis").glob("kernel-warm-*"))
    finally:
        holder.kill()


def test_the_sources_named_are_those_that_cache_compiled_code():
    package = ROOT / "hearts_analysis"
    cached = sorted(path.relative_to(package).as_posix() for path in package.rglob("*.py")
                    if "njit" in path.read_text(encoding="utf-8")
                    and any(isinstance(node, ast.keyword) and node.arg == "cache"
                            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))))
    assert cached == sorted(kernel_warmup.SOURCES)
