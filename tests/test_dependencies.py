"""The package imports only the standard library and the dependencies it declares.

A module that another package happens to bring along (click comes with dask, not with every
typer) works in the test environment and breaks a plain ``pip install .``.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "hearts_analysis"
IMPORT_NAMES = {"dask": "dask", "distributed": "distributed"}
"""Distributions whose import name is not simply their name (none of ours yet) or that are optional extras."""


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = list(project["dependencies"]) + list(project["optional-dependencies"]["dask"])
    return {name.split(">")[0].split("=")[0].split("[")[0].split("<")[0].strip().lower().replace("-", "_")
            for name in names}


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_every_import_is_the_standard_library_the_package_or_a_declared_dependency():
    allowed = set(sys.stdlib_module_names) | {"hearts_analysis"} | _declared()
    strays = {f"{path.relative_to(ROOT)}: {name}" for path in PACKAGE.rglob("*.py")
              for name in _imported(path) - allowed}
    assert not strays, sorted(strays)
