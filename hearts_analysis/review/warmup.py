"""The review's kernel, compiled ahead of its first use: in a background process after install, or
in the foreground with a notice.

``python -m hearts_analysis.review.warmup`` is the background process the first ``hearts`` command
starts (:func:`hearts_analysis.kernel.warmup.start`): it takes the compile lock
(:func:`hearts_analysis.kernel.warmup.lock`), runs at the lowest priority, compiles what ``hearts advise`` needs first, then the rest of the review and the
simulator, and leaves a marker so no later command starts it again. ``--now`` runs it in the
foreground (the benchmark, the tests).

A command about to judge calls :func:`prepare` first: it shows one line when the kernel must be
compiled (or is compiling in the background), and nothing when it is ready. An advice asks
:func:`judged_uncompiled` instead: while the kernel compiles in the background, it is judged without it.

>>> import io
>>> said = io.StringIO()
>>> cold = prepare(said.write)
>>> said.getvalue() == "" if not cold else said.getvalue().startswith(("compiling", "waiting"))
True
"""

from __future__ import annotations

import os
import sys
from typing import Callable

from ..kernel import warmup as kernel_warmup

COMPILE_NOTICE = "compiling the review's kernel, once after install (about two minutes)…"
WAIT_NOTICE = "waiting for the review's kernel, compiling in the background once after install (about two minutes)…"

UNCOMPILED_NOTICE = ("the review's kernel compiles in the background, once after install (about two minutes); "
                     "this advice runs without it: the same answer, slower (seconds for a play, a minute for a pass)…")

_HAND = "AS KS 3S 9H 6H 3C 5C 8D JD QD 4H TH 7S"


def entry_points() -> list:
    """The cached compiled functions that the review's judgements and the simulator call from Python:
    the background compile compiles them all."""
    from ..kernel import compiled, heuristic
    from . import line
    return [compiled.place_cards, compiled.play_out_all, compiled.finish_all, compiled.model_choices,
            compiled.passes_all, line.continuations, heuristic.play_hands]


def first_needed() -> list:
    """The one every judgement calls first (it draws the deals), and compiles with the rest of its
    judgement's: when it is compiled, a judgement has run here and the notice would mislead."""
    from ..kernel import compiled
    return [compiled.place_cards]


def advice_needs() -> list:
    """The cached compiled functions an advice calls from Python, on a play or a pass: until the
    background compile has compiled them all, an advice is judged without the kernel."""
    from ..kernel import compiled
    return [compiled.place_cards, compiled.model_choices, compiled.play_out_all, compiled.passes_all,
            compiled.finish_all]


def review_needs() -> list:
    """The cached compiled functions a review calls from Python: an advice's, and the likely line after
    the best card."""
    from . import line
    return [*advice_needs(), line.continuations]


def prepare(say: Callable[[str], None]) -> bool:
    """Before judging: when a background compile is running and has not compiled every function a review
    calls (:func:`review_needs`), ``say`` so and wait for it (this process then loads its code) rather than
    compile the same code beside it. With no compile running, ``say`` the notice of a compile here when
    the kernel is cold (:func:`first_needed`). Whether it waited or the kernel was cold."""
    if not kernel_warmup.cold(review_needs()):
        return False
    free = kernel_warmup.lock(wait=False)
    if free is None:
        say(WAIT_NOTICE)
        free = kernel_warmup.lock(wait=True)
    elif kernel_warmup.cold(first_needed()):
        say(COMPILE_NOTICE)
    else:   # a judgement ran here before and compiled what it called: what is left compiles as it is met
        os.close(free)
        return False
    if free is not None:
        os.close(free)   # a long review does not hold it: another command may compile beside it
    return True


def judged_uncompiled(say: Callable[[str], None]) -> bool:
    """Before an advice: whether to judge without the compiled kernel (:mod:`.uncompiled`). Yes when
    the kernel is cold and its background compile is running or has not run yet (``hearts advise``
    starts it as it exits, so the two do not share the processor): ``say`` names both. No when it is
    ready, or when no background compile will come (``HEARTS_NO_WARMUP``, or it ran and left the kernel
    cold): then :func:`prepare`, and it compiles here."""
    if kernel_warmup.disabled() or not kernel_warmup.cold(advice_needs()):
        return False
    free = kernel_warmup.lock(wait=False)
    if free is not None:
        os.close(free)
        if kernel_warmup.marker().exists():
            return False
    say(UNCOMPILED_NOTICE)
    return True


def compile_kernel() -> None:
    """Compile, in the order a new user meets them: the advice on a play and on a pass, a review of a
    hand, the simulator's bulk play."""
    from ..rules import Rules
    from ..simulate import simulate_game
    from .board import advise_entry
    from .settings import Settings
    from .game import review_game

    settings = Settings(samples=20)
    advise_entry(_HAND, "A:2C B:9C", "C", settings=settings)
    advise_entry(_HAND, "", "C", direction="left", settings=settings)
    game = simulate_game(Rules.preset("standard"), ["a", "b", "c", "d"], seed=1, max_hands=1)
    review_game(game, settings, seats=[0])
    simulate_game(Rules.preset("standard", target=30), "abcd", 1, kernel=True)


def run(now: bool = False) -> int:
    """The background process: 0 when the kernel is compiled (or another process is compiling it)."""
    if not now:   # the lowest priority, and on Linux only the time no other process wants
        try:
            os.nice(19)
            if hasattr(os, "SCHED_IDLE"):
                os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:
            pass
    if kernel_warmup.lock(wait=now) is None:
        return 0   # another process compiles it
    try:
        if kernel_warmup.cold(entry_points()):
            compile_kernel()
    finally:   # a compile that fails is not tried again by every later command
        path = kernel_warmup.marker()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        except OSError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(run(now="--now" in sys.argv[1:]))
