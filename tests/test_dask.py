"""``--engine dask``: the fast path on a Dask cluster gives the reference engine's results.

Runs on an in-process ``distributed.LocalCluster``; skipped where the dask extra is not installed.
"""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from typer.testing import CliRunner  # noqa: E402

from faults import clean_games, every_violation, truncated, write_parquet_file, write_with_unreadable_games  # noqa: E402
from hearts_analysis.corpus_audit import error_report  # noqa: E402
from hearts_analysis.cli import app  # noqa: E402
from hearts_analysis.fastpath import CleanRun  # noqa: E402
from hearts_analysis.fastpath.cluster import dask_entries  # noqa: E402
from hearts_analysis.records.parquet import write_parquet  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as local:
        yield local


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A folder of part files with every violation, a part with unreadable games and a truncated part."""
    folder = tmp_path_factory.mktemp("dask") / "corpus"
    write_parquet(every_violation()[:120], folder, partition_size=80)
    write_with_unreadable_games(clean_games(), folder / "part-90000.parquet")
    truncated(folder / "part-00000.parquet", folder / "part-90001.parquet")
    return folder


def test_the_cluster_gives_the_reference_reports_in_order(cluster, corpus):
    from test_fastpath import reference
    with distributed.Client(cluster) as client:
        entries = list(dask_entries([corpus], client=client, render=True))
    reports = []
    for entry in entries:
        if isinstance(entry, CleanRun):
            reports.extend(entry.reports())
        else:
            reports.append(error_report(entry.item) if entry.report is None else entry.report)
    assert reports == reference([corpus])
    assert any(isinstance(entry, CleanRun) for entry in entries)


@pytest.mark.parametrize("format", ["json", "text"])
def test_hearts_validate_on_a_scheduler_prints_what_the_reference_engine_prints(cluster, corpus, format):
    expected = runner.invoke(app, ["validate", str(corpus), "--format", format, "--engine", "reference"])
    result = runner.invoke(app, ["validate", str(corpus), "--format", format, "--engine", "dask",
                                 "--scheduler", cluster.scheduler_address])
    assert (result.exit_code, result.stdout_bytes) == (expected.exit_code, expected.stdout_bytes) == (
        2, expected.stdout_bytes)


def test_a_single_file_works_too(cluster, tmp_path):
    games = clean_games()
    path = write_parquet_file(games, tmp_path / "clean.parquet")
    result = runner.invoke(app, ["validate", str(path), "--engine", "dask", "--scheduler", cluster.scheduler_address])
    hands = sum(len(game.hands) for game in games)
    assert result.exit_code == 0 and f"{len(games)} games ({hands} hands) checked, no violations" in result.stdout


def test_hearts_review_on_a_scheduler_gives_the_review_of_one_process(cluster, tmp_path):
    from hearts_analysis.records.json import write_games
    from hearts_analysis.rules import Rules
    from hearts_analysis.simulate import simulate_game
    games = [simulate_game(Rules.preset("standard"), ["a", "b", "c", "d"], seed, game_id=f"g{seed}", max_hands=1)
             for seed in (1, 2)]
    write_games(games, tmp_path / "games.jsonl")
    args = ["review", str(tmp_path / "games.jsonl"), "--format", "json", "--samples", "20", "--no-cache"]
    here = runner.invoke(app, args)
    there = runner.invoke(app, args + ["--scheduler", cluster.scheduler_address])
    assert here.exit_code == there.exit_code == 0, here.output + there.output
    assert there.stdout == here.stdout


# -- a scheduler that cannot be reached, or that has no workers ---------------------------------------------
def _free_port() -> int:
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def idle_scheduler():
    """A real ``dask scheduler`` process with no worker."""
    import subprocess
    import sys
    import time
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                "--port", str(port), "--dashboard-address", ":0", "--no-show"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    address = f"tcp://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with distributed.Client(address, timeout=5):
                    break
            except OSError:
                time.sleep(0.5)
        yield address
    finally:
        process.kill()
        process.wait()


def _commands(source, address):
    return [["validate", str(source), "--engine", "dask", "--scheduler", address],
            ["review", str(source), "--hand", "1", "--no-cache", "--scheduler", address]]


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, monkeypatch):
    from hearts_analysis import cluster as dask_cluster
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 2.0)
    source = tmp_path / "g.parquet"
    write_parquet(clean_games()[:2], source)
    address = f"tcp://127.0.0.1:{_free_port()}"
    for command in _commands(source, address):
        done = runner.invoke(app, command)
        assert done.exit_code == 2, (command, done.output)
        assert f"cannot reach the Dask scheduler at {address}" in done.stderr
        assert "Traceback" not in done.output and done.exception is None or isinstance(done.exception, SystemExit)


def test_a_scheduler_with_no_workers_is_a_bounded_wait_then_exit_2(tmp_path, monkeypatch, idle_scheduler):
    from hearts_analysis import cluster as dask_cluster
    monkeypatch.setattr(dask_cluster, "WORKERS_SECONDS", 2.0)
    source = tmp_path / "g.parquet"
    write_parquet(clean_games()[:2], source)
    for command in _commands(source, idle_scheduler):
        done = runner.invoke(app, command)
        assert done.exit_code == 2, (command, done.output)
        assert f"the Dask scheduler at {idle_scheduler} has no workers" in done.stderr
