"""The violations of a game the screen judged whole: wrong recorded points, totals, moon choice or end.

A game whose every hand was dealt, passed and played by the rules is fully
known to the screen, even when its record then scores it wrongly. Those
scoring faults are what auditors meet most (a miscounted hand, a running total
carried wrong), and replaying such a game in Python only to find them would
cost more than the whole screen. Here they are reported from the screen's
arrays, in the reference engine's order and words (the message functions of
:mod:`hearts_analysis.engine.replay`), so that a report is the same whichever
engine made it.

A game of two hands whose second hand gives seat 1 one point too many:

>>> import dataclasses, pathlib, tempfile
>>> from hearts_analysis.corpus_audit import game_report
>>> from hearts_analysis.engine.replay import replay_game
>>> from hearts_analysis.fastpath.decode import Judgements, decode_unit, open_units
>>> from hearts_analysis.fastpath.screen import screen_block
>>> from hearts_analysis.records.parquet import write_parquet
>>> from hearts_analysis.rules import Rules
>>> from hearts_analysis.simulate import simulate_game
>>> game = simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=3, max_hands=2)
>>> points = list(game.hands[1].points)
>>> points[1] += 1
>>> game = dataclasses.replace(game, hands=(game.hands[0], dataclasses.replace(game.hands[1], points=tuple(points))))
>>> path = pathlib.Path(tempfile.mkdtemp()) / "wrong.parquet"
>>> write_parquet([game], path)
1
>>> [unit] = open_units(path)
>>> verdict = screen_block(decode_unit(unit, Judgements(None)))
>>> verdict.clean.tolist(), verdict.judged.tolist()
([False], [True])
>>> verdict.violations[0] == game_report(replay_game(game), "")["violations"]
True
>>> [(v["code"], v["hand"], v["seat"]) for v in verdict.violations[0]]
[('points-mismatch', 2, 1)]
"""

from __future__ import annotations

import numpy as np

from ..engine.replay import (Running, check_game_so_far, game_over_early, moon_record_problem, points_mismatch,
                             replay_hand, seat_phrase, totals_mismatch)
from ..engine.scoring import Moon
from ..records.model import HandRecord
from ..rules import MOON_CHOICES, PASS_DIRECTIONS, winners
from ..violations import Code, Violation
from .params import TableParams


def game_violations(p: TableParams, players: list[str], hands: np.ndarray, block, running: np.ndarray,
                    points_off: np.ndarray, moon_invalid: np.ndarray, moon_seat: np.ndarray,
                    moon_choice: np.ndarray, over_early: bool) -> list[dict]:
    """The violation dicts of one judged game, as :func:`~hearts_analysis.engine.replay.replay_game` gives them.

    ``hands`` are the game's hand indices in ``block``; ``running`` (hands, n) the
    computed running totals; ``points_off`` (hands, n) and ``moon_invalid`` (hands,)
    the screen's findings; ``over_early`` the record says complete and no total
    reached the target. Each hand gives its moon fault, then its points, then its totals.
    """
    found, _ = _counted_faults(p, players, hands, block, running, points_off, moon_invalid, moon_seat, moon_choice)
    if over_early:
        top = int(running[-1].max()) if len(running) else 0
        found.append(Violation(Code.GAME_OVER_EARLY, None, None, None, None,
                               game_over_early(p.table.rules, len(hands), top)))
    return [v.to_dict() for v in found]


def _counted_faults(p: TableParams, players: list[str], hands: np.ndarray, block, running: np.ndarray,
                    points_off: np.ndarray, moon_invalid: np.ndarray, moon_seat: np.ndarray,
                    moon_choice: np.ndarray) -> tuple[list[Violation], list[int]]:
    """The scoring and totals faults of hands the screen played by the rules (:func:`game_violations`'s), and each
    seat's recorded minus computed total as of the last hand that recorded totals (``Running.deviation``)."""
    n = p.players
    found: list[Violation] = []
    deviation = [0] * n
    for i, h in enumerate(hands.tolist()):
        number = i + 1
        seat = int(moon_seat[i])
        moon = None if seat < 0 else Moon(seat, MOON_CHOICES[int(moon_choice[i])])
        found.extend(_scoring_faults(p, block, h, number, moon, moon_invalid[i], points_off[i],
                                     running[i] - (running[i - 1] if i else 0), players))
        if block.has_totals[h]:
            for s, (got, want) in enumerate(zip(block.totals[h, :n].tolist(), running[i].tolist())):
                off = got - want
                if off and off != deviation[s]:
                    found.append(Violation(Code.TOTALS_MISMATCH, number, None, s, None,
                                           totals_mismatch(seat_phrase(s, players), got, want, number)))
                deviation[s] = off
    return found, deviation


def _scoring_faults(p: TableParams, block, h: int, number: int, moon: Moon | None, moon_invalid: bool,
                    points_off: np.ndarray, want, players: list[str]) -> list[Violation]:
    """Hand ``h``'s refused moon choice, then each seat's recorded points that differ from ``want``, in the
    reference engine's words."""
    found = []
    if moon_invalid:
        message, at = moon_record_problem(p.moon_rule, MOON_CHOICES[int(block.moon[h])], moon)
        found.append(Violation(Code.MOON_CHOICE_INVALID, number, None, at, None, message))
    if points_off.any():
        recorded = block.points[h, :p.players].tolist()
        for s in np.flatnonzero(points_off).tolist():
            found.append(Violation(Code.POINTS_MISMATCH, number, None, s, None,
                                   points_mismatch(seat_phrase(s, players), recorded[s], int(want[s]), number, moon, s)))
    return found


def judge_game(p: TableParams, players: list[str], hands: np.ndarray, block, played: np.ndarray, start: np.ndarray,
               pass_rows: np.ndarray, points_off: np.ndarray, moon_invalid: np.ndarray, out) -> list[dict]:
    """A game some of whose hands the screen doubted, though it read their rows whole: those hands are replayed
    alone by the reference engine (:func:`~hearts_analysis.engine.replay.replay_hand`), the others taken from the
    screen's arrays, and the game's totals and end carried as :func:`~hearts_analysis.engine.replay.replay_game`
    carries them. Fills the game's points, moons, totals, winners and end in ``out`` (a
    :class:`~hearts_analysis.fastpath.screen.ScreenFindings`); returns its violation dicts."""
    running = Running(p.players)
    found: list[Violation] = []
    after = _check_hands(p, players, hands, block, played, start, pass_rows, points_off, moon_invalid, out, 0,
                         running, found)
    ended_at = running.ended_at
    totals = running.totals if ended_at is None or ended_at == len(after) else after[ended_at - 1]
    return _finish(p, block, hands, found, totals, ended_at, running.winners, out)


def continued_game(p: TableParams, players: list[str], hands: np.ndarray, block, running: np.ndarray, end: int,
                   played: np.ndarray, start: np.ndarray, pass_rows: np.ndarray, points_off: np.ndarray,
                   moon_invalid: np.ndarray, moon_seat: np.ndarray, moon_choice: np.ndarray, out) -> list[dict]:
    """A game recorded past its end (``game-continued``): hands ``[0, end]`` (the last is the one a total reached
    the target in) all played by the rules, reported from the screen's arrays as :func:`game_violations` reports
    them (``running``: their computed running totals); each later hand is checked as a hand, as
    :func:`judge_game` checks one (from the arrays where the screen played it by the rules, else replayed alone by
    the reference engine), its totals carried on but not counted: the result is the standings after hand
    ``end + 1``. Fills ``out`` as :func:`judge_game` does; returns the game's violation dicts."""
    n = p.players
    counted = slice(0, end + 1)
    found, deviation = _counted_faults(p, players, hands[counted], block, running[counted], points_off[counted],
                                       moon_invalid[counted], moon_seat[counted], moon_choice[counted])
    totals = tuple(running[end].tolist())
    state = Running(n)
    state.totals, state.deviation, state.ended_at = totals, deviation, end + 1
    state.winners = winners(totals)
    _check_hands(p, players, hands, block, played, start, pass_rows, points_off, moon_invalid, out, end + 1, state,
                 found)
    return _finish(p, block, hands, found, totals, end + 1, state.winners, out)


def _check_hands(p: TableParams, players: list[str], hands: np.ndarray, block, played: np.ndarray, start: np.ndarray,
                 pass_rows: np.ndarray, points_off: np.ndarray, moon_invalid: np.ndarray, out, first: int,
                 running: Running, found: list[Violation]) -> list[tuple[int, ...]]:
    """Hands ``first`` on of a game, one at a time, as :func:`~hearts_analysis.engine.replay.replay_hand` checks
    them with ``running``: a hand the screen played by the rules from its arrays, any other replayed alone. Their
    violations go to ``found``; returns the running totals after each."""
    n, table, names = p.players, p.table, tuple(players)
    after: list[tuple[int, ...]] = []
    rest = hands[first:]
    all_points, moon_seats, moon_choices = out.points[rest, :n].tolist(), out.moon_seat[rest].tolist(), \
        out.moon_choice[rest].tolist()
    has_totals, recorded_all = block.has_totals[rest].tolist(), block.totals[rest, :n].tolist()
    for j, h in enumerate(rest.tolist()):
        i = first + j
        number = i + 1
        if played[i]:
            points = tuple(all_points[j])
            seat = moon_seats[j]
            moon = None if seat < 0 else Moon(seat, MOON_CHOICES[moon_choices[j]])
            found.extend(_scoring_faults(p, block, h, number, moon, moon_invalid[i], points_off[i], points, players))
            totals = tuple(a + b for a, b in zip(running.totals, points))
            recorded_totals = tuple(recorded_all[j]) if has_totals[j] else None
            found.extend(check_game_so_far(table, number, recorded_totals, totals, running, names))
        else:
            result = replay_hand(table, number, hand_record(block, p, h, int(start[i]), int(pass_rows[i])), names,
                                 running)
            found.extend(result.violations)
            out.points[h, :n] = result.points
            out.moon_seat[h] = -1 if result.moon is None else result.moon.seat
            out.moon_choice[h] = -1 if result.moon is None else MOON_CHOICES.index(result.moon.choice)
        after.append(running.totals)
    return after


def _finish(p, block, hands, found, totals, ended_at, winners, out) -> list[dict]:
    n = p.players
    game = int(np.searchsorted(block.game_hands, hands[0], side="right") - 1)
    out.totals[game, :n] = totals
    out.winners[game, :n] = [s in winners for s in range(n)]
    out.complete[game] = ended_at is not None
    if block.complete[game] and ended_at is None:
        found.append(Violation(Code.GAME_OVER_EARLY, None, None, None, None,
                               game_over_early(p.table.rules, len(hands), max(totals) if len(hands) else 0)))
    return [v.to_dict() for v in found]


def hand_record(block, p: TableParams, h: int, start: int, passed: int) -> HandRecord:
    """Hand ``h`` of ``block`` as the reference reader reads it, from rows the screen found laid out as a hand
    (deal rows seat by seat, then pass rows, then plays)."""
    n, size, deck = p.players, p.hand_size, p.deck_size
    cards = block.card[start:block.hand_rows[h + 1]].tolist()
    seats = block.seat[start + deck + passed:block.hand_rows[h + 1]].tolist()
    deal = tuple(tuple(cards[s * size:(s + 1) * size]) for s in range(n))
    passes = None
    if passed:
        count = p.pass_count
        passes = tuple(tuple(cards[deck + s * count:deck + (s + 1) * count]) for s in range(n))
    plays = tuple(zip(seats, cards[deck + passed:]))
    dealer, direction, moon = int(block.dealer[h]), int(block.direction[h]), int(block.moon[h])
    return HandRecord(deal=deal, plays=plays, passes=passes, dealer=None if dealer < 0 else dealer,
                      pass_direction=None if direction < 0 else PASS_DIRECTIONS[direction],
                      moon=None if moon < 0 else MOON_CHOICES[moon],
                      points=tuple(block.points[h, :n].tolist()) if block.has_points[h] else None,
                      totals=tuple(block.totals[h, :n].tolist()) if block.has_totals[h] else None)
