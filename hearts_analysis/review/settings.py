"""How hard the review looks: :class:`Settings`, and the few constants its defaults rest on.

The review levels (:mod:`.levels`) start from these defaults; ``hearts review --set FIELD=VALUE``
sets any field. Each field says what it buys at the default, with the measurement that decided it.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..simulate.bots import BotFactory
from .rollout import DEFAULT_EXACT_TRICKS

FORCED_DEALS = 64
"""Deals a forced play's one option is played out on (by the plain players: it is shown, never judged)."""

PASS_DEALS_PER_PLAY_DEAL = 16
"""A pass's choosing deals for each of a play's. On 400 passes of games no tuning used, two seeds named
the same better pass for 74% of the passes flagged in either at 4 (800 deals), 83% at 8, 86% at 16 and
91% at 32, at 40, 57, 86 and 143 ms a pass (the judge's strength did not change from 4 to 24)."""


@dataclass(frozen=True)
class Settings:
    """How hard to look. The defaults review a whole hand (four seats) in well under two seconds on
    one core (``benchmarks/bench_review.py``)."""

    samples: int = 200
    """Sampled deals on which every alternative is played out to choose the best. More did not play better
    in the duplicate matches of ``benchmarks/judge_strength.py`` (benchmarks/README.md): 400 deals a play
    −0.02 points a hand, 800 −0.06 ± 0.18 and −0.16 ± 0.16 against HeuristicBot at twice the time."""
    seed: int = 0
    """The seed of every random stream (:mod:`.streams`): the same seed gives the same review."""
    exact_tricks: int = DEFAULT_EXACT_TRICKS
    """Tricks left at which rollouts switch to exact search. From three tricks left the judge took
    −0.15 ± 0.17 points a hand against HeuristicBot, within the noise, at three times the time
    (benchmarks/README.md)."""
    confidence_z: float = 2.5
    """Standard errors either side of a cost that must lie within one class for a verdict: the margin
    every cost is shown with (docs/review.md, "How a decision is judged")."""
    budget: int = 1024
    """Most fresh deals spent judging one decision against the best alternative. Twice and four times the
    budget left the class two seeds give a flagged play where it was (77.8% and 81.3% of about 90,
    against 83.0%; ``benchmarks/review_quality.py --curve``), at 1.07 and 1.13 times the time."""
    batch: int = 128
    """Fresh deals drawn at a time while judging (then as many as were judged, :func:`~.fresh._next_batch`).
    Most costs settle in the first batch; a rollout's time is mostly per call, not per deal."""
    tolerance: float = 0.5
    """Points by which each class is widened when the budget is spent (costs this close to a
    threshold may take either class: the class of the cost)."""
    early_tolerance: float = 0.25
    """Points by which each class is widened before the budget is spent: narrower, so that a cost
    near a threshold is judged on more deals, and its class turns less on the deals drawn. Without it, four
    times the budget and twice the samples, two seeds gave a flagged play the same class as often (83.5%
    against 83.0%) at 1.6 times the time (benchmarks/README.md)."""
    pass_screen_samples: int = 128
    """Deals on which every candidate pass is screened for the finalists (the passing advice leaves
    about 40 candidates, so the screen can afford enough deals that the finalists seldom turn on
    the deals drawn)."""
    pass_finalists: int = 8
    """Passes the screen keeps for the choosing deals, besides the actual one. Sixteen screened on 256 deals
    played no better (+0.01 points a hand, benchmarks/README.md)."""
    pass_samples: int | None = None
    """Sampled deals on which the finalist passes and the actual pass are played out to choose the
    best; ``None`` is :data:`PASS_DEALS_PER_PLAY_DEAL` times ``samples`` (:attr:`pass_deals`). More
    than a play's: the nine are often within a point of each other, so with fewer deals two seeds
    name different better passes, and a seat passes once a hand."""
    game_context: bool = True
    """Also estimate the chance of winning where the hand can end the game (:mod:`.context`): read off the
    deals already played out, so it costs no rollout; off, the documents carry no win chance. It decides a
    decision where an alternative leads the points' best in it clearly (:func:`.context.game_choice`;
    docs/review.md, "When the game decides")."""
    bot: BotFactory | None = None
    """Play rollouts with these simulator bots instead of the fast rollout player (much slower;
    passes always use the rollout player). ``None`` by default: it buys nothing at the defaults. It stays to
    check the review's verdicts under players that are not its own (``benchmarks/review_quality.py``,
    ``benchmarks/calibration_breakdown.py --bot``, ``tests/test_review_verdicts.py``)."""
    confirm: bool = True
    """Judge a flagged decision again under the other rollout player (:data:`OTHER_MODEL`) on the same
    fresh deals, and flag it only when both find that it costs points (otherwise *unclear*). It removes
    unstable flags more than it makes them: without it two seeds gave a flagged play the same class for
    77.8% of 158, with it 83.0% of 88 (benchmarks/README.md); only flags are judged twice, so it costs
    little time."""
    read_runner: bool = True
    """Draw a play's deals towards a hand that can take the rest where another seat has taken every
    point so far (:func:`~.deal_weights.running_seat`), and play that seat as the one that runs, as a strong
    player reads a running seat. It changes few decisions, so it moves the match little (+0.03 ± 0.07
    points a hand against ClassicBot, 120 deals); it turns the textbook position of
    ``tests/test_moon_defence.py`` from the card that lets the moon through to the one that stops it."""
    infer: str | tuple[str, ...] | None = None
    """Weight the sampled deals of a play by how likely the others' plays so far were under this
    rollout player, or under a tuple of them with each seat playing one (:mod:`.deal_weights`); ``None``
    draws every consistent deal alike. Off: measured and not kept. With :attr:`identify`,
    ``("basic", "strong")`` took −0.04 ± 0.12 points a hand against HeuristicBot and −0.04 ± 0.10 against
    ClassicBot at twice the time; ``"strong"`` alone did not help two seeds agree (flagged plays 40% of 20)
    at 1.4 times the time (benchmarks/README.md). The running seat does not need it
    (:func:`~.deal_weights.inferred_hands` weighs a runner's deals without it). It stays for ``hearts review
    --infer`` and for the kernel's recorded baseline (``tests/review_baseline.py``, checked by
    ``tests/test_kernel.py``), which reviews with it."""
    model: str = "basic"
    """The fast rollout player (:data:`~.policy.MODELS`): ``basic`` ducks and dumps; ``strong`` plays
    like a careful club player (flushes the queen, voids, stops and runs moons), 1.6 times slower.
    ``basic`` stays the default until the strong player is shown better on something it was not
    built to imitate (it agrees with the simulator's heuristic bot on 99% of plays). ``guard`` is
    ``basic`` that stops a lone point-taker's moon; it is not the default either: in the duplicate
    matches of ``benchmarks/judge_strength.py`` its gain was within the noise (benchmarks/README.md)."""
    own_model: str | None = "strong"
    """The rollout player of the judged seat's own later plays (:data:`~.policy.MODELS`); ``None``: the
    same as the others' (:attr:`model`). It models this seat, not the others, so a stronger one here
    copies nobody at the table. ``strong`` by default: a judge that expects to play its own later cards
    as a duck-and-dump player never sees the moons it could run, nor the queens it could keep out of;
    in the duplicate matches of ``benchmarks/judge_strength.py`` it took 0.69-0.81 fewer points a hand
    than ``None`` against HeuristicBot (1,000 deals on each of two seeds), and no more against the
    simulator's other bots (benchmarks/README.md)."""
    look_ahead: bool = True
    """At a play, the judged seat's own later decisions look a step ahead on each deal: every real choice is
    played out under the rollout players and the one that leaves the seat the fewest points is played
    (:data:`~hearts_analysis.kernel.compiled.LOOK`). The judge then plays its later cards closer to how it will
    really play them, searching, than :attr:`own_model` alone does. A pass keeps :attr:`own_model` alone: its
    many deals would take about fifteen times as long. In the duplicate matches of ``benchmarks/judge_strength.py``
    (the judge's plays alone) it took 0.30 ± 0.09 fewer points a hand against HeuristicBot and 0.30 ± 0.12 fewer
    against ClassicBot, at about 9 ms a play instead of 3 (benchmarks/README.md)."""
    identify: tuple[str, ...] = ("basic", "strong")
    """Rollout players between which each other seat's is read from its plays this hand (:mod:`.opponents`):
    every deal that chooses a play gets one of them per seat, in proportion to how well it explains that
    seat's cards (at the pass, before anything is seen, each as likely); ``()`` plays every other seat by
    :attr:`model`. The fresh deals that judge a cost stay with :attr:`model` and :data:`OTHER_MODEL`. In the
    duplicate matches of ``benchmarks/judge_strength.py`` (benchmarks/README.md) it took 0.83 ± 0.20 fewer
    points a hand than ``()`` against HeuristicBot, whom the strong player copies, 0.45 ± 0.14 fewer against
    a table of HeuristicBots and RandomBots, as many as ``()`` against three judges without it, and 0.22 ±
    0.12 more against a plain player neither model was built from (``benchmarks/outside_bots.py``); the
    costs the review claims came true (calibration 0.81 against HeuristicBot, 0.31 before)."""
    level: str = "deep"
    """The review level whose defaults these settings start from (:mod:`.levels`), named in the review's
    documents and pages."""

    @property
    def pass_deals(self) -> int:
        """The deals that choose the best pass (:attr:`pass_samples`)."""
        return PASS_DEALS_PER_PLAY_DEAL * self.samples if self.pass_samples is None else self.pass_samples
