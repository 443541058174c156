"""The judge run without the compiled kernel, while it compiles: the same code, in a child process
whose numba is off.

numba compiles the kernel at its first call, about two minutes after a fresh install. An advice
asked meanwhile need not wait for it: with numba's JIT off (``NUMBA_DISABLE_JIT=1``, set before the
kernel is imported) every kernel function runs as the Python it is written in, so the advice is the
same, only slower: seconds for a play, under a minute for a pass. A process cannot turn numba off
once the kernel is imported, so :func:`call` runs the judgement in a child process and hands back
its result, or its error (docs/first-run.md).

>>> from hearts_analysis.review.board import advise_entry
>>> from hearts_analysis.review.settings import Settings
>>> hand = "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S"
>>> slow = call("advise_entry", hand, "A:2C B:9C", "C", settings=Settings(samples=20))
>>> slow.to_dict() == advise_entry(hand, "A:2C B:9C", "C", settings=Settings(samples=20)).to_dict()
True
>>> quick = Settings(samples=20, pass_screen_samples=32, pass_finalists=3)
>>> slow = call("advise_entry", hand, "", "C", direction="left", settings=quick)
>>> slow.to_dict() == advise_entry(hand, "", "C", direction="left", settings=quick).to_dict()
True
>>> call("advise_entry", hand, "A:2C", "C")
Traceback (most recent call last):
    ...
hearts_analysis.review.board.PositionError: seat 2 is not to play after 1 plays
"""

from __future__ import annotations

import importlib
import os
import pickle
import subprocess
import sys
from typing import Any

_OFF = "NUMBA_DISABLE_JIT"
BOARD = "hearts_analysis.review.board"
"""The module whose judgements :func:`call` runs: the advice on a position."""


def call(name: str, *args: Any, **kwargs: Any) -> Any:
    """``board.<name>(*args, **kwargs)`` run in a child process with numba off: its result, or the
    exception it raised. This process loads the board (to read the answer) while the child judges."""
    child = subprocess.Popen([sys.executable, "-m", __name__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=dict(os.environ, **{_OFF: "1"}))
    payload = pickle.dumps((name, args, kwargs))
    importlib.import_module(BOARD)
    out, err = child.communicate(payload)
    if child.returncode != 0 or not out:
        raise RuntimeError(f"the judge without the compiled kernel failed:\n{err.decode(errors='replace')}")
    failed, value = pickle.loads(out)
    if failed:
        raise value
    return value


def here(name: str, *args: Any, **kwargs: Any) -> Any:
    """``board.<name>(*args, **kwargs)`` in this process, on the compiled kernel."""
    return getattr(importlib.import_module(BOARD), name)(*args, **kwargs)


def _child() -> int:
    from numba import config
    if not config.DISABLE_JIT:
        sys.exit(f"{__name__}: run with {_OFF}=1")
    board = importlib.import_module(BOARD)   # while the parent writes the question
    name, args, kwargs = pickle.loads(sys.stdin.buffer.read())
    try:
        answer = (False, getattr(board, name)(*args, **kwargs))
    except Exception as error:   # handed back to the parent, which raises it as its own
        answer = (True, error)
    sys.stdout.buffer.write(pickle.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(_child())
