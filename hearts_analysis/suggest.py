""""Did you mean": the known name nearest a mistyped one, for an error message to offer.

A typo costs a run: ``hearts explain revok`` or ``--set jack_of_diamond=-10`` should name
what was meant, and a name that differs only in case (``--player Alice`` for ``alice``) first:

>>> did_you_mean("revok", ["revoke", "out-of-turn"])
' (did you mean "revoke"?)'
>>> did_you_mean("Alice", ["alice", "alicia"])
' (did you mean "alice"?)'
>>> did_you_mean("zed", ["alice", "bob"])
''
"""

from __future__ import annotations

import difflib
from typing import Iterable

from .text import shown


def nearest(word: str, choices: Iterable[str]) -> str | None:
    """The choice nearest ``word``: one equal but for case, else the closest close enough to be a typo."""
    choices = list(dict.fromkeys(choices))
    folded = [choice for choice in choices if choice.casefold() == word.casefold()]
    if folded:
        return folded[0]
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.75)
    return close[0] if close else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``' (did you mean "X"?)'`` for the nearest choice, else nothing (to follow what was not known)."""
    found = nearest(word, choices)
    return "" if found is None else f" (did you mean {shown(found)}?)"
