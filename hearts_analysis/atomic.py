"""Where an output goes, safely: a regular file is written beside the target and renamed over it,
so a failure leaves nothing half-written; a FIFO or a character device (``/dev/null``, a terminal)
is written through, since renaming over it would replace the device itself; ``-`` is standard
output. A symbolic link is followed to the file it names (the link stays); one that leads nowhere,
a folder where a file is wanted, or an output that is also an input, is refused before anything
is written, with a message naming the path the user gave (never a temporary file's name).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with atomic_open(folder / "a.txt") as out:
...     _ = out.write("hello")
>>> check_output(folder / "a.txt", [folder / "a.txt"])
Traceback (most recent call last):
...
hearts_analysis.atomic.OutputError: ...a.txt: is also an input (...a.txt); choose another output
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import sys
from pathlib import Path
from typing import IO, Callable, Iterable, Iterator

from .text import terminal_safe
from .workfiles import clean_leftovers, replace_folder, work_file, work_folder

STDOUT = "-"
"""The output name for standard output (and the input name for standard input)."""

WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.EPIPE}
"""Errors of writing that name no file: told of the output being written."""


class OutputError(OSError):
    """An output that cannot or must not be written; ``str()`` names the user's path and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str):
        super().__init__(reason)
        self.strerror = reason
        self.filename = os.fspath(path)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


class FolderInUse(OutputError, FileExistsError):
    """A folder output that holds files no earlier run of that output wrote: it is not replaced."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _what(mode: int) -> str:
    for test, name in ((stat.S_ISSOCK, "socket"), (stat.S_ISBLK, "block device"), (stat.S_ISDIR, "folder")):
        if test(mode):
            return name
    return "special file"


_ARROW_ERRNO = re.compile(r"\[errno (\d+)\]")
"""How Arrow's errors quote the system's error number (``... Detail: [errno 28] No space left on device``)."""


def _errno(error: OSError) -> int | None:
    """The system's error number, also from the text of an error that carries none (Arrow's)."""
    if error.errno is not None:
        return error.errno
    match = _ARROW_ERRNO.search(str(error))
    return int(match.group(1)) if match else None


def _reason(error: OSError) -> str:
    """An operating-system error in words, without its number or any file name."""
    if _ARROW_ERRNO.search(error.strerror or str(error)) and (number := _errno(error)) is not None:
        return os.strerror(number)   # Arrow's wording around the system's
    return (error.strerror or str(error)).rstrip(".")


def _blocked_folder(folder: Path) -> str | None:
    """Why ``folder`` cannot hold a new file (the nearest existing ancestor is not a folder), or None."""
    for ancestor in (folder, *folder.parents):
        if os.path.lexists(ancestor):
            if os.path.isdir(ancestor):
                return None
            return f"cannot be created: {ancestor} is not a folder"
    return None


def _resolve(target: Path, name: str) -> tuple[str, Path]:
    """How to write ``target`` (``name``: as the user gave it): ``("new" | "file", path to replace)`` or
    ``("stream", target)``."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        if os.path.islink(target):
            raise OutputError(name, _dangling(target)) from None
        return "new", target
    except OSError as error:
        raise OutputError(name, _blocked_folder(target.parent) or f"cannot be written: {_reason(error)}") \
            from None
    if stat.S_ISREG(mode):
        return "file", Path(os.path.realpath(target))
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        return "stream", target
    if stat.S_ISDIR(mode):
        raise OutputError(name, "is a folder; give a file name")
    raise OutputError(name, f"is a {_what(mode)}, not a file; give a file name")


def _dangling(link: Path) -> str:
    return f"is a symbolic link to {os.readlink(link)}, which does not exist; remove the link or give another path"


def check_output(output: str | os.PathLike[str] | None, inputs: Iterable[str | os.PathLike[str]] = (), *,
                 folder: bool | None = False, stdout: bool = True) -> None:
    """Refuse, before any work, an output that would destroy an input or cannot be written.

    ``output`` is refused when it is one of ``inputs`` (the same file or folder by device and inode, so
    through symbolic links, hard links and relative paths alike), when it is a folder and a file is
    wanted (``folder=False``) or the other way round (``folder=True``; ``None``: either), when it is
    a link to nothing or a socket, or when a file stands where its folder should be. ``-`` is
    standard output where ``stdout`` allows it. Raises :class:`OutputError`.
    """
    if output is None:
        return
    name = os.fspath(output)
    if name == STDOUT:
        if not stdout:
            raise OutputError(STDOUT, "this output is written as files, not to standard output; give a name")
        return
    target = Path(output)
    for source in inputs:
        if os.fspath(source) == STDOUT:
            continue
        for companion in _companions(Path(source)):
            if _same_file(companion, target):
                raise OutputError(name, f"is read with the input {os.fspath(source)} (the file beside it that "
                                        "completes its games); choose another output")
        if os.path.isdir(source) and _companions(target) and _inside(target, Path(source)):
            raise OutputError(name, f"completes the games of a file beside it in the input folder "
                                    f"{os.fspath(source)}, so it is also an input; choose an output outside it")
        try:
            same = os.path.samefile(source, target)
        except OSError:  # one of them does not exist (yet)
            continue
        if same:
            raise OutputError(name, f"is also an input ({os.fspath(source)}); choose another output")
        if _inside(Path(source), target):
            raise OutputError(name, f"is a folder holding the input {os.fspath(source)}, which writing it would "
                                    "replace; choose an output outside it")
        if _read_from_folder(Path(source), target):
            raise OutputError(name, f"is a game file inside the input folder {os.fspath(source)}, so it is also "
                                    "an input; choose an output outside it")
    if folder is not False and not os.path.lexists(target):
        problem = _blocked_folder(target)
        if problem:
            raise OutputError(name, problem)
        return
    if folder is not False and os.path.isdir(target):
        return
    if folder is True:
        raise OutputError(name, "is a file; give a folder for these outputs" if os.path.exists(target)
                          else _dangling(target))
    kind, _ = _resolve(target, name)
    if kind == "new":
        problem = _blocked_folder(target.parent)
        if problem:
            raise OutputError(name, problem)


_COMPANION_FINDERS: list[Callable[[Path], Iterable[Path]]] = []


def register_companions(find: Callable[[Path], Iterable[Path]]) -> None:
    """Let a format say which files a reader of ``path`` also reads beside it (a log whose scores are in
    another file); an output that is one of those is refused as an input."""
    if find not in _COMPANION_FINDERS:
        _COMPANION_FINDERS.append(find)


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def _companions(path: Path) -> list[Path]:
    """The existing files read with ``path`` (:func:`register_companions`)."""
    return [companion for find in _COMPANION_FINDERS for companion in find(path) if os.path.lexists(companion)]


FOLDER_GAME_SUFFIXES = (".json", ".jsonl", ".ndjson", ".parquet", ".pq")
"""Files a folder given as input is always read for (``records.sources`` reads these, and logs it
recognises by their content)."""


def _inside(source: Path, folder: Path) -> bool:
    """``source`` lies inside the existing folder ``folder`` (by the real paths, so through links too)."""
    if not folder.is_dir():
        return False
    try:
        Path(os.path.realpath(source)).relative_to(os.path.realpath(folder))
    except ValueError:
        return False
    return True


def _read_from_folder(folder: Path, target: Path) -> bool:
    """``target`` is an existing game file that reading ``folder`` would read."""
    if not folder.is_dir() or not target.is_file() or target.suffix.lower() not in FOLDER_GAME_SUFFIXES:
        return False
    try:
        inside = target.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return not any(part.startswith(".") for part in inside.parts)


@contextlib.contextmanager
def atomic_path(target: str | os.PathLike[str], mode: int | None = None) -> Iterator[Path]:
    """A path to write that becomes ``target`` only on success.

    For a regular or new file, a temporary file beside it (``mode``: its permissions, by default those
    the umask gives); for a FIFO or character device, the target itself. Failures raise
    :class:`OutputError` naming ``target``.
    """
    name = os.fspath(target)
    if name == STDOUT:
        raise OutputError(STDOUT, "this output needs a file; give a file name")
    kind, where = _resolve(Path(target), name)
    if kind == "stream":
        try:
            yield where
        except OSError as error:
            raise _named(error, name, where) from None
        return
    with contextlib.ExitStack() as stack:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            clean_leftovers(where)   # what a killed run left beside it
            fd, tmp_path = stack.enter_context(work_file(where))
        except OSError as error:
            raise OutputError(name, _blocked_folder(where.parent) or f"cannot be written: {_reason(error)}") \
                from None
        os.fchmod(fd, (0o666 & ~_umask()) if mode is None else mode)  # mkstemp makes it private
        try:
            yield tmp_path
            os.replace(tmp_path, where)
        except BaseException as error:
            with contextlib.suppress(FileNotFoundError):
                tmp_path.unlink()
            if isinstance(error, OSError):
                raise _named(error, name, tmp_path, where) from None
            raise


@contextlib.contextmanager
def atomic_folder(target: str | os.PathLike[str], replaceable: Callable[[Path], bool] = lambda entry: False,
                  kind: str = "output") -> Iterator[Path]:
    """A new folder to write that replaces ``target`` in one step when the block succeeds (a crash leaves the
    old folder or the new one: :mod:`.workfiles`); on failure ``target`` stays as it was.

    An existing folder is replaced only when every entry in it is ``replaceable`` (what an earlier run of the
    same output wrote), never one holding other files, nor the current folder. A symbolic link is followed.
    The work folder is made before the block runs, so an output that cannot be written fails before any
    work. Failures raise :class:`OutputError` naming ``target``.
    """
    name = os.fspath(target)
    where = Path(os.path.realpath(target)) if os.path.islink(target) else Path(target)
    if where.exists():
        if not where.is_dir():
            raise OutputError(name, "exists and is not a folder")
        if _inside(Path.cwd(), where):
            raise FolderInUse(name, "holds the current folder; give a new folder for this output")
        others = sorted(entry.name for entry in where.iterdir() if not replaceable(entry))
        if others:
            raise FolderInUse(name, f"the folder holds other files ({', '.join(terminal_safe(o) for o in others[:3])}"
                                    f"{', ...' if len(others) > 3 else ''}) than a {kind}; choose a new folder")
    with contextlib.ExitStack() as stack:
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
            clean_leftovers(where)   # what a killed run left beside it (an old folder put back first)
            work = stack.enter_context(work_folder(where))
        except OSError as error:
            raise OutputError(name, _blocked_folder(where.parent) or f"cannot be written: {_reason(error)}") \
                from None
        try:
            yield work
            replace_folder(work, where)
        except BaseException as error:
            shutil.rmtree(work, ignore_errors=True)
            if isinstance(error, OSError):
                raise _named(error, name, work, where) from None
            raise


def named_error(error: OSError, target: str | os.PathLike[str], *ours: Path) -> OSError:
    """An error about one of our work files or folders (or a file inside one), or about writing, told of the
    user's ``target``; others unchanged."""
    return _named(error, os.fspath(target), *ours)


def _ours(filename, names: set[str]) -> bool:
    name = os.fspath(filename)
    return name in names or any(name.startswith(folder + os.sep) for folder in names)


def _named(error: OSError, target: str, *ours: Path) -> OSError:
    """An error about one of our files, or about writing, told of the user's ``target``; others unchanged."""
    if isinstance(error, OutputError):
        return error
    names = {os.fspath(p) for p in ours}
    if (_ours(error.filename, names) if error.filename is not None else _errno(error) in WRITE_ERRORS):
        return OutputError(target, f"cannot be written: {_reason(error)}")
    text = str(error)
    if error.filename is None and any(name in text for name in names):  # e.g. Arrow's, with the path inside
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(name, target)
        return OutputError(target, f"cannot be written: {text}")
    return error


@contextlib.contextmanager
def atomic_open(target: str | os.PathLike[str], mode: str = "w", **kwargs) -> Iterator[IO]:
    """Open ``target`` for writing (``-``: standard output); a file appears, complete, only when the
    block succeeds."""
    if os.fspath(target) == STDOUT:
        stream = sys.stdout.buffer if "b" in mode else sys.stdout
        yield stream
        stream.flush()
        return
    if "b" not in mode:
        kwargs.setdefault("encoding", "utf-8")
    with atomic_path(target) as path, open(path, mode, **kwargs) as handle:
        yield handle
        handle.flush()
        if stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            os.fsync(handle.fileno())
