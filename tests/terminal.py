"""Run the command line under a pseudo-terminal, as a person at a terminal would see it."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def run_in_terminal(*args: str, columns: int = 100, env: dict | None = None, cwd=None,
                    stdout_only: bool = False) -> tuple[int, str]:
    """Exit code and everything written to the terminal (stdout and stderr both go to it; with ``stdout_only``,
    stderr goes nowhere, so no progress bar is drawn and only the command's output is seen)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    environment = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "COLUMNS")}
    environment.update({"TERM": "xterm-256color", **(env or {})})
    process = subprocess.Popen([sys.executable, "-m", "hearts_analysis", *args], stdin=subprocess.DEVNULL,
                               stdout=slave, stderr=subprocess.DEVNULL if stdout_only else slave, env=environment, cwd=cwd, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:   # the terminal closes once the process ends
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    return process.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace")


def visible_pieces(output: str) -> list[str]:
    """What stays on each line between carriage returns, escape sequences removed."""
    return [piece for line in output.split("\n") for piece in ANSI.sub("", line).split("\r") if piece.strip()]
