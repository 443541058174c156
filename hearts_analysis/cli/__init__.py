"""The ``hearts`` command line: parse options, call the library, format, exit.

Each command lives in its own module of this package and registers itself on
:data:`app` when imported. ``ORDER`` sets the order ``--help`` lists them in;
a module not named there is still imported (and listed after them).

>>> import typer
>>> list(typer.main.get_command(app).commands)
['validate', 'score', 'convert', 'simulate', 'match', 'analyze', 'stats', 'report', 'review', 'advise', 'rules', 'explain', 'import', 'export']
"""

from __future__ import annotations

import importlib
import pkgutil

from .app import app, main

ORDER = ("validate", "score", "convert", "simulate", "match", "analyze", "stats", "report", "review", "advise",
         "rules_cmd", "explain", "interop")
_NOT_COMMANDS = {"app", "progress", "output", "colour", "review_options", "streams"}

for _name in ORDER + tuple(sorted(m.name for m in pkgutil.iter_modules(__path__))):
    if _name not in _NOT_COMMANDS and not _name.startswith("_"):
        importlib.import_module(f"{__name__}.{_name}")

__all__ = ["app", "main"]
