"""Review levels: a quick one for whole corpora and sites, a deeper one for the game a player studies.

``deep`` is :class:`~.settings.Settings` as it is: the level of ``hearts advise`` and of ``hearts review
GAME.json``. ``corpus`` spends less on each decision, for a club's season: the judged seat's later plays
by the same rollout player as the others' (no strong player of its own, no step ahead), every other
seat by the one rollout player (no reading of which player each seat plays like), and a pass chosen on
4 times a play's deals, not 16. ``benchmarks/README.md`` gives each level's speed and strength.

>>> corpus, deep = settings_at("corpus"), settings_at("deep", samples=50)
>>> corpus.level, corpus.own_model, corpus.look_ahead, corpus.identify, corpus.pass_deals
('corpus', None, False, (), 800)
>>> deep.level, deep.own_model, deep.pass_deals
('deep', 'strong', 800)
>>> settings_at("corpus", samples=100, own_model="strong").own_model, settings_at("corpus", samples=100).pass_deals
('strong', 400)
>>> level_for(["season.jsonl"]), level_for(["game.json"]), level_for(["a.json", "b.json"]), level_for(["-"])
('corpus', 'deep', 'corpus', 'deep')
"""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any, Iterable

from .settings import Settings

CORPUS, DEEP = "corpus", "deep"
LEVELS: dict[str, dict[str, Any]] = {
    CORPUS: {"own_model": None, "look_ahead": False, "identify": ()},
    DEEP: {},
}
"""Each level's settings where they differ from :class:`~.settings.Settings`' defaults."""
PASS_DEALS_PER_PLAY: dict[str, int | None] = {CORPUS: 4, DEEP: None}
"""A pass's choosing deals for each of a play's, where the level sets it (``None``: the settings' own)."""


def settings_at(level: str, **given: Any) -> Settings:
    """The settings of ``level``, with ``given`` fields (those that are not ``None``) in place of its own."""
    if level not in LEVELS:
        raise ValueError(f"unknown review level {level!r} (levels: {', '.join(LEVELS)})")
    known = {f.name for f in fields(Settings)}
    chosen = {**LEVELS[level], **{k: v for k, v in given.items() if v is not None and k in known}}
    unknown = set(given) - known
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(sorted(unknown))}")
    per_play = PASS_DEALS_PER_PLAY[level]
    if per_play is not None and chosen.get("pass_samples") is None:
        chosen["pass_samples"] = per_play * chosen.get("samples", Settings.samples)
    return Settings(level=level, **chosen)


def level_for(paths: Iterable[str]) -> str:
    """The level a review of ``paths`` runs at unless told: ``deep`` for one game file (``.json``) or standard
    input, ``corpus`` for anything that can hold many games (JSON Lines, Parquet, a folder, several files)."""
    paths = list(paths)
    if len(paths) == 1 and (paths[0] == "-" or Path(paths[0]).suffix.lower() == ".json"):
        return DEEP
    return CORPUS


__all__ = ["CORPUS", "DEEP", "LEVELS", "level_for", "settings_at"]
