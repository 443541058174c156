"""Every code example of the docs runs.

Each ```python block of README.md and docs/*.md runs, in order, page by page, from the repository's folder. Each
``hearts ...`` line of their ```sh blocks runs in a working copy of examples/: it must exit 0 (or 1 where
``validate`` or ``rules --infer`` report what they found), without a traceback. A block preceded by
``<!-- not run -->`` is left out (a command too slow for the tests, or one that needs a cluster)."""

import re
import shlex
import shutil
from pathlib import Path

import pytest
from incli import hearts

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- not run -->"
FENCE = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>[a-z]*)\n(?P<body>.*?)```", re.S)
FINDS = {"validate", "rules"}
"""Commands whose exit status 1 reports what they found (violations; games no rule set fits)."""
RUN_ELSEWHERE = {ROOT / "docs" / "python.md"}
"""Pages whose Python blocks another test runs, with checks on what they print (tests/test_readme.py)."""
FIXTURES = {"game.json": "examples/clean-4p-standard.json", "games.jsonl": "examples/every-violation.jsonl"}
"""Files the examples name by their usual names, made from the example games in each working copy."""


def blocks(page: Path, lang: str) -> list[str]:
    text = "\n" + page.read_text(encoding="utf-8")
    return [m["body"] for m in FENCE.finditer(text) if m["lang"] == lang and m["before"].strip() != NOT_RUN]


def commands(page: Path) -> list[list[str]]:
    """The ``hearts`` lines of the page's sh blocks, as argument lists (a trailing comment dropped)."""
    found = []
    for block in blocks(page, "sh"):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("hearts "):
                found.append(shlex.split(line, comments=True)[1:])
    return found


def name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_fence_reader_keeps_what_runs_and_leaves_what_is_marked(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# t\n\n```sh\nhearts stats x.jsonl  # a comment\n```\n\n" + NOT_RUN
                    + "\n```sh\nhearts review slow.json\n```\n\n```python\nprint(1)\n```\n")
    assert commands(page) == [["stats", "x.jsonl"]]
    assert blocks(page, "python") == ["print(1)\n"]


def test_the_docs_hold_examples_of_every_job():
    runnable = [words[0] for page in PAGES for words in commands(page)]
    for command in ("validate", "score", "rules", "explain", "stats", "analyze", "report", "convert", "import",
                    "export", "simulate"):
        assert command in runnable, command
    assert sum(len(blocks(page, "python")) for page in PAGES) >= 8


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python") and p not in RUN_ELSEWHERE], ids=name)
def test_every_python_block_of_the_page_runs(page, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for number, block in enumerate(blocks(page, "python"), 1):
        exec(compile(block, f"{name(page)} python block {number}", "exec"), namespace)


@pytest.mark.parametrize("page", [p for p in PAGES if commands(p)], ids=name)
def test_every_hearts_command_of_the_page_runs(page, tmp_path, monkeypatch):
    """The commands run in this interpreter (tests/incli.py): what they print and exit with is what
    ``python -m hearts_analysis`` gives, without an interpreter's start and imports for each line."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    for fixture, source in FIXTURES.items():
        shutil.copyfile(ROOT / source, tmp_path / fixture)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # for the processes a command starts (match's bots, workers)
    monkeypatch.setenv("NO_COLOR", "1")
    made = hearts("export", "text", "examples/omnibus.json", "-o", "club-night.txt")
    assert made.returncode == 0, made.stderr
    for words in commands(page):
        done = hearts(*words)
        assert done.returncode in ((0, 1) if words[0] in FINDS else (0,)), (words, done.stderr[-2000:])
        assert "Traceback" not in done.stderr, (words, done.stderr[-2000:])
