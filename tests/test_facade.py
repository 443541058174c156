"""The façade: one call per command, named at the package root, loaded only when used, doing what the
command does (the same library modules)."""

import gc
import json
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

import hearts_analysis as ha
from hearts_analysis.cli import app
from hearts_analysis.records import write_games

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
FACADE = ("audit", "stats", "review", "advise", "simulate")


def test_the_facade_and_read_corpus_are_named_at_the_root():
    for name in FACADE + ("read_corpus",):
        assert name in ha.__all__ and name in dir(ha), name
        assert callable(getattr(ha, name)), name
    assert set(ha.__all__) <= set(dir(ha))


def test_importing_the_package_loads_no_array_library():
    """The façade is lazy: ``import hearts_analysis`` stays light."""
    code = ("import sys, hearts_analysis; print(sorted(m for m in ('numpy', 'numba', 'pandas', 'pyarrow') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_review_and_simulate_stay_callable_once_their_packages_are_imported():
    """The packages of those names are the façade's functions too, whichever is imported first."""
    import hearts_analysis.review.batch  # noqa: F401
    import hearts_analysis.simulate.pool  # noqa: F401
    games = ha.simulate(1, "standard", seed=2, target=30)
    assert games[0].game_id == "sim-2-1" and ha.simulate.simulate_games is not None
    reviewed = ha.review(games[0], "bot3", hands=[1], settings=ha.review.Settings(samples=20))
    assert reviewed.decisions and {d.seat for d in reviewed.decisions} == {2}
    with pytest.raises(ValueError, match="'nobody' did not play"):
        ha.review(games[0], "nobody")


def test_audit_is_the_document_validate_prints():
    paths = [str(EXAMPLES / "every-violation.jsonl"), str(EXAMPLES / "omnibus.json")]
    printed = CliRunner().invoke(app, ["validate", "--format", "json", *paths])
    assert json.loads(printed.stdout) == ha.audit(paths, engine="reference") == ha.audit(paths)


def test_stats_is_what_hearts_stats_counts(tmp_path):
    path = tmp_path / "games.jsonl"
    write_games(ha.simulate(4, "standard", seed=5, target=40), path)
    printed = CliRunner().invoke(app, ["stats", "--format", "json", str(path), "--workers", "1"])
    document = orjson.dumps(ha.stats([path], workers=1).document(), option=orjson.OPT_INDENT_2 | orjson.OPT_SERIALIZE_NUMPY)
    assert printed.stdout_bytes == document + b"\n"   # bytes: the document holds NaN, never equal to itself


def test_the_stats_entry_point_tunes_the_process_for_a_long_count(tmp_path):
    """The memory tuning is the library's, not the command's: any caller of the entry point gets it."""
    from hearts_analysis.analysis.count import count_corpus
    path = tmp_path / "games.jsonl"
    write_games(ha.simulate(1, "standard", seed=1, target=30), path)
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        assert count_corpus([path], workers=1).games == 1
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
    assert "gc" not in (ROOT / "hearts_analysis" / "cli" / "stats.py").read_text().split()
