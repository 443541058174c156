"""The compiled kernel: the rules of play and the rollout players over 64-bit masks.

This is the one vectorised copy of the rules (the scalar one is
:mod:`~hearts_analysis.engine.interpreter`, which the tests hold it to card by
card and point by point):

- :mod:`.compiled`: the rules of play, the ``basic`` and ``strong`` rollout
  players, exact search of the last tricks and whole rollouts of many deals,
  compiled by numba and cached on disk;
- :mod:`.heuristic`: the simulator's HeuristicBot, playing whole hands on
  :mod:`.compiled`'s positions and rules (the simulator's bulk play);
- :mod:`.masks`: the card masks in numpy, for the code that samples and
  weighs deals (no numba).

Only :mod:`.compiled` and :mod:`.heuristic` import numba, and only the review
and the simulator import them, so the commands that do neither start without it.
"""
