"""The package's import graph: no cycles, and no import back up the layers.

Every ``import`` and ``from ... import`` of the package's modules counts, at the top of a module or inside a
function, since a function's import is a dependency all the same. Layers, lowest first; a module may import
its own layer and the ones below it. The package root (``hearts_analysis/__init__.py``) names a few things
of the lower layers and loads the rest on first use, so it sits just above what it imports.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "hearts_analysis"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("text", "workfiles", "atomic", "cpus", "memory", "suggest", "callable_module", "executor", "cluster"),
    ("cards",),
    ("rules", "rules_help", "rule_arrays"),
    ("records",),
    ("violations",),
    ("engine", "kernel"),
    ("corpus_audit", "score_sheet", "rules_fit"),
    ("fastpath", "corpus"),
    ("interop",),
    ("__init__",),
    ("simulate",),
    ("analysis",),
    ("review",),
    ("match",),
    ("reports", "facade"),
    ("cli", "__main__"),
)
"""cards -> rules -> records -> engine and kernel -> analysis/review -> reports -> CLI, in full."""

RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def modules() -> dict[str, pathlib.Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name: str, path: pathlib.Path, known: dict[str, pathlib.Path]) -> set[str]:
    """The package's modules that ``name`` imports."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]).strip(".") \
                if node.level else node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                found.add(full if full in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def layer(module: str) -> int:
    parts = module.split(".")
    return RANK[parts[1] if len(parts) > 1 else "__init__"]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_top_level_module_has_a_layer():
    assert {name.split(".")[1] for name in modules() if "." in name} | {"__init__"} <= set(RANK)


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_no_import_runs_up_the_layers():
    upward = sorted(f"{a} -> {b}" for a, targets in graph().items() for b in targets if layer(b) > layer(a))
    assert upward == []


@pytest.mark.parametrize("edges, expected", [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": set()}, []),
])
def test_cycles_finds_what_it_should(edges, expected):
    assert cycles(edges) == expected
