"""The project speaks only of itself: no citation of a file that is not in the repository."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PLACES = ["hearts_analysis", "tests", "docs", "examples", "schemas", "benchmarks", "README.md", "pyproject.toml"]
OUTSIDE = re.compile(r"seeds/\d|seeds/ |\bRULES\.md|\bSTYLE\.md|\bissue #?\d|\bissues?\.txt|\.\./shared|/work/"
                     r"|open_spiel/games|hearts_test\.cc")


def text_files():
    for place in PLACES:
        path = ROOT / place
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file()) if path.exists() else []
        for file in files:
            if "__pycache__" in file.parts or file.suffix in (".parquet", ".png", ".pyc"):
                continue
            yield file


@pytest.mark.parametrize("path", list(text_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_citation_of_a_file_outside_the_repository(path):
    text = path.read_text(encoding="utf-8", errors="replace")
    found = [match.group(0) for match in OUTSIDE.finditer(text)] if path.name != "test_citations.py" else []
    assert not found, f"{path.relative_to(ROOT)} cites {found}: name the source by its title"


def test_the_pattern_catches_the_old_citations():
    for cited in ("(seeds/000)", "RULES.md", "issue 2", "issue #12", "../shared/x", "open_spiel/games/hearts/hearts.cc"):
        assert OUTSIDE.search(cited), cited
