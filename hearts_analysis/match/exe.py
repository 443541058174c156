"""A bot that is a program: one JSON line a request on its stdin, one JSON line an answer on its stdout.

The request is ``{"kind": "pass"|"play", "seat": S, "view": <the seat's view record>, "legal": [cards],
"count": N}`` and the answer ``{"cards": [...]}`` (``schemas/bot-protocol-1.schema.json``). The
program is started once per worker process and serves every seat its player holds. An answer that
does not come within the timeout, or a program that exits, costs it the decision (:class:`Fault`);
the program is then started again, at most :data:`RESTARTS` times, and after that the player's
fallback plays the rest. Its stderr is discarded.

>>> bot = ExeBot("cat")  # a program that answers with the request it was sent
>>> bot.ask({"cards": ["2C"]}, timeout=10)
{'cards': ['2C']}
>>> bot.close()
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import time
from typing import Any

RESTARTS = 5
"""Times a program that crashed or answered late is started again before its fallback plays the rest."""
LONGEST_ANSWER = 1 << 20
"""Bytes an answer line may have; a longer one is garbage."""


class Fault(Exception):
    """A decision the player lost: ``kind`` is ``illegal``, ``late``, ``crash`` or ``garbled``."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def command_words(command: str) -> list[str]:
    """The program and its arguments, split as a POSIX shell would; a ValueError names what is wrong."""
    words = shlex.split(command)
    if not words:
        raise ValueError("an empty command line")
    return words


class ExeBot:
    """One program, asked one question at a time (:meth:`ask`); started on the first question."""

    def __init__(self, command: str, restarts: int = RESTARTS):
        self.argv = command_words(command)
        self.restarts = restarts
        self.replaced = False
        """The program failed too often: its fallback plays every decision left."""
        self._proc: subprocess.Popen | None = None
        self._started = False
        self._buffer = b""

    def _start(self) -> subprocess.Popen:
        if self._started:
            if self.restarts <= 0:
                self.replaced = True
                raise Fault("crash", "failed too often; the fallback plays the rest")
            self.restarts -= 1
        self._started = True
        self._buffer = b""
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, bufsize=0)
        except OSError as error:
            self._proc = None
            raise Fault("crash", f"cannot start {self.argv[0]}: {error.strerror or error}") from None
        return self._proc

    def _stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            if proc.poll() is None:
                proc.kill()
            proc.wait()

    def _died(self, proc: subprocess.Popen) -> Fault:
        try:
            code = proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        self._stop()
        return Fault("crash", "closed its output" if code is None else f"exited with status {code}")

    def ask(self, request: dict[str, Any], timeout: float) -> Any:
        """The program's answer to ``request``, parsed; a :class:`Fault` if it has none in ``timeout`` seconds."""
        proc = self._proc if self._proc is not None and self._proc.poll() is None else None
        if proc is None:
            self._stop()
            proc = self._start()
        deadline = time.monotonic() + timeout
        try:
            proc.stdin.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
        except OSError:
            raise self._died(proc) from None
        line = self._line(proc, deadline, timeout)
        try:
            return json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise Fault("garbled", f"not JSON: {line[:60]!r}") from None

    def _line(self, proc: subprocess.Popen, deadline: float, timeout: float) -> bytes:
        fd = proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if len(self._buffer) > LONGEST_ANSWER:
                self._stop()
                raise Fault("garbled", f"an answer of over {LONGEST_ANSWER:,} bytes")
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                self._stop()
                raise Fault("late", f"no answer in {timeout:g} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._died(proc)
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def close(self) -> None:
        self._stop()
