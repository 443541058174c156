"""``hearts validate`` prints the same text and JSON, and exits alike, whatever the engine and workers."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest
from typer.testing import CliRunner

from faults import PLANTED_VIOLATIONS, clean_games, damaged, every_violation, truncated, write_parquet_file, write_with_unreadable_games
from hearts_analysis.fastpath import Audited, CleanRun, audit_entries
from hearts_analysis.records.json import write_games
from hearts_analysis.records.parquet import write_parquet

runner = CliRunner()


def validate(*args: str):
    result = runner.invoke(__import__("hearts_analysis.cli", fromlist=["app"]).app, ["validate", *map(str, args)])
    return result.exit_code, result.stdout_bytes, result.stderr_bytes if result.stderr_bytes else b""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A JSON Lines file, Parquet files with every violation and unreadable games, a damaged and a
    truncated file, and a folder of part files."""
    folder = tmp_path_factory.mktemp("corpus")
    games = every_violation()
    write_games(games[:40], folder / "games.jsonl")
    good = write_parquet_file(games, folder / "violations.parquet", row_group_hands=50)
    write_with_unreadable_games(clean_games(), folder / "unreadable.parquet", paired=True)
    truncated(good, folder / "truncated.parquet")
    damaged(good, folder / "damaged.parquet", row_group=3)
    write_parquet(games[40:120], folder / "parts", partition_size=60)
    return folder


def paths(corpus):
    return [corpus / "games.jsonl", corpus / "violations.parquet", corpus / "unreadable.parquet",
            corpus / "truncated.parquet", corpus / "damaged.parquet", corpus / "parts", corpus / "missing.parquet"]


@pytest.mark.long
@pytest.mark.parametrize("format", ["json", "text"])
def test_every_engine_prints_what_the_reference_engine_prints(corpus, format):
    expected = validate(*paths(corpus), "--format", format, "--engine", "reference")
    assert expected[0] == 2 and expected[1]
    for options in (["--engine", "fast"], [], ["--workers", "2"], ["--engine", "fast", "--workers", "2"],
                    ["--engine", "reference", "--workers", "2"]):
        assert validate(*paths(corpus), "--format", format, *options) == expected, options


def test_the_json_names_every_code_and_every_unreadable_record(corpus):
    code, out, _ = validate(*paths(corpus), "--format", "json", "--workers", "2", "--keep-duplicates")  # clean games twice
    document = orjson.loads(out)
    assert set(document["summary"]["by_code"]) == PLANTED_VIOLATIONS
    sources = [error["source"] for error in document["errors"]]
    assert any(s.endswith("truncated.parquet") for s in sources)
    assert any(s.endswith("damaged.parquet:row groups 3-4") for s in sources)
    assert any(s.endswith("missing.parquet") for s in sources)
    assert sum("unreadable.parquet:#" in s for s in sources) == 8
    files = [str(p) for p in paths(corpus)]
    order = [next(i for i, f in enumerate(files) if g["source"].startswith(f)) for g in document["games"]]
    assert order == sorted(order) and set(order) == {0, 1, 2, 4, 5}


def test_quiet_and_clean_runs_exit_zero_alike(tmp_path):
    games = clean_games()
    path = write_parquet_file(games, tmp_path / "clean.parquet")
    hands = sum(len(game.hands) for game in games)
    for engine in ("reference", "fast"):
        code, out, _ = validate(path, "--engine", engine, "--quiet")
        assert code == 0 and out.decode().strip() == f"{len(games)} games ({hands} hands) checked, no violations"


def test_forced_rules_apply_to_every_engine(tmp_path):
    path = write_parquet_file(clean_games(), tmp_path / "clean.parquet")
    expected = validate(path, "--rules", "omnibus", "--set", "target=60", "--format", "json", "--engine", "reference")
    assert validate(path, "--rules", "omnibus", "--set", "target=60", "--format", "json") == expected
    assert validate(path, "--rules", "omnibus", "--set", "target=60", "--format", "json", "--workers", "2") == expected


def test_parquet_goes_to_the_screen_and_json_to_the_reference_engine_by_default(corpus):
    entries = list(audit_entries([corpus / "games.jsonl", corpus / "violations.parquet"]))
    first_parquet = next(i for i, e in enumerate(entries)
                         if isinstance(e, CleanRun) or "violations.parquet" in e.item.source)
    assert all(isinstance(e, Audited) and "games.jsonl" in e.item.source for e in entries[:first_parquet])
    assert any(isinstance(e, CleanRun) for e in entries[first_parquet:])


def test_a_scheduler_needs_the_dask_engine(corpus):
    code, _, err = validate(corpus / "violations.parquet", "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2 and b"--scheduler goes with --engine dask" in err


def test_without_dask_the_dask_engine_says_how_to_install_it(corpus):
    script = ("import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None\n"
              "from hearts_analysis.cli import main\n"
              f"sys.argv = ['hearts', 'validate', {str(corpus / 'violations.parquet')!r}, '--engine', 'dask']\n"
              "main()")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 2
    assert "pip install 'hearts-analysis[dask]'" in result.stderr and "Traceback" not in result.stderr


def test_a_run_stopped_part_way_prints_no_half_json_document(corpus, monkeypatch):
    """Dead Dask workers stop a run after some games are done (``ClusterError``): the JSON on standard
    output is the whole document or nothing, never a prefix a pipe would take for a broken file."""
    from hearts_analysis.fastpath import audit_api
    from hearts_analysis.cluster import ClusterError
    entries = audit_api.CorpusAudit.__iter__

    def stopped(self):
        for number, entry in enumerate(entries(self)):
            if number == 1:
                raise ClusterError("every worker of the Dask scheduler is gone")
            yield entry

    monkeypatch.setattr(audit_api.CorpusAudit, "__iter__", stopped)
    code, stdout, stderr = validate("--format", "json", "--engine", "reference", corpus / "games.jsonl")
    assert code == 2 and b"every worker" in stderr, stderr
    assert stdout == b""
