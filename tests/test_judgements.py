"""Validation and statistics share one cache of judged game headers per rules, in each process."""

from __future__ import annotations

from hearts_analysis.analysis.corpus_tally import tally_corpus
from hearts_analysis.fastpath import decode
from hearts_analysis.fastpath.tasks import ParquetTask, plan, run_task
from hearts_analysis.records.parquet import write_parquet
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games


def test_validation_and_statistics_build_one_judgements_for_the_same_rules(tmp_path, monkeypatch):
    path = tmp_path / "corpus.parquet"
    write_parquet(list(simulate_games(3, Rules.preset("standard", target=30), seed=5)), path)
    rules = Rules.preset("standard", target=30)
    built = []
    real = decode.Judgements.__init__

    def counted(self, *args, **kwargs):
        built.append(self)
        real(self, *args, **kwargs)

    monkeypatch.setattr(decode.Judgements, "__init__", counted)
    monkeypatch.setattr(decode, "_JUDGES", {}, raising=False)   # whatever ran before in this process
    for job in plan([path]):
        assert isinstance(job, ParquetTask)
        assert run_task(job, rules)
    tally_corpus([path], rules)
    assert len(built) == 1
