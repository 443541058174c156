"""Which files hold games: the suffixes of each format, and the paths no reader may open.

Shared by the codecs (a Parquet corpus refuses a FIFO as the dispatcher does) and the
dispatcher, :mod:`.sources`.

>>> from pathlib import Path
>>> input_problem(Path("no/such/file.jsonl"))
'no such file or folder'
>>> ".ndjson" in JSON_SUFFIXES, ".pq" in PARQUET_SUFFIXES
(True, True)
"""

from __future__ import annotations

import stat
from pathlib import Path

JSONL_SUFFIXES = (".jsonl", ".ndjson")
"""One game per line."""
JSON_SUFFIXES = (".json",) + JSONL_SUFFIXES
PARQUET_SUFFIXES = (".parquet", ".pq")

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def input_problem(path: Path) -> str | None:
    """Why ``path`` cannot be read as games, or None for a regular file or a folder.

    Only those are read: a FIFO would wait forever for a writer and a device such as
    ``/dev/zero`` never ends; ``-`` is how to read standard input.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file or folder"
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return f"{kind}, not a file or folder; only files and folders are read (- reads standard input)"
