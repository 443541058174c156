"""Dask workers that die after a run has started: the run ends with one line and exit 2, in bounded time.

Real ``dask scheduler`` and ``dask worker`` processes; the command runs as a process of its own, and its
workers are killed (``kill -9``, nanny and all) once the scheduler has seen the first results. The command is
paused around the kill, so that what is left to do is known: tasks it has not sent yet, which no worker will
ever take. Skipped where the dask extra is not installed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from hearts_analysis.cluster import WAIT_ENV  # noqa: E402
from hearts_analysis.records.json import write_games  # noqa: E402
from hearts_analysis.records.parquet import write_parquet  # noqa: E402
from hearts_analysis.rules import Rules  # noqa: E402
from hearts_analysis.simulate import simulate_games  # noqa: E402

cloudpickle = pytest.importorskip("cloudpickle")
cloudpickle.register_pickle_by_value(sys.modules[__name__])   # its probes run on a scheduler that cannot import it
ROOT = Path(__file__).resolve().parents[1]
WAIT = 3
"""Seconds with no worker before the command gives up (the default is a minute)."""


def _free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until(check, seconds: float, what: str, poll: float = 0.02):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(poll)
    raise AssertionError(f"timed out waiting for {what}")


def _scheduler(env: dict | None = None):
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                "--port", str(port), "--dashboard-address", ":0", "--no-show"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env={**os.environ, **(env or {})})
    return process, f"tcp://127.0.0.1:{port}"


def _worker(address: str):
    """A ``dask worker`` (a nanny and its worker process) in a process group of its own, so one kill takes both."""
    return subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                             "--no-dashboard"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def _kill_group(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


@pytest.fixture
def cluster():
    """A scheduler and one worker, and a client of the test's own that watches the scheduler."""
    scheduler, address = _scheduler()
    worker = _worker(address)
    try:
        client = _wait_until(lambda: _client(address), 120, "the scheduler", poll=0.5)
        with client:
            client.wait_for_workers(1, timeout=120)
            yield address, client, worker
    finally:
        _kill_group(worker)
        _kill_group(scheduler)


def _client(address: str):
    try:
        return distributed.Client(address, timeout=5)
    except OSError:
        return None


def _finished(dask_scheduler, prefix: str) -> int:
    return sum(1 for t in dask_scheduler.transition_log if t[2] == "memory" and str(t[0]).startswith(prefix))


def _command(args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "hearts_analysis", *args], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), WAIT_ENV: str(WAIT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _kill_workers_after_first_results(command: subprocess.Popen, client, worker, prefix: str) -> None:
    try:
        _wait_until(lambda: client.run_on_scheduler(_finished, prefix=prefix) or command.poll() is not None,
                    300, "the first results")
        assert command.poll() is None, "the run ended before its workers could be killed"
        os.killpg(command.pid, signal.SIGSTOP)   # it sends no more tasks; the worker finishes those it has
        time.sleep(0.5)
        _kill_group(worker)
    finally:
        os.killpg(command.pid, signal.SIGCONT)


def _ends(command: subprocess.Popen) -> tuple[int, str, str]:
    start = time.monotonic()
    stdout, stderr = command.communicate(timeout=120)
    assert time.monotonic() - start < 60, "the run waited far longer than the no-worker bound"
    return command.returncode, stdout.decode(), stderr.decode()


@pytest.mark.long
def test_a_review_whose_workers_all_die_ends_with_one_line_and_writes_nothing(cluster, tmp_path):
    address, client, worker = cluster
    write_games(list(simulate_games(8, Rules.preset("standard", target=40), seed=5)), tmp_path / "games.jsonl")
    out = tmp_path / "review.json"
    out.write_text("the previous review\n")
    command = _command(["review", str(tmp_path / "games.jsonl"), "--samples", "60", "--no-cache", "--format",
                        "json", "-o", str(out), "--scheduler", address])
    _kill_workers_after_first_results(command, client, worker, "review_hand_task")
    code, stdout, stderr = _ends(command)
    assert code == 2, stderr
    assert "Traceback" not in stderr and len(stderr.strip().splitlines()) == 1, stderr
    assert f"every worker of the Dask scheduler at {address} is gone (none for {WAIT} s)" in stderr
    assert "the run is incomplete" in stderr
    assert out.read_text() == "the previous review\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl", "review.json"]


@pytest.mark.long
def test_a_validation_whose_workers_all_die_ends_with_one_line_and_no_summary(cluster, tmp_path):
    address, client, worker = cluster
    write_parquet(list(simulate_games(150, Rules.preset("standard", target=30), seed=6)), tmp_path / "corpus",
                  partition_size=1)
    command = _command(["validate", str(tmp_path / "corpus"), "--engine", "dask", "--scheduler", address])
    _kill_workers_after_first_results(command, client, worker, "run_task")
    code, stdout, stderr = _ends(command)
    assert code == 2, stderr
    assert "Traceback" not in stderr and "every worker of the Dask scheduler" in stderr, stderr
    assert "checked" not in stdout   # no summary line that would pass the finished part off as the whole


def test_statistics_whose_workers_all_die_write_no_table(cluster, tmp_path):
    address, client, worker = cluster
    write_parquet(list(simulate_games(150, Rules.preset("standard", target=30), seed=7)), tmp_path / "corpus",
                  partition_size=1)
    out = tmp_path / "stats.csv"
    command = _command(["stats", str(tmp_path / "corpus"), "-o", str(out), "--scheduler", address])
    _kill_workers_after_first_results(command, client, worker, "tally_task")
    code, stdout, stderr = _ends(command)
    assert code == 2 and "every worker of the Dask scheduler" in stderr and "Traceback" not in stderr, stderr
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["corpus"]


@pytest.mark.long
def test_a_task_that_kills_its_worker_is_a_clear_error(tmp_path):
    """The scheduler gives a task up when its worker dies running it (here at the first death); the nanny starts
    a new worker, so the cluster is not empty: the run must still end, and say why."""
    scheduler, address = _scheduler({"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"})
    worker = _worker(address)
    try:
        client = _wait_until(lambda: _client(address), 120, "the scheduler", poll=0.5)
        with client:
            client.wait_for_workers(1, timeout=120)
            write_games(list(simulate_games(3, Rules.preset("standard", target=40), seed=5)), tmp_path / "g.jsonl")
            command = _command(["review", str(tmp_path / "g.jsonl"), "--samples", "60", "--no-cache", "--format",
                                "json", "-o", str(tmp_path / "r.json"), "--scheduler", address])

            def running(dask_scheduler):
                return sum(1 for t in dask_scheduler.tasks.values() if t.state == "processing")

            _wait_until(lambda: client.run_on_scheduler(running) or command.poll() is not None, 300, "a task")
            import psutil
            [process] = [p for p in psutil.Process(worker.pid).children(recursive=True)
                         if "spawn_main" in " ".join(p.cmdline())]
            process.kill()   # the worker process, not its nanny, which starts another
            code, stdout, stderr = _ends(command)
    finally:
        _kill_group(worker)
        _kill_group(scheduler)
    assert code == 2 and "Traceback" not in stderr, stderr
    assert "a task killed every Dask worker that ran it" in stderr and len(stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r.json").exists()


def test_the_clients_retry_warnings_stay_quiet_during_a_run_and_come_back_after(cluster):
    """When a worker dies the client logs "Couldn't gather 1 keys, rescheduling" on its own; the run's one line
    already says what happened, so during a run only the client's errors get through."""
    import logging

    from hearts_analysis.cluster import CLIENT_LOGGER, connect
    address, _, _ = cluster
    logger = logging.getLogger(CLIENT_LOGGER)
    with connect(address):
        assert not logger.isEnabledFor(logging.WARNING)
        assert logger.isEnabledFor(logging.ERROR)
    assert logger.isEnabledFor(logging.WARNING)
