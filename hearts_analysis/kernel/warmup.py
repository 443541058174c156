"""Whether the compiled kernel waits on disk, and the one lock its compiles take.

numba compiles a function at its first call and keeps the machine code in its disk cache
(``__pycache__`` beside the module, or under ``NUMBA_CACHE_DIR``). A fresh install has none, so
its first review or advice compiles the kernel first (about two minutes on an idle 2-core machine, once). Two things help:

- the first ``hearts`` command of any kind starts a background process that compiles the kernel
  while the user does something else (:mod:`hearts_analysis.review.warmup`), at most once: a marker
  (:func:`marker`) records that it ran for these sources, and a lock (:func:`lock`) lets only one
  compile run at a time;
- a command about to compile says so (:func:`cold`), and a command that finds the background
  compile running waits for it instead of compiling the same code beside it.

``HEARTS_NO_WARMUP=1`` turns the background compile off. This module imports only the standard
library until :func:`cold` is asked, so the check costs a command nothing:

>>> sorted(SOURCES)[:2]
['kernel/compiled.py', 'kernel/heuristic.py']
>>> len(marker().name) > 20
True
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
from pathlib import Path

NO_WARMUP = "HEARTS_NO_WARMUP"
"""The environment variable that, set to anything but empty or ``0``, turns the background compile off."""

SOURCES = ("kernel/compiled.py", "kernel/heuristic.py", "review/line.py")
"""The package's files that define cached compiled functions (a test holds this to the sources)."""

PACKAGE = Path(__file__).resolve().parent.parent


def disabled() -> bool:
    return os.environ.get(NO_WARMUP, "") not in ("", "0")


def _folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "hearts-analysis"


def _key() -> str:
    """What numba's cache is keyed by, as far as a stat sees it: the sources' paths, sizes and times,
    the interpreter and the cache folder."""
    digest = hashlib.sha256()
    for part in (str(PACKAGE), sys.executable, sys.version, os.environ.get("NUMBA_CACHE_DIR", "")):
        digest.update(part.encode() + b"\0")
    for name in SOURCES:
        try:
            stat = (PACKAGE / name).stat()
        except OSError:
            continue
        digest.update(f"{name}:{stat.st_size}:{stat.st_mtime_ns}\0".encode())
    return digest.hexdigest()[:24]


def marker() -> Path:
    """The file whose presence says the background compile ran for these sources and this interpreter."""
    return _folder() / f"kernel-warm-{_key()}"


def lock(wait: bool) -> int | None:
    """Take the compile lock and hold it until the process ends: its file descriptor, or None when
    ``wait`` is False and another process holds it (or the lock file cannot be made)."""
    folder = _folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(folder / f"kernel-compile-{_key()}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        return None
    return handle


def cold(dispatchers) -> list[str]:
    """The names of ``dispatchers`` (numba functions with ``cache=True``) that numba's disk cache holds
    no code for, under their sources as they are now: each will compile at its first call."""
    missing = []
    for dispatcher in dispatchers:
        try:
            index = dispatcher._cache._cache_file._load_index
        except AttributeError:   # another numba: no notice rather than a wrong one at every command
            continue
        try:
            held = index()
        except Exception:   # an unreadable index: numba compiles again, so it is cold
            held = {}
        if not held:
            missing.append(dispatcher.py_func.__name__)
    return missing


def start(module: str) -> bool:
    """Start ``python -m module`` (the background compile) in a session of its own, unless it ran for
    these sources or is turned off (``HEARTS_NO_WARMUP``): whether it was started. When it ran, this
    costs a command the stat of a few files."""
    if disabled() or marker().exists():
        return False
    try:
        subprocess.Popen([sys.executable, "-m", module], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True)
    except OSError:
        return False
    return True
