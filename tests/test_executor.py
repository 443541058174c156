"""The one executor of the parallel commands: the same results here, on processes and on a Dask cluster, in
input order, with the input read only a bounded distance ahead."""

from __future__ import annotations

import pytest

from hearts_analysis.analysis import stats
from hearts_analysis.analysis.stats import tally_items
from hearts_analysis.executor import Task, open_executor, ordered
from hearts_analysis import cluster as dask_cluster
from hearts_analysis.cluster import ClusterError
from hearts_analysis.records.errors import Item
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def _slow_square(n: int) -> int:
    import time
    time.sleep(0.001 * (n % 3))   # later tasks may finish first
    return n * n


def _cluster_executor():
    distributed = pytest.importorskip("distributed")
    from hearts_analysis.cluster import ClientExecutor
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    return ClientExecutor(client), (client, cluster)


@pytest.mark.parametrize("where", ["here", "processes", "dask"])
def test_results_come_in_input_order_wherever_they_run(where):
    tasks = [Task(_slow_square, (n,)) for n in range(20)] + [Task(sum, ([1, 2],), here=True), Task(_slow_square, (7,))]
    want = [n * n for n in range(20)] + [3, 49]
    if where == "dask":
        executor, owned = _cluster_executor()
        try:
            assert list(ordered(tasks, executor, ahead=3)) == want
        finally:
            for thing in owned:
                thing.close()
        return
    with open_executor(2 if where == "processes" else 1) as executor:
        seen = []
        assert list(ordered(tasks, executor, ahead=3, progress=seen.append)) == want
        assert seen == want


def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 2.0)  # a closed port is refused at once: no need to retry 10 s
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with open_executor(scheduler="tcp://127.0.0.1:9"):
            pass


@pytest.mark.parametrize("workers", [1, 2])
def test_statistics_read_a_stream_of_games_only_a_bounded_distance_ahead(monkeypatch, workers):
    """With several processes the batches were handed to a pool that read the whole stream at once."""
    monkeypatch.setattr(stats, "BATCH_GAMES", 2)
    games = list(simulate_games(4, Rules.preset("standard", target=30), seed=8))
    taken, behind = [], []

    def stream():
        for n in range(120):
            taken.append(n)
            yield Item(f"g{n}", games[n % len(games)])

    counted = [0]

    def progress(games_done, hands):
        counted[0] += games_done
        behind.append(len(taken) - counted[0])

    tally = tally_items(stream(), progress, workers)
    assert tally.games == 120 and len(taken) == 120
    bound = (workers + 2 * workers + 2) * stats.BATCH_GAMES   # the batches sized up, those in flight, one read
    assert max(behind) <= bound
    assert tally.player_rows() == tally_items(Item(f"g{n}", games[n % len(games)]) for n in range(120)).player_rows()


def test_statistics_on_a_dask_cluster_equal_those_of_one_process(tmp_path, monkeypatch):
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 2.0)  # a closed port is refused at once: no need to retry 10 s
    distributed = pytest.importorskip("distributed")
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    from hearts_analysis.records.parquet import write_parquet
    write_parquet(list(simulate_games(6, Rules.preset("standard", target=30), seed=9)), tmp_path / "c",
                  partition_size=2)
    runner = CliRunner()
    here = runner.invoke(app, ["stats", str(tmp_path / "c"), "-f", "json", "--workers", "1"])
    two = runner.invoke(app, ["stats", str(tmp_path / "c"), "-f", "json", "--workers", "2"])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        dask = runner.invoke(app, ["stats", str(tmp_path / "c"), "-f", "json", "--scheduler", cluster.scheduler_address])
    assert here.exit_code == 0, here.output
    assert here.stdout == two.stdout == dask.stdout
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
                                  dashboard_address=None) as cluster:
        table = ["analyze", str(tmp_path / "c"), "-f", "csv", "-t", "pass_summary"]
        analysed = runner.invoke(app, [*table, "--scheduler", cluster.scheduler_address])
    assert analysed.exit_code == 0, analysed.output
    assert analysed.stdout == runner.invoke(app, table).stdout
    wrong = runner.invoke(app, ["analyze", str(tmp_path / "c"), "--scheduler", "tcp://127.0.0.1:9"])
    assert wrong.exit_code == 2 and "--scheduler counts the corpus tables" in wrong.output
    gone = runner.invoke(app, ["stats", str(tmp_path / "c"), "--scheduler", "tcp://127.0.0.1:9"])
    assert gone.exit_code == 2 and "cannot reach the Dask scheduler" in gone.output and "Traceback" not in gone.output


def test_a_review_on_an_unreachable_scheduler_is_a_usage_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(dask_cluster, "CONNECT_SECONDS", 2.0)  # a closed port is refused at once: no need to retry 10 s
    from typer.testing import CliRunner

    from hearts_analysis.cli import app
    from hearts_analysis.records.json import write_games
    write_games(list(simulate_games(1, Rules.preset("standard", target=30), seed=2)), tmp_path / "g.json")
    gone = CliRunner().invoke(app, ["review", str(tmp_path / "g.json"), "--no-cache", "--scheduler", "tcp://127.0.0.1:9"])
    assert gone.exit_code == 2 and "cannot reach the Dask scheduler" in gone.output and "Traceback" not in gone.output
