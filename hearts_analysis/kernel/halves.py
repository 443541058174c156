"""Two processes share the deals of a kernel entry point, when numba is off.

With numba's JIT off (the advice judged while the kernel compiles: ``review/uncompiled.py``), the
kernel runs as plain Python on one core, and the other is free. An entry point that plays each deal
on its own, with no random stream across deals, gives the same answer on the two halves of its deals
as on all of them: :func:`by_halves` runs the second half in a forked child and joins the two.

>>> import numpy as np
>>> def doubled(hands, leaders):
...     return hands * 2, hands + leaders[:, None]
>>> split = by_halves(doubled, (0, 1), (0, 0), least=2)
>>> hands, leaders = np.arange(12).reshape(6, 2), np.arange(6)
>>> all((a == b).all() for a, b in zip(split(hands, leaders), doubled(hands, leaders)))
True
"""

from __future__ import annotations

import functools
import os
import pickle
from typing import Callable, Sequence

import numpy as np


def by_halves(function: Callable, split: Sequence[int], axes: Sequence[int], least: int = 16) -> Callable:
    """``function`` whose arguments at ``split`` (arrays of one row a deal) are cut in two halves, the
    second half played in a forked child; its results (arrays) are joined along ``axes``. Fewer than
    ``least`` deals: played here alone."""
    @functools.wraps(function)
    def halves(*args):
        count = len(args[split[0]])
        if count < least or not hasattr(os, "fork"):
            return function(*args)
        middle = count // 2
        first, second = list(args), list(args)
        for at in split:
            first[at], second[at] = args[at][:middle], args[at][middle:]
        read, write = os.pipe()
        child = os.fork()
        if child == 0:   # the child: the second half, handed back through the pipe
            try:
                os.close(read)
                with os.fdopen(write, "wb") as out:
                    out.write(pickle.dumps(function(*second)))
            finally:
                os._exit(0)
        os.close(write)
        mine = function(*first)
        with os.fdopen(read, "rb") as pipe:
            theirs = pipe.read()
        os.waitpid(child, 0)
        if not theirs:
            raise RuntimeError(f"{function.__name__}: the second half's process failed")
        return tuple(np.concatenate([a, b], axis=axis) for a, b, axis in zip(mine, pickle.loads(theirs), axes))
    return halves
