"""A package that is also its command's function: ``hearts_analysis.review(game)`` beside
``hearts_analysis.review.batch``.

The façade (:mod:`hearts_analysis.facade`) names its functions after the commands, and two of those
names are already packages of the toolkit (``review``, ``simulate``). Importing a subpackage sets
the attribute of the same name on the package root, so a plain function there would be replaced by the
module at the first ``import hearts_analysis.review.x``. Instead the package itself is made callable,
calling the façade's function of its name: both spellings work, whatever was imported first.

>>> import hearts_analysis.simulate
>>> [game.game_id for game in hearts_analysis.simulate(2, target=30, seed=3)]
['sim-3-1', 'sim-3-2']
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any


class CallableModule(types.ModuleType):
    """A module whose call is ``hearts_analysis.facade.<its last name>``."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        facade = importlib.import_module("hearts_analysis.facade")
        return getattr(facade, self.__name__.rpartition(".")[2])(*args, **kwargs)


def make_callable(name: str) -> None:
    """Make the module ``name`` (a package the façade has a function for) callable as that function."""
    sys.modules[name].__class__ = CallableModule
