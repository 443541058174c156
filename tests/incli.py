"""Run a ``hearts`` command in the test's own interpreter, as ``python -m hearts_analysis`` would run it.

A command started as a process pays the interpreter's start and the imports (pandas, pyarrow, numba), one to
two seconds each; a test that is about what a command prints, writes or exits with, not about the process,
runs it here instead. The answer has the fields of :class:`subprocess.CompletedProcess`: ``returncode`` (the
exit status the entry point would give: 1 for an exception that escapes), ``stdout`` and ``stderr`` as text
(``stdout_bytes`` too), and an exception that escapes the command is printed to ``stderr`` as the interpreter
prints it (``Traceback (most recent call last): ...``), so a check for a traceback sees it. Standard output is
UTF-8 and not a terminal, as a pipe is.

Tests of the process itself (signals, dying workers, time and memory limits, the real entry point's exit status
and interpreter start) keep starting ``python -m hearts_analysis``. The command runs in the current folder: a
test that needs another uses ``monkeypatch.chdir``.
"""

from __future__ import annotations

import os
import traceback
from dataclasses import dataclass

from typer.testing import CliRunner

from hearts_analysis.cli import app


@dataclass
class Ran:
    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    stdout_bytes: bytes


def hearts(*args, input: str | bytes | None = None, env: dict[str, str] | None = None) -> Ran:
    """``hearts ARGS...`` in this interpreter; ``env`` adds environment variables for the command's run."""
    words = [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in args]
    result = CliRunner().invoke(app, words, input=input, env=env, catch_exceptions=True)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(*result.exc_info))
    return Ran(words, result.exit_code, result.stdout, stderr, result.stdout_bytes)

