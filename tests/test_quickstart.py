"""The quick start stays light: the first command installs and loads no test, browser or cluster tool."""

import ast
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST = "pip install . && hearts "
"""How the quick start's first line begins; the rest are the arguments of ``hearts`` this test runs."""
HEAVY = {"playwright", "pytest", "hypothesis", "dask", "distributed", "duckdb", "jsonschema"}


def names(requirements: list[str]) -> set[str]:
    return {requirement.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0].strip().lower()
            for requirement in requirements}


def test_pip_install_dot_pulls_no_test_browser_or_cluster_package():
    assert not names(PROJECT["dependencies"]) & HEAVY


def test_the_test_extra_holds_playwright_only_while_a_test_drives_the_browser_with_it():
    imported = set()
    for path in (ROOT / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("playwright"):
                imported.add(path.name)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                imported.update(path.name for m in modules if m.split(".")[0] == "playwright")
    assert ("playwright" in names(PROJECT["optional-dependencies"]["test"])) == bool(imported)


def quick_start_arguments(output: Path) -> list[str]:
    """The README's first quick-start command, its output moved to ``output``."""
    line = next(line for line in README.splitlines() if line.startswith(FIRST))
    words = shlex.split(line[len(FIRST):])
    return [str(output) if k and words[k - 1] in ("-o", "--output") else word for k, word in enumerate(words)]


def test_the_quick_start_passes_no_option_that_does_nothing_for_a_site(tmp_path):
    words = quick_start_arguments(tmp_path)
    assert words[:2] == ["report", "examples/"] and "--js-beside" not in words   # a site holds plotly once anyway


def test_the_first_command_loads_no_test_browser_cluster_or_table_library(tmp_path):
    code = f"""
import sys
from hearts_analysis.cli import app
try:
    app({quick_start_arguments(tmp_path / 'reports')!r})
except SystemExit as done:
    assert not done.code, done.code
print(sorted({{m.split(".")[0] for m in sys.modules}}))
"""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = set(eval(done.stdout.strip().splitlines()[-1]))
    assert (tmp_path / "reports" / "audit.html").exists()
    assert not loaded & (HEAVY | {"pandas", "pyarrow"})
