"""The hidden work files and folders beside an output, and what a killed run left of them.

An output is written as ``.NAME.XXXX.tmp`` beside ``NAME`` (an append stages ``.NAME.XXXX.append``)
and renamed over it when complete. A run killed meanwhile (``kill -9``, a power cut) cannot remove
its work, so each one is held, while in use, by an exclusive ``flock`` on it, which the system drops
when its process dies, however it dies. A later run writing ``NAME`` removes every work entry of
``NAME`` that nobody holds (:func:`clean_leftovers`), and one that is in use is left alone.

A folder replaces another in one step where the system can swap two paths (Linux's
``renameat2(RENAME_EXCHANGE)``): a crash leaves the old folder or the new one, never neither.
Elsewhere the old folder is first renamed to ``.NAME.XXXX.old``, and a later run that finds ``NAME``
missing puts it back (:func:`clean_leftovers`).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> target = folder / "corpus.parquet"
>>> _ = (folder / ".corpus.parquet.k1ll3d9x.tmp").write_bytes(b"half a file")   # nobody holds it
>>> with work_file(target) as (fd, path):
...     [p.name for p in clean_leftovers(target)]         # the run's own work file is in use: kept
...     sorted(p.name for p in folder.iterdir()) == [path.name]
['.corpus.parquet.k1ll3d9x.tmp']
True
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

try:
    import fcntl
except ImportError:  # not a POSIX system: no locks, so nothing is ever taken for a leftover
    fcntl = None  # type: ignore[assignment]

WORK_SUFFIXES = (".tmp", ".append", ".old")
"""The work entries beside an output: its new content, an append's staged parts, an old folder being replaced."""


def _work_pattern(target: Path) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]+({'|'.join(map(re.escape, WORK_SUFFIXES))})$")


def hold(fd: int, wait: bool = True) -> bool:
    """Take the exclusive lock of an open file or folder; False when another process has it (``wait=False``),
    or when the file system has no locks (then nothing is ever removed as a leftover either)."""
    if fcntl is None:
        return not wait
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError as error:
        if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            return not wait
        raise
    return True


def _same(fd: int, path: Path) -> bool:
    """``path`` still names the file or folder open as ``fd`` (a cleaner may have removed it before it was held)."""
    try:
        here, there = os.stat(path, follow_symlinks=False), os.fstat(fd)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _open_folder(path: Path) -> int:
    return os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))


@contextlib.contextmanager
def work_file(target: Path) -> Iterator[tuple[int, Path]]:
    """A new empty work file beside ``target`` (``(fd, path)``), held until the block ends; the caller renames
    or removes it."""
    while True:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        hold(fd)
        if _same(fd, Path(name)):
            break
        os.close(fd)
    try:
        yield fd, Path(name)
    finally:
        os.close(fd)


@contextlib.contextmanager
def work_folder(target: Path, suffix: str = ".tmp") -> Iterator[Path]:
    """A new empty work folder beside ``target``, with the permissions the umask gives (unlike mkdtemp), held
    until the block ends; the caller renames or removes it."""
    for _ in range(100):
        folder = target.parent / f".{target.name}.{secrets.token_hex(4)}{suffix}"
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        fd = _open_folder(folder)
        hold(fd)
        if _same(fd, folder):
            break
        os.close(fd)
    else:
        raise FileExistsError(f"{target}: cannot create a work folder beside it")
    try:
        yield folder
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked_folder(folder: Path) -> Iterator[None]:
    """Hold ``folder`` (which exists) against every other run that holds it: appends to one corpus, and a
    conversion replacing it, take turns. Held by the folder itself, so no lock file is left in it; a symbolic
    link is followed."""
    folder = Path(os.path.realpath(folder))
    while True:
        fd = _open_folder(folder)
        hold(fd)
        if _same(fd, folder):   # not replaced while we waited
            break
        os.close(fd)
        if not folder.is_dir():
            raise FileNotFoundError(errno.ENOENT, "was removed while waiting for another run", str(folder))
    try:
        yield
    finally:
        os.close(fd)


def clean_leftovers(target: Path) -> list[Path]:
    """Remove the work entries of ``target`` that no live run holds; first, when ``target`` is missing and a
    killed run left the old folder it was replacing, put that back. Returns what was removed."""
    if fcntl is None:
        return []
    pattern = _work_pattern(target)
    try:
        entries = sorted(entry for entry in target.parent.iterdir() if pattern.match(entry.name))
    except OSError:
        return []
    removed = []
    for entry in entries:
        try:
            fd = os.open(entry, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if not hold(fd, wait=False) or not _same(fd, entry):
                continue   # in use by a live run (or gone)
            if entry.name.endswith(".old") and not os.path.lexists(target):
                _put_back(entry, target)
                continue
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed.append(entry)
        finally:
            os.close(fd)
    return removed


def _put_back(old: Path, target: Path) -> None:
    """A folder moved aside by a run killed before its replacement was moved in, back where it was (an
    earlier version moved it into ``old/replaced``)."""
    inner = old / "replaced"
    if inner.is_dir() and not any(p for p in old.iterdir() if p.name != "replaced"):
        os.rename(inner, target)
        old.rmdir()
    else:
        os.rename(old, target)


AT_FDCWD = -100
RENAME_EXCHANGE = 2


def _renameat2():
    try:
        return getattr(ctypes.CDLL(None, use_errno=True), "renameat2", None)
    except OSError:
        return None


_RENAMEAT2 = _renameat2()


def exchange(new: Path, target: Path) -> bool:
    """Swap two existing paths in one step (``new`` then names what ``target`` was); False where the system
    cannot (the caller then renames in two steps)."""
    if _RENAMEAT2 is None:
        return False
    if _RENAMEAT2(AT_FDCWD, os.fsencode(new), AT_FDCWD, os.fsencode(target), RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTTY):
        return False
    raise OSError(code, os.strerror(code), os.fspath(target))


def replace_folder(new: Path, target: Path) -> None:
    """Put the folder ``new`` at ``target``, replacing the folder there: a crash at any point leaves one of the
    two at ``target`` (with :func:`clean_leftovers` after a two-step rename), and the old one is removed."""
    if not os.path.lexists(target):
        os.rename(new, target)
        return
    with locked_folder(target):   # an append to the old folder finishes first
        if exchange(new, target):
            shutil.rmtree(new, ignore_errors=True)
            return
        old = _move_aside(target)
        os.rename(new, target)
        shutil.rmtree(old, ignore_errors=True)


def _move_aside(target: Path) -> Path:
    """The first of two renames where the system cannot swap: ``target`` to ``.NAME.XXXX.old``, still held by the
    caller (the lock goes with the folder); :func:`clean_leftovers` puts it back if the second never comes."""
    old = target.parent / f".{target.name}.{secrets.token_hex(4)}.old"
    os.rename(target, old)
    return old


__all__ = ["clean_leftovers", "exchange", "hold", "locked_folder", "replace_folder", "work_file", "work_folder"]
