"""Safe, stable file names for pages named after untrusted text (player names, game ids).

A name from a record can hold anything: ``../``, slashes, quotes, newlines, markup, a
Windows device name, or text that differs from another only in case or accents. A page's
file name keeps only ``A-Z a-z 0-9 . _ -``, never starts with a dot, and is short; when
anything was dropped or changed, a few hex digits of the name's hash keep different names
apart, and a counter settles what is left (names that still meet, or meet only in case on
a case-insensitive disk).

>>> taken = set()
>>> page_name("player", "alice", taken), page_name("player", "Alice", taken)
('player-alice.html', 'player-Alice-2.html')
>>> page_name("player", "../etc/passwd", taken)
'player-etc-passwd-7fef78.html'
"""

from __future__ import annotations

import hashlib
import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_STEM = 60


def slug(text: str) -> str:
    """The safe part of ``text``, plus a short hash when that is not ``text`` itself."""
    clean = _UNSAFE.sub("-", text).strip("-.")[:MAX_STEM].rstrip("-.")
    if clean == text and clean:
        return clean
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return f"{clean}-{digest}" if clean else digest


def page_name(prefix: str, text: str, taken: set[str]) -> str:
    """``<prefix>-<slug>.html``, unique among ``taken`` ignoring case; adds it to ``taken``."""
    used = {name.lower() for name in taken}
    base = f"{prefix}-{slug(text)}"
    name, n = f"{base}.html", 1
    while name.lower() in used:
        n += 1
        name = f"{base}-{n}.html"
    taken.add(name)
    return name
