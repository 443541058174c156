"""The ``hearts`` command line: parse options, call the library, format, exit.

Each command lives in its own module of this package and registers itself on
:data:`app` when imported; every module here except ``app`` is imported.
"""

from __future__ import annotations

import importlib
import pkgutil

from .app import app, main

_HELPERS = {"app", "progress", "output"}
for _module in pkgutil.iter_modules(__path__):
    if _module.name not in _HELPERS and not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")

__all__ = ["app", "main"]
