"""The ``hearts`` command line: parse options, call the library, format, exit.

Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

from .app import app, main
from . import validate, score  # noqa: F401  (commands register on import)

__all__ = ["app", "main"]
