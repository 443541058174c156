"""A package that is also its command's function: ``hearts_analysis.review(game)`` beside
``hearts_analysis.review.batch``.

The façade (:mod:`hearts_analysis.facade`) names its functions after the commands, and two of those
names are already packages of the toolkit (``review``, ``simulate``). Importing a subpackage sets
the attribute of the same name on the package root, so a plain function there would be replaced by the
module at the first ``import hearts_analysis.review.x``. Instead the package itself is made callable,
calling the function the package names (the one the façade's function of its name calls): both spellings
work, whatever was imported first. This module imports nothing of the toolkit.

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
    """A package whose call is the function ``__call_target__`` names: ``"module:function"``, the module
    relative to the package, imported on the first call."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        module, _, function = self.__dict__["__call_target__"].partition(":")
        return getattr(importlib.import_module(module, self.__name__), function)(*args, **kwargs)


def make_callable(name: str, target: str) -> None:
    """Make the package ``name`` callable as ``target`` (``".batch:review_one"``: a module of the package and
    its function)."""
    module = sys.modules[name]
    module.__call_target__ = target
    module.__class__ = CallableModule
