"""The documents of ``hearts analyze``: a readable account of each game, the JSON of every game, and the tables.

The text is for a person reading one game: who took QS from whom, and the story of a
run for the moon in a sentence:

>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard", target=30), ["ann", "bob", "cy", "dee"], seed=48)
>>> text = render_text(analyze_game(game, "club.jsonl:1"))
>>> print("\\n".join(text.splitlines()[2:5]))
hand 1 (left): points  13   0  13   0  totals   13    0   13    0  QS: ann (trick 12, from ann)
  hearts taken: cy 13
  moon: cy ran from trick 5; stopped by ann in trick 12 (QS), costing 13 points
>>> text.splitlines()[-1]
'winner: ann'
"""

from __future__ import annotations

from typing import IO, Callable, Iterable

import orjson

from ..corpus_audit import error_report
from ..records.errors import Item
from ..text import terminal_safe
from .game import GameAnalysis, analyze_game, analysis_to_dict
from .stats import Tally

AGGREGATES = {"pass_summary": Tally.pass_summary_rows, "pass_outcomes": Tally.pass_outcome_rows}
"""The tables counted over a whole corpus (beside the per-game :data:`~.tables.ROWS`), by catalogue name."""


def _seat(analysis: GameAnalysis, seat: int | None) -> str:
    return "-" if seat is None else analysis.players[seat]


def render_text(analysis: GameAnalysis) -> str:
    """A readable account of one game (the module's example shows one)."""
    data = analysis_to_dict(analysis)
    players = analysis.players
    lines = [f"{data['game_id'] or '(no game id)'}  [{analysis.source}]",
             "players: " + ", ".join(f"{seat} {name}" for seat, name in enumerate(players))]
    moons = {moon["hand"]: moon for moon in data["moons"]}
    passes: dict[int, list[dict]] = {}
    for review in data["passes"]:
        passes.setdefault(review["hand"], []).append(review)
    for hand in data["hands"]:
        qs = next((p for p in hand["point_cards"] if p["card"] == "QS"), None)
        head = (f"hand {hand['hand']} ({hand['pass_direction']}): points "
                + " ".join(f"{p:>3}" for p in hand["points"]) + "  totals "
                + " ".join(f"{t:>4}" for t in hand["totals"]))
        if qs is not None:
            head += f"  QS: {players[qs['to']]} (trick {qs['trick']}, from {players[qs['from']]})"
        lines.append(head)
        if any(hand["hearts"]):
            lines.append("  hearts taken: " + ", ".join(f"{players[s]} {h}" for s, h in enumerate(hand["hearts"]) if h))
        if hand["sun"] is not None:
            lines.append(f"  {players[hand['sun']]} won every trick (shot the sun)")
        if hand["near_miss"] is not None:
            lines.append(f"  near miss: {players[hand['near_miss']]} took all the points but one")
        moon = moons.get(hand["hand"])
        if moon is not None:
            lines.append("  moon: " + moon_sentence(analysis, moon))
        for review in passes.get(hand["hand"], []):
            verdicts = f"  [{'; '.join(review['verdicts'])}]" if review["verdicts"] else ""
            lines.append(f"  pass {players[review['seat']]} -> {players[review['to']]}: "
                         f"{' '.join(review['cards'])}{verdicts}")
    standing = ", ".join(f"{players[s]} {t} ({p})" for s, (t, p) in enumerate(zip(data["totals"], data["positions"])))
    lines.append(f"final: {standing}")
    if data["complete"]:
        lines.append("winner: " + " and ".join(players[s] for s in data["winners"]))
    else:
        lines.append("game not finished: no total has reached the target")
    return "\n".join(map(terminal_safe, lines))


def moon_sentence(analysis: GameAnalysis, moon: dict) -> str:
    """A run for the moon (a ``moons`` entry of :func:`~.game.analysis_to_dict`) in one sentence."""
    who = analysis.players[moon["seat"]]
    text = f"{who} ran from trick {moon['start_trick']}"
    if moon["outcome"] == "shot":
        text += " and shot the moon" + (" (and the sun)" if moon["sun"] else "")
        if moon["choice"]:
            text += f", scored {moon['choice'].replace('_', ' ')}"
            if moon["choice_correct"] is False:
                text += f" (better: {moon['better_choice'].replace('_', ' ')})"
    elif moon["outcome"] == "stopped":
        text += (f"; stopped by {_seat(analysis, moon['stopper'])} in trick {moon['trick']} ({moon['card']}), "
                 f"costing {moon['cost']} points")
    else:
        text += f"; gave up in trick {moon['trick'] or 'at the end'}, costing {moon['cost']} points"
    for missed in moon["missed_stops"]:
        who = analysis.players[missed["seat"]]
        text += f"; {who} could have stopped it in trick {missed['trick']} with {missed['card']}"
    return text


def keep_error(errors: list[dict], then: Callable[[Item], None] = lambda item: None) -> Callable[[Item], None]:
    """A callback for an unreadable record: its report added to ``errors``, then ``then`` called.

    >>> from hearts_analysis.records.errors import RecordError
    >>> errors = []
    >>> keep_error(errors)(Item("g.jsonl:3", error=RecordError("not JSON", source="g.jsonl:3")))
    >>> [error["source"] for error in errors]
    ['g.jsonl:3']
    """
    def keep(item: Item) -> None:
        errors.append(error_report(item))
        then(item)
    return keep


def analyses(items: Iterable[Item], errors: list[dict], on_error: Callable[[Item], None] = lambda item: None,
             on_game: Callable[[GameAnalysis], None] = lambda analysis: None) -> Iterable[GameAnalysis]:
    """Each readable game analysed (``on_game`` hears of it first); each unreadable record's report added to
    ``errors`` (then ``on_error`` hears of it)."""
    unreadable = keep_error(errors, on_error)
    for item in items:
        if item.game is None:
            unreadable(item)
            continue
        analysis = analyze_game(item.game, item.source)
        on_game(analysis)
        yield analysis


def write_document(items: Iterable[Item], form: str, out: IO[bytes],
                   on_error: Callable[[Item], None] = lambda item: None,
                   on_game: Callable[[GameAnalysis], None] = lambda analysis: None) -> list[dict]:
    """Write the games' ``text`` (a block per game) or ``json`` (``{"games": [...], "errors": [...]}``) to
    ``out`` as they are analysed; the reports of the unreadable records.

    >>> import io
    >>> from hearts_analysis.records.errors import Item
    >>> from hearts_analysis.rules import Rules
    >>> from hearts_analysis.simulate import simulate_games
    >>> items = [Item("g.jsonl:1", game) for game in simulate_games(2, Rules.preset("standard", target=30))]
    >>> out = io.BytesIO()
    >>> errors = write_document(items, "json", out)
    >>> data = orjson.loads(out.getvalue())
    >>> [game["game_id"] for game in data["games"]], data["errors"], errors
    (['sim-0-1', 'sim-0-2'], [], [])
    """
    errors: list[dict] = []
    first = True
    if form == "json":
        out.write(b'{"games": [')
    for analysis in analyses(items, errors, on_error, on_game):
        if form == "json":
            out.write((b"" if first else b",\n ") + orjson.dumps(analysis_to_dict(analysis)))
        else:
            out.write((b"" if first else b"\n") + render_text(analysis).encode() + b"\n")
        first = False
    if form == "json":
        out.write(b'],\n "errors": ' + orjson.dumps(errors) + b"}\n")
    return errors
