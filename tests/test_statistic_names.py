"""One name a statistic: each column is declared once in the catalogue, with the words a report shows (label),
its tooltip (definition) and its docs entry; the site shows words, never a column name."""

import html
import re
from html.parser import HTMLParser
from pathlib import Path

from typer.testing import CliRunner

from hearts_analysis.analysis import catalogue
from hearts_analysis.cli import app
from hearts_analysis.records.json import write_games
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_games
from incli import hearts  # in this interpreter: these tests are about what the commands print

ROOT = Path(__file__).resolve().parent.parent
SHOWN_TABLES = ("players", "pass_summary")
"""The tables whose columns the site shows."""


def test_every_shown_statistic_has_a_label_a_tooltip_and_a_docs_entry():
    docs = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    assert docs == catalogue.render_markdown()
    for table in SHOWN_TABLES:
        labels = {}
        for name in catalogue.columns(table):
            entry = catalogue.stat(table, name)
            assert entry.label and entry.definition, (table, name)
            assert "_" not in entry.label, (table, name, entry.label)
            assert f"| `{name}` | {entry.label} | {entry.definition} |" in docs, (table, name)
            labels.setdefault(entry.label, name)
            assert labels[entry.label] == name, f"{table}: {name} and {labels[entry.label]} share a label"


def test_the_two_moon_stop_counts_have_names_that_say_what_they_count():
    names = catalogue.columns("players")
    assert "moon_attempts_stopped" in names and "others_moons_stopped" in names
    assert "moons_stopped" not in names and "moon_stops" not in names


def test_an_unknown_column_gets_the_nearest_name():
    runner = CliRunner()
    example = str(ROOT / "examples" / "clean-4p-standard.json")
    result = runner.invoke(app, ["stats", example, "--columns", "player,gams"])
    assert result.exit_code == 2 and 'did you mean "games"' in result.output
    result = runner.invoke(app, ["stats", example, "--columns", "player,moon_stops"])
    assert result.exit_code == 2 and "renamed others_moons_stopped" in result.output


class _Text(HTMLParser):
    """The text a reader sees: no markup, scripts or styles."""

    def __init__(self):
        super().__init__()
        self.parts, self.hidden = [], 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def test_no_page_shows_a_column_name(tmp_path):
    games = list(simulate_games(12, Rules.preset("standard", target=40), seed=11))
    write_games(games, tmp_path / "corpus.jsonl")
    done = hearts("report", tmp_path / "corpus.jsonl", "-o", tmp_path / "site")
    assert done.returncode == 0, done.stderr
    raw = {name for table in SHOWN_TABLES for name in catalogue.columns(table) if "_" in name}
    pages = sorted((tmp_path / "site").rglob("*.html"))
    assert any(page.name.startswith("player") for page in pages) or len(pages) > 3
    for page in pages:
        parser = _Text()
        parser.feed(page.read_text(encoding="utf-8"))
        words = set(re.findall(r"[a-z0-9]+(?:_[a-z0-9]+)+", html.unescape(" ".join(parser.parts))))
        assert not words & raw, (page.name, sorted(words & raw))
