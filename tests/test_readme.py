"""The README stays short and points into the guide; the guide's Python page covers every job and runs, in order,
on the games in examples/ (tests/test_docs_examples.py runs every page's examples)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def python_blocks(page: Path = ROOT / "docs" / "python.md") -> list[str]:
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)


def test_the_readme_is_at_most_250_lines():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_the_readme_says_how_long_the_tests_take_on_one_marked_line():
    lines = [line for line in README.read_text(encoding="utf-8").splitlines() if "<!-- test-time -->" in line]
    assert len(lines) == 1 and re.search(r"\d+ minutes", lines[0]), lines


def test_every_local_link_of_the_readme_and_the_guide_names_a_file_of_the_repository():
    broken = []
    for page in [README, ROOT / "benchmarks" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            path = (page.parent / target).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)} -> {target}")
    assert not broken, broken


def test_the_readme_links_a_page_of_the_guide_for_each_job_and_format():
    text = README.read_text(encoding="utf-8")
    for page in ("docs/audit.md", "docs/review.md", "docs/players.md", "docs/statistics.md", "docs/reports.md",
                 "docs/record-format.md", "docs/logs.md", "docs/notation.md", "docs/scale.md", "docs/python.md",
                 "docs/architecture.md", "benchmarks/README.md"):
        assert f"]({page})" in text, page


def test_the_python_page_has_python_for_audit_corpus_stats_analysis_and_review():
    code = "\n".join(python_blocks())
    for call in ("replay_game(", "read_corpus(", 'corpus["plays"]', "tally_paths(", "analyze_paths(",
                 "review_game("):
        assert call in code


def test_every_python_block_of_the_python_page_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for number, block in enumerate(python_blocks(), 1):
        exec(compile(block, f"docs/python.md python block {number}", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "Corpus(games=2, hands=16, errors=0; tables: games, hands, plays, passes, deals, errors)" in printed
    assert "wrong-first-lead" in printed
    corpus = namespace["corpus"]
    assert set(namespace["tables"]) == {"games", "hands", "plays", "passes", "deals", "errors"}
    assert namespace["tables"]["plays"] is corpus.plays
