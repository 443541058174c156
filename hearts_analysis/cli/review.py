"""``hearts review``: the cost of every play and pass, in expected points.

One flagged decision of the JSON document, as the text output shows it; a
player's name comes from a log, so control characters in it are shown escaped:

>>> decision = {"hand": 1, "trick": 3, "player": "ann\\x1b[31m", "played": "KS", "best": "2S", "cost": 4.2,
...             "margin": 0.6, "class": "mistake", "win_chance": {"played": 0.31, "best": 0.4},
...             "reason": "QS was still out and you held the 2S"}
>>> print(decision_line(decision))
  hand 1 trick 3: ann\\x1b[31m played KS, better 2S (cost 4.2 ± 0.6, mistake); chance of winning 31% against 40%
      QS was still out and you held the 2S

Near the end of a game the chance of winning can decide (docs/review.md, "When the game decides"):

>>> print(decision_line({**decision, "played": "AH", "best": "QS", "cost": 0.0, "margin": 0.0,
...                      "decided_by": "game", "reason": "to win the game: ..."}).splitlines()[0])
  hand 1 trick 3: ann\\x1b[31m played AH, better QS (cost 0.0 ± 0.0, mistake; the game decides); chance of winning 31% against 40%
"""

from __future__ import annotations

import io
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import orjson
import typer

from ..atomic import atomic_open, check_output
from ..cpus import worker_count
from ..records.sources import iter_sources
from ..text import counted, csv_writer, shown, terminal_safe
from .streams import data_form
from .app import RULES_OPTION, SET_OPTION, Format, app, error_line, fail, rules_from_options
from .progress import progress
from .review_options import CACHE_OPTION, NO_CACHE_OPTION, SCHEDULER_OPTION, WORKERS_OPTION, review_executor

class Model(str, Enum):
    strong = "strong"
    basic = "basic"
    guard = "guard"


class Level(str, Enum):
    corpus = "corpus"
    deep = "deep"


LEVEL_WORDS = {"corpus": "Reviewed at the corpus level: quick, it flags less (--level deep looks deeper).",
               "deep": "Reviewed at the deep level."}



def decision_line(d: dict) -> str:
    from ..reports.words import cost_words
    from ..review.report import cards_text, line_words, options_words
    where = f"hand {d['hand']} " + ("pass" if d["trick"] is None else f"trick {d['trick']}")
    verdict = f"cost {cost_words(d)}" + (f", {d['class']}" if d["class"] else
                                                           ", unclear" if d.get("unclear") else "")
    verb = "passed" if d["trick"] is None else "played"
    line = f"  {where}: {terminal_safe(d['player'])} {verb} {cards_text(d['played'])}"
    game = d.get("decided_by") == "game"
    if d["cost"] > 0 or game and d["best"] != d["played"]:
        line += f", better {cards_text(d['best'])}"
    line += f" ({verdict}{'; the game decides' if game else ''})"
    chance = d["win_chance"] and (f"{d['win_chance']['played']:.0%}", f"{d['win_chance']['best']:.0%}")
    if chance and chance[0] != chance[1]:   # the same chance either way (a decided hand) says nothing
        line += f"; chance of winning {chance[0]} against {chance[1]}"
    if d["reason"]:
        line += f"\n      {terminal_safe(d['reason'])}"
    if len(d.get("options") or ()) > 1:
        line += "\n      options: " + terminal_safe(options_words(d))
    if d.get("line"):
        line += "\n      line: " + terminal_safe(line_words(d, d.get("players") or ()))
    return line


def _count(number: int, noun: str) -> str:
    return counted(number, noun)


def render_text(report: dict, seats: list[int], show_all: bool) -> str:
    lines = [terminal_safe(f"{report['game_id'] or '(no game id)'}  [{report['source']}]")]
    for seat in seats:
        name = terminal_safe(report["players"][seat])
        mine = [d for d in report["decisions"] if d["seat"] == seat]
        counts = {c: sum(d["class"] == c for d in mine) for c in ("inaccuracy", "mistake", "blunder")}
        unforced = sum(not d["forced"] for d in mine)
        tally = ", ".join(_count(counts[c], c) for c in ("inaccuracy", "mistake", "blunder"))
        unclear = sum(bool(d.get("unclear")) and not d["class"] for d in mine)
        tally += f"; {unclear} unclear" if unclear else ""
        value = report["accuracy"].get(str(seat))
        if value is None:
            why = (report.get("not_reviewed") or {}).get(str(seat), "no decision was reviewed")
            lines.append(f"{name}: accuracy n/a ({terminal_safe(why)})")
            continue
        lines.append(f"{name}: accuracy {value:.1f}% over {_count(unforced, 'unforced decision')}: {tally}")
        shown = mine if show_all else [d for d in mine if d["class"] or d.get("unclear")]
        for d in sorted(shown, key=lambda d: (not d["class"], -d["cost"])):  # flagged first, then worst
            if show_all and d["forced"]:
                continue
            lines.append(decision_line({**d, "players": report["players"]}))
    for skipped in report.get("skipped") or ():
        lines.append(terminal_safe(f"  not reviewed: {skipped}"))
    return "\n".join(lines)


def _csv_text(columns: list[str], rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(columns)
    writer.writerows([row.get(column, "") for column in columns] for row in rows)
    return buffer.getvalue()


def _emit(text: str, output: Optional[Path], form: str = "text") -> None:
    with data_form(form, output is None), atomic_open(output or "-") as handle:
        handle.write(text)


@app.command()
def review(
    paths: list[str] = typer.Argument(..., metavar="PATH...", help="Game files, folders, or - for stdin."),
    player: Optional[str] = typer.Option(None, "--player", "-p", metavar="NAME",
                                          help="Review only this player's decisions."),
    format: Format = typer.Option(Format.text, "--format", "-f",
                                  help="text (flagged decisions, worst first), json, or csv (one row per decision)."),
    summary: bool = typer.Option(False, "--summary", help="Accuracy per player over all games instead of decisions."),
    output: Optional[Path] = typer.Option(None, "--output", "-o",
                                          help="Write here (atomically; - is standard output); a .csv or .json suffix picks "
                                               "the format."),
    level: Optional[Level] = typer.Option(None, "--level",
                                          help="How deep to look: corpus (quick, for a season or a site) or deep "
                                               "(the game you study; what advise uses). [default: deep for one "
                                               ".json game or stdin, corpus for JSON Lines, Parquet, folders]"),
    samples: int = typer.Option(200, "--samples", min=10,
                                help="Sampled deals on which every alternative is played out to choose the best."),
    pass_samples: Optional[int] = typer.Option(None, "--pass-samples", min=10,
                                               help="The same for the pass, the finalist passes and the actual "
                                                    "one [default: 16 times --samples at the deep level, 4 times "
                                                    "at the corpus level]."),
    budget: int = typer.Option(1024, "--budget", min=0,
                               help="Most fresh deals spent judging a choice against the best until its class is "
                                    "settled (past it, the decision is marked unclear)."),
    seed: int = typer.Option(0, "--seed", help="Seed for the sampled deals; the same seed gives the same review."),
    model: Model = typer.Option("basic", "--model",
                                help="The rollout player that models the others: basic (duck and dump; the "
                                     "default), guard (basic that stops a moon) or strong (a careful club player; slower, "
                                     "and still being measured)."),
    own_model: Optional[Model] = typer.Option(None, "--own-model",
                                              help="The rollout player of the reviewed seat's own later plays: "
                                                   "strong (a careful club player that also runs for the moon; "
                                                   "the deep level's), basic or guard [default: the level's; at "
                                                   "the corpus level, the others' player]."),
    confirm: bool = typer.Option(True, "--confirm/--no-confirm",
                                 help="Judge each flagged decision again under the other rollout player and "
                                      "flag it only when both find a loss (otherwise: unclear, with why)."),
    infer: Optional[Model] = typer.Option(None, "--infer",
                                          help="Weight the sampled deals by how likely the others' plays so "
                                               "far were under this rollout player (basic or strong; off by "
                                               "default, still being measured; about 1.4x slower)."),
    hand: Optional[list[int]] = typer.Option(None, "--hand", help="Review only these hand numbers (repeatable)."),
    show_all: bool = typer.Option(False, "--all", help="Text: list every unforced decision, not only flagged "
                                                       "ones (the default with --player)."),
    rules: Optional[str] = RULES_OPTION,
    set_: Optional[list[str]] = SET_OPTION,
    workers: int = WORKERS_OPTION,
    scheduler: Optional[str] = SCHEDULER_OPTION,
    cache: Optional[Path] = CACHE_OPTION,
    no_cache: bool = NO_CACHE_OPTION,
    puzzles_file: Optional[Path] = typer.Option(None, "--puzzles", metavar="FILE",
                                                help="Also write every flagged decision as a practice puzzle "
                                                     "(JSON: the position, the card played, the better ones)."),
) -> None:
    """Review every play and pass: expected points lost against the best card, judged only on what the
    seat could know (its cards, the pass, the cards played, the voids shown).

    A corpus (JSON Lines, Parquet, a folder) is reviewed at the quick corpus level, one game file at the
    deep level (--level chooses; the JSON names it). Costs of 1, 3 and 7 points or more are inaccuracies,
    mistakes and blunders; a cost is judged
    on fresh deals until its class is settled (the ± after a cost: 2.5 standard errors), and is
    marked unclear where --budget runs out first. Accuracy is the share of
    the points at stake a player kept. Text lists the flagged decisions of every player, or every
    decision of --player, worst first.
    Exit status 2 if some input could not be read (the rest is still reviewed).

    Example: hearts review game.json --player alice

    Example: hearts review corpus.parquet --summary -o review.csv

    Example: hearts review corpus.parquet --summary --workers 2

    Example: hearts review season.jsonl --level deep --player alice

    Example: hearts review game.json --model basic

    Example: hearts review game.json --player alice --puzzles alice-puzzles.json
    """
    # the review's numpy lanes load only when a review runs
    from ..review.batch import hands_to_review, review_items
    from ..review.levels import level_for, settings_at
    from ..review.cache import ReviewCache, default_folder
    from ..review.collect import ReviewRun
    from ..review.report import DECISION_COLUMNS, SUMMARY_COLUMNS, decision_rows
    from ..review.warmup import prepare
    forced = rules_from_options(rules, set_)
    check_output(output, paths)
    check_output(puzzles_file, paths, stdout=False)
    if output is not None and puzzles_file is not None and output.resolve() == puzzles_file.resolve():
        raise fail(f"{puzzles_file}: --puzzles and --output name the same file")
    if output is not None and output.suffix.lower() in (".csv", ".json"):
        format = Format(output.suffix.lower()[1:])
    settings = settings_at(level.value if level is not None else level_for(paths), samples=samples,
                           pass_samples=pass_samples, seed=seed, budget=budget, model=model.value,
                           own_model=None if own_model is None else own_model.value, confirm=confirm,
                           infer=None if infer is None else infer.value)
    run = ReviewRun(settings, summary=summary, puzzles=puzzles_file is not None)
    # the total is counted (a second read of the games) only for a bar on a terminal to show
    with_bar = "-" not in paths and sys.stderr.isatty()
    total = hands_to_review(iter_sources(paths, forced), player, hand) if with_bar else None
    store = None if no_cache else ReviewCache(cache or default_folder())
    prepare(lambda line: typer.echo(line, err=True))   # a cold kernel: what the first wait is for
    with review_executor(worker_count(workers, total), scheduler) as executor, \
            progress("reviewing", enabled=with_bar, total_hands=total) as bar:
        reviewed = review_items(iter_sources(paths, forced), settings, player, hand, executor, store,
                                progress=lambda k: bar.advance(games=0, hands=k))
        for done in reviewed:
            if run.add(done):
                bar.advance(games=1)
            else:
                typer.echo(error_line(done.item), err=True)
    if player is not None and not run.reviewed and not run.errors:
        from ..suggest import did_you_mean
        names = sorted({name for item in iter_sources(paths, forced) if item.game is not None
                        for name in item.game.players}) if "-" not in paths else []
        raise fail(f"no game has a player named {shown(player)}{did_you_mean(player, names)}")
    if puzzles_file is not None:
        with atomic_open(puzzles_file) as handle:
            handle.write(orjson.dumps(run.puzzles_document(), option=orjson.OPT_INDENT_2).decode() + "\n")
    if summary:
        rows = run.summary_rows()
        if format == Format.json:
            _emit(orjson.dumps(run.summary_document(), option=orjson.OPT_INDENT_2).decode() + "\n", output, "json")
        elif format == Format.csv or output is not None:
            _emit(_csv_text(SUMMARY_COLUMNS, rows), output, "csv")
        else:
            _emit(_summary_text(rows), output)
    elif format == Format.json:
        _emit(orjson.dumps(run.document(), option=orjson.OPT_INDENT_2).decode() + "\n", output, "json")
    elif format == Format.csv:
        _emit(_csv_text(DECISION_COLUMNS, [row for r, _ in run.games for row in decision_rows(r)]), output, "csv")
    else:
        texts = [render_text(r, seats if seats is not None else list(range(len(r["players"]))),
                             show_all or player is not None) for r, seats in run.games]
        texts.append(LEVEL_WORDS[settings.level])
        _emit("\n\n".join(texts) + "\n", output)
    raise typer.Exit(2 if run.errors else 0)


def _summary_text(rows: list[dict]) -> str:
    rows = [{**r, "player": terminal_safe(r["player"])} for r in rows]
    width = max([6] + [len(r["player"]) for r in rows])
    lines = [f"{'player':<{width}}  games  decisions  accuracy  mean cost  inacc.  mistakes  blunders"]
    for r in rows:
        if r["accuracy"] is None:
            lines.append(f"{r['player']:<{width}}  {r['games']:>5}  {r['unforced']:>9}  {'n/a':>8}  "
                         f"{'n/a':>9}  {r['inaccuracies']:>6}  {r['mistakes']:>8}  {r['blunders']:>8}  "
                         f"({terminal_safe(r['note'])})")
            continue
        lines.append(f"{r['player']:<{width}}  {r['games']:>5}  {r['unforced']:>9}  {r['accuracy']:>7.1f}%  "
                     f"{r['mean_cost']:>9.2f}  {r['inaccuracies']:>6}  {r['mistakes']:>8}  {r['blunders']:>8}")
    return "\n".join(lines) + "\n"
