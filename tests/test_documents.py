"""The library owns every document: the audit and the score sheet a Python user gets are what the CLI prints."""

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hearts_analysis.score_sheet import SCORE_CSV_COLUMNS, score_rows, score_sheets
from hearts_analysis.cli import app
from hearts_analysis.fastpath.audit_api import CorpusAudit, EngineMisuse, audit_document
from hearts_analysis.records.parquet import write_parquet
from hearts_analysis.records.sources import iter_sources

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
runner = CliRunner()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Every example, as JSON files, JSON Lines and Parquet, with one unreadable record."""
    folder = tmp_path_factory.mktemp("corpus")
    games = [item.game for item in iter_sources([EXAMPLES]) if item.game is not None]
    write_parquet(games, folder / "games.parquet")
    (folder / "broken.jsonl").write_text('{"format": "hearts-game/1", "players": 3}\n', encoding="utf-8")
    return [str(EXAMPLES / "every-violation.jsonl"), str(EXAMPLES / "omnibus.json"),
            str(folder / "games.parquet"), str(folder / "broken.jsonl")]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_the_audit_document_is_what_validate_prints(corpus, engine):
    done = runner.invoke(app, ["validate", *corpus, "--format", "json", "--engine", engine])
    assert done.exit_code == 2, done.output
    document = audit_document(corpus, engine=engine)
    assert json.loads(done.stdout) == document
    summary = document["summary"]
    assert summary["games"] == len(document["games"]) and summary["errors"] == len(document["errors"]) == 1
    assert summary["violations"] == sum(len(game["violations"]) for game in document["games"]) > 0
    assert "broken.jsonl:1" in document["errors"][0]["source"]


def test_a_corpus_audit_counts_its_summary_as_the_entries_pass(corpus):
    audit = CorpusAudit(corpus)
    entries = iter(audit)
    next(entries)
    partial = audit.summary.games + audit.summary.errors
    rest = sum(1 for _ in entries)
    assert 0 < partial < audit.summary.games + audit.summary.errors and rest > 0
    assert audit.summary.exit_code == 2


def test_engine_options_that_do_not_go_together_are_refused():
    with pytest.raises(EngineMisuse, match="--scheduler goes with --engine dask"):
        CorpusAudit(["x.parquet"], scheduler="tcp://localhost:8786")
    with pytest.raises(EngineMisuse, match="unknown engine"):
        CorpusAudit(["x.parquet"], engine="quantum")


def test_the_score_sheets_are_what_score_prints(corpus):
    done = runner.invoke(app, ["score", *corpus, "--format", "json"])
    assert done.exit_code == 2
    printed = json.loads(done.stdout)
    sheets = [sheet for _, sheet in score_sheets(corpus)]
    assert printed["games"] == [sheet for sheet in sheets if sheet is not None]
    assert len(printed["errors"]) == sheets.count(None) == 1
    as_csv = runner.invoke(app, ["score", *corpus, "--format", "csv"]).stdout
    rows = list(csv.reader(io.StringIO(as_csv)))
    assert tuple(rows[0]) == SCORE_CSV_COLUMNS
    assert len(rows) - 1 == sum(len(list(score_rows(sheet))) for sheet in printed["games"])
