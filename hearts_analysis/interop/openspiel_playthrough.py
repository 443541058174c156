"""OpenSpiel's playthrough files: one played-out game, its states dumped one after another.

OpenSpiel's playthrough generator writes a game's parameters and then, after every action, the
state (``History() = [...]``, ``Returns() = [...]``, observations, legal actions). The last
``History()`` line holds the whole history of the hand, the terminal state's ``Returns()`` what
OpenSpiel scored: ``26 - points`` per player (its ``kTotalPositivePoints``), so the import records
``26 - return`` as each seat's points and the audit checks them. A playthrough cut off before its
terminal state gives the hand as far as its last ``History()`` (the audit calls it incomplete);
a playthrough of another OpenSpiel game is refused by name.

>>> text = "game: hearts\\n\\nHistory() = [0, 1]\\n"
>>> looks_like(text)
True
>>> [item.error.text() for item in read(text.splitlines(True), "p.txt")]
['action 2: the deal stops after 1 of 52 cards']
>>> [item.error.text() for item in read(["game: tic_tac_toe\\n", "History() = [4]\\n"], "t.txt")]
["game: a playthrough of OpenSpiel's 'tic_tac_toe' game: only its 'hearts' is read"]
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Iterable, Iterator

from ..records.errors import Item, RecordError
from ..rules import Rules
from .openspiel_history import OpenSpielError, game_from_history, parse_game_string, rules_from_parameters

HEADER = "game: "
TOTAL_POSITIVE_POINTS = 26
"""OpenSpiel's ``kTotalPositivePoints``: a player's return is this less its points."""
_LIST = re.compile(r"^(History|Returns)\(\) = \[([^\]]*)\]\s*$")


def looks_like(head: str) -> bool:
    """A first line ``game: NAME`` and a ``History()`` or ``GameType.`` line: OpenSpiel's playthrough."""
    first = next((line for line in head.splitlines() if line.strip()), "")
    return first.startswith(HEADER) and ("\nHistory() = [" in head or "\nGameType." in head)


def _numbers(text: str, field: str) -> list[int]:
    values = []
    for index, token in enumerate(t.strip() for t in text.split(",") if t.strip()):
        try:
            number = float(token) if len(token) < 40 else float("nan")
        except ValueError:
            number = float("nan")
        if not number.is_integer():
            raise RecordError(f"expected a whole number, got {token[:40]!r}", f"{field}[{index}]")
        values.append(int(number))
    return values


def read(lines: Iterable[str], name: str, rules: Rules | None = None) -> Iterator[Item]:
    """The playthrough's hand as a one-hand game (``rules``: OpenSpiel's ``--game``, else the file's
    ``game:`` line), or the error naming the line that stops it."""
    history: tuple[int, str] | None = None
    returns: list[int] | None = None
    terminal = started = False
    parsing = rules
    for number, line in enumerate(lines, 1):
        text = line.strip()
        source = f"{name}:{number}"
        if not started and text:
            started = True
            if not text.startswith(HEADER):
                yield Item(source, error=RecordError("expected a playthrough's first line, 'game: hearts'",
                                                     "game").at(source))
                return
            game = text[len(HEADER):].strip()
            if game.partition("(")[0].strip() != "hearts":
                yield Item(source, error=RecordError(f"a playthrough of OpenSpiel's {game[:80]!r} game: only its "
                                                     "'hearts' is read", "game").at(source))
                return
            if parsing is None:
                try:
                    parsing = rules_from_parameters(parse_game_string(game))
                except OpenSpielError as error:
                    yield Item(source, error=RecordError(str(error).removeprefix("--game: "), "game").at(source))
                    return
            continue
        if text == "IsTerminal() = True":
            terminal = True
            continue
        match = _LIST.match(text)
        if match is None:
            continue
        try:
            values = _numbers(match.group(2), f"{match.group(1)}()")
        except RecordError as error:
            yield Item(source, error=error.at(source))
            return
        if match.group(1) == "History":
            history, returns = (number, " ".join(map(str, values))), None
        elif terminal:
            returns = values
    if history is None:
        yield Item(f"{name}:1", error=RecordError("the playthrough has no History() line", "History()")
                   .at(f"{name}:1"))
        return
    source = f"{name}:{history[0]}"
    try:
        game = game_from_history(history[1], parsing or rules_from_parameters({}),
                                 game_id=f"{Path(name).stem or 'playthrough'}-1")
    except RecordError as error:
        yield Item(source, error=error.at(source))
        return
    if terminal and returns is not None and len(returns) == len(game.players):
        hand = dataclasses.replace(game.hands[0], points=tuple(TOTAL_POSITIVE_POINTS - r for r in returns))
        game = dataclasses.replace(game, hands=(hand,))
    yield Item(source, game)


__all__ = ["looks_like", "read"]
