"""``hearts simulate``: write a corpus of legal, complete games played by seeded bots.

The command writes what :func:`~hearts_analysis.simulate.simulate_games` gives for
the same seed, byte for byte, so a corpus named in a bug report can be made again:

>>> import tempfile, pathlib
>>> from typer.testing import CliRunner
>>> from hearts_analysis.cli import app
>>> from hearts_analysis.rules import Rules
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> result = CliRunner().invoke(app, ["simulate", "--games", "2", "--set", "target=30", "--seed", "7",
...                                   "-o", str(folder / "corpus.jsonl")])
>>> result.exit_code, result.stderr.split(" to ")[0]
(0, 'wrote 2 games (6 hands)')
>>> write_any(simulate_games(2, Rules.preset("standard", target=30), seed=7), folder / "same.jsonl")
2
>>> (folder / "corpus.jsonl").read_bytes() == (folder / "same.jsonl").read_bytes()
True
"""

from __future__ import annotations

import importlib.util
import sys
import time
from enum import Enum
from pathlib import Path
from typing import Iterable, Iterator, Optional

import typer

from ..atomic import check_output
from ..records.json import dumps_game
from ..records.model import GameRecord
from ..records.sources import JSON_SUFFIXES, PARQUET_SUFFIXES, write_any
from ..rules import MAX_PLAYERS, MIN_PLAYERS, RuleError
from ..simulate import BOT_KINDS, BotFactory, make_pool, parse_mix, simulate_games, simulate_pool
from ..simulate.game import MAX_HANDS
from ..text import counted, os_error_text, shown, terminal_safe
from ..match.players import judge_bot
from .app import SET_OPTION, app, fail, rules_from_options
from .progress import progress


class BotKind(str, Enum):
    heuristic = "heuristic"
    random = "random"
    mixed = "mixed"
    judge = "judge"


KINDS: dict[str, BotFactory] = {**BOT_KINDS, BotKind.judge.value: judge_bot}
"""Every bot ``--bot`` and ``--bots`` name: the simulator's and the review's judge."""



def _counted(games: Iterable[GameRecord], bar, tally: list[int], cut: list[str]) -> Iterator[GameRecord]:
    for game in games:
        tally[0] += 1
        tally[1] += len(game.hands)
        if not game.complete:
            cut.append(game.game_id or f"game {tally[0]}")
        bar.advance(hands=len(game.hands))
        yield game


@app.command()
def simulate(
    games: int = typer.Option(..., "--games", "-n", min=1, help="How many games to play."),
    output: str = typer.Option(..., "--output", "-o", metavar="OUT",
                               help="Where to write: .jsonl (or .json for one game), .parquet, or - for "
                                    "JSON Lines on stdout."),
    players: int = typer.Option(4, "--players", "-p", min=MIN_PLAYERS, max=MAX_PLAYERS,
                                help="Seats at the table (3-7)."),
    rules: Optional[str] = typer.Option(None, "--rules", "-r", metavar="PRESET",
                                        help="Play under this preset (default standard; see `hearts rules`)."),
    set_: Optional[list[str]] = SET_OPTION,
    seed: int = typer.Option(0, "--seed", help="The same seed, rules and counts give the same games."),
    bot: BotKind = typer.Option(BotKind.heuristic, "--bot", "-b",
                                help="heuristic (careful play, passes by the book, occasional moon "
                                     "runs), random (any legal card), mixed (each seat heuristic "
                                     "three times in four, else random), or judge (the review's best "
                                     "choice, slow: about 0.3 s a hand)."),
    pool: Optional[int] = typer.Option(None, "--pool", min=1, metavar="N",
                                       help="A pool of N named players (p01, p02...) who rotate between "
                                            "tables and seats, round by round; each is always played by the "
                                            "same bot (--bots, else --bot). At least --players."),
    bots: Optional[str] = typer.Option(None, "--bots", metavar="MIX",
                                       help="The pool's bots, e.g. heuristic=10,random=2 (counts add up to "
                                            "--pool, or give the pool's size when --pool is absent). Which "
                                            "player is which bot is written in each game's `bots` field."),
) -> None:
    """Play complete games to the target with seeded bots and write them as a corpus.

    Every game is legal under the rules and ends when a total reaches the
    target; game i depends only on the seed and i. Games are written as they
    are played, and the output appears only when it is complete. Every game
    has a played_at time: simulated rounds start 30 minutes apart.

    Without --pool the same players (bot1, bot2...) sit at one table every
    game. With --pool, a club: each round the pool is shuffled and seated at as
    many full tables as it fills, and each player keeps one bot throughout.

    Example: hearts simulate --games 1000 --players 4 --rules omnibus --seed 7 -o corpus.jsonl

    Example: hearts simulate --games 300 --pool 12 --bots heuristic=10,random=2 -o club.parquet

    Example: hearts simulate --games 5 --bots judge=1,heuristic=3 -o judged.jsonl
    """
    chosen = rules_from_options(rules or "standard", set_)
    try:
        chosen.table(players)
    except RuleError as error:
        raise fail(f"bad rules for {players} players: {error}")
    suffix = Path(output).suffix.lower()
    if output != "-" and suffix not in JSON_SUFFIXES + PARQUET_SUFFIXES:
        raise fail(f"{output}: unknown output format {shown(suffix)} (use .jsonl, .json or .parquet)")
    if suffix in PARQUET_SUFFIXES and importlib.util.find_spec("hearts_analysis.records.parquet") is None:
        raise fail(f"{output}: Parquet output is not available in this installation; write .jsonl")
    if suffix == ".json" and games != 1:
        raise fail(f"{output}: a .json file holds one game; use .jsonl for {games}")
    check_output(output, folder=None)
    if pool is not None or bots is not None:
        try:
            mix = parse_mix(bots, KINDS) if bots is not None else {bot.value: pool}
            members = make_pool(pool if pool is not None else sum(mix.values()), mix, seed)
        except ValueError as error:
            raise fail(f"--bots: {error}")
        if len(members) < players:
            raise fail(f"--pool {len(members)} cannot fill a table of {players} players")
        played = simulate_pool(games, chosen, members, players, seed, KINDS)
    else:
        played = simulate_games(games, chosen, players, seed, KINDS[bot.value])
    tally, cut = [0, 0], []
    started = time.perf_counter()
    with progress("simulating") as bar:
        corpus = _counted(played, bar, tally, cut)
        if output == "-":
            out = sys.stdout.buffer
            for game in corpus:
                out.write(dumps_game(game) + b"\n")
            out.flush()
        else:
            try:
                write_any(corpus, output)
            except OSError as error:
                raise fail(os_error_text(error, output))
    elapsed = time.perf_counter() - started
    where = "stdout" if output == "-" else output
    typer.echo(f"wrote {counted(tally[0], 'game')} ({counted(tally[1], 'hand')}) to {where} in {elapsed:.1f}s", err=True)
    if cut:
        named = ", ".join(terminal_safe(name) for name in cut[:5]) + (f" and {len(cut) - 5:,} more" if len(cut) > 5 else "")
        typer.echo(f"warning: {counted(len(cut), 'game')} stopped after {MAX_HANDS:,} hands with no total at the target "
                   f"({named}); {'its record says' if len(cut) == 1 else 'their records say'} complete: false", err=True)
