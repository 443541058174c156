"""Fitting rule sets to a corpus: which rule sets make its games fully legal and correctly scored.

:func:`infer_named` first groups the games by the rule set each record names and
says which games break their own named rules; then, group by group, as
:func:`infer_rules` does for any list of games, the records' rules are set aside:
every game is replayed under candidate rule sets and judged by the violations the
replay finds. (A game that breaks its named rules on purpose, as a test log does,
is then fitted by loosened rules: the first step says so.)

The search uses the fact that rule fields act mostly independently:

1. every preset is replayed; the one with the fewest violations is the base;
2. coordinate descent: each field in turn takes the value that leaves the
   fewest violations with every other field at the base; numbers are solved
   from the records instead of enumerated (``jack_of_diamonds`` and
   ``no_tricks_bonus`` from the recorded points of the seats they touch,
   ``target`` as an interval from the computed totals, per ``end_at``), and
   ``pass_cycle`` candidates are built from the directions each hand allows;
   repeated until nothing improves; then pairs of changes that each cost
   nothing alone are tried together (two fields that only matter jointly);
3. the violations left under the fitted rule set are the *unexplained* ones (a
   real revoke, a bad deal): no field value is blamed for them;
4. every candidate value of every field is replayed against the fitted rule
   set: it fits when it adds no violation, else the first added violations are
   the evidence that rules it out; every preset is judged the same way.

Every verdict is a full replay, so a value said to fit does fit in
combination with the fitted values of the other fields. Fields that interact
(a wrong ``moon`` hiding a ``jack_of_diamonds`` value) are caught by the
repeated descent, not by a search of every combination.

Two Omnibus games played to 30, judged without the rules they name: the recorded
points give the JD bonus away, and the final totals bound the target, of which
the roundest is suggested:

>>> from hearts_analysis.simulate import simulate_games
>>> games = simulate_games(2, Rules.preset("omnibus", target=30))
>>> found = infer_rules((game.game_id, game) for game in games)
>>> found.suggestion, found.unexplained_count
({'preset': 'omnibus', 'target': 25}, 0)
>>> found.field("jack_of_diamonds").fitting, found.field("target").span
((-10,), (25, 30))
"""

from __future__ import annotations

import dataclasses
import itertools
import shlex
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import orjson

from .cards import DECK, JD, card_name, iter_cards, mask_of
from .engine.replay import GameResult, replay_game
from .records.model import GameRecord, HandRecord
from .rules import END_AT, PASS_DIRECTIONS, PRESETS, RULE_FIELDS, RULE_TABLE, RuleError, Rules
from .rules_help import value_text, wrap
from .text import counted, terminal_safe

Key = tuple[int, int | None, int | None, int | None, str]
"""A violation's identity across rule sets: ``(game index, hand, trick, seat, code)``."""

UNPLAYABLE = "rules-unplayable"
"""The code of evidence that a rule set cannot be played by a game's number of players."""
UNPLAYABLE_COST = 1 << 20
"""An unplayable game costs more than any number of violations: a rule set that can be played wins."""

EXAMPLES = 3
MAX_ROUNDS = 4
MAX_CYCLE = 4
MAX_DERIVED_CYCLES = 16
MAX_NEUTRAL = 24

CHOICES: dict[str, tuple[Any, ...]] = {name: spec.tried for name, spec in RULE_TABLE.items()
                                       if spec.tried is not None and name != "end_at"}
"""Fields with a fixed set of values, all of which are tried: the rule-field table's candidates
(``end_at`` is fitted with ``target``, from the totals)."""

KNOWN_CYCLES: tuple[tuple[str, ...] | None, ...] = (
    None, ("left", "right", "across", "hold"), ("left", "right"), ("left",), ("any",),
    ("left", "right", "across"), ("left", "right", "hold"), ("hold",),
)
"""Pass cycles always tried (``None``: by player count); cycles the records suggest are added."""

_PRESET_NUMBERS = {name: sorted({getattr(Rules.from_spec(p), name) for p in PRESETS}
                                | {getattr(Rules(), name)})
                   for name in ("jack_of_diamonds", "no_tricks_bonus", "target")}
_PRESET_NUMBERS["no_tricks_bonus"] = sorted(set(_PRESET_NUMBERS["no_tricks_bonus"]) | {-5})


# -- results ------------------------------------------------------------------------
@dataclass(frozen=True)
class Evidence:
    """A violation (or an unplayable table) that rules a value out, located in the corpus."""

    source: str
    game_id: str | None
    hand: int | None
    trick: int | None
    seat: int | None
    code: str
    message: str

    def location(self) -> str:
        parts = [self.source] + [f"{label} {value}" for label, value in
                                 (("hand", self.hand), ("trick", self.trick), ("seat", self.seat))
                                 if value is not None]
        return " ".join(parts)

    def text(self) -> str:
        return f"{self.location()}: {self.code}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Verdict:
    """One value of one field, judged against the fitted rule set."""

    value: Any
    fits: bool
    games: int
    """Games with a violation that this value adds (those found, unless ``all_counted``)."""
    all_counted: bool
    evidence: tuple[Evidence, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"value": _json_value(self.value), "fits": self.fits, "games": self.games,
                "all_counted": self.all_counted, "evidence": [e.to_dict() for e in self.evidence]}


@dataclass(frozen=True)
class FieldReport:
    """What the corpus says about one rule field."""

    field: str
    verdicts: tuple[Verdict, ...]
    span: tuple[int | None, int | None] | None = None
    """For ``target``: the whole numbers that fit, ``(low, high)``; ``None`` ends are open."""
    note: str | None = None

    @property
    def fitting(self) -> tuple[Any, ...]:
        return tuple(v.value for v in self.verdicts if v.fits)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "fits": [_json_value(v) for v in self.fitting],
                               "verdicts": [v.to_dict() for v in self.verdicts]}
        if self.span is not None:
            out["span"] = {"low": self.span[0], "high": self.span[1]}
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class PresetReport:
    name: str
    fits: bool
    games: int
    all_counted: bool
    evidence: tuple[Evidence, ...]
    differs: tuple[str, ...]
    """Fields whose value in this preset does not fit."""
    adjusted: dict[str, Any] | None
    """The spec of this preset with the fewest overrides that fits as well as the fitted rule set."""

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.name, "fits": self.fits, "games": self.games, "all_counted": self.all_counted,
                "differs": list(self.differs), "adjusted": self.adjusted,
                "evidence": [e.to_dict() for e in self.evidence]}


@dataclass(frozen=True)
class Inference:
    """Which rule sets a corpus is consistent with."""

    games: int
    hands: int
    best: Rules
    """The fitted rule set: a value that fits for every field."""
    unexplained: tuple[Evidence, ...]
    """Violations no tried rule set removes (a few; ``unexplained_count`` counts them all)."""
    unexplained_count: int
    unexplained_games: int
    fields: tuple[FieldReport, ...]
    presets: tuple[PresetReport, ...]

    @property
    def suggestion(self) -> dict[str, Any]:
        """The shortest ``{"preset": ..., overrides}`` that fits as well as the fitted rule set."""
        specs = [p.adjusted for p in self.presets if p.adjusted is not None]
        return min(specs or [self.best.to_spec()], key=len)

    def field(self, name: str) -> FieldReport:
        return next(f for f in self.fields if f.field == name)

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "hands": self.hands, "suggestion": self.suggestion,
                "fitted": self.best.to_dict(),
                "unexplained": {"violations": self.unexplained_count, "games": self.unexplained_games,
                                "examples": [e.to_dict() for e in self.unexplained]},
                "presets": [p.to_dict() for p in self.presets],
                "fields": [f.to_dict() for f in self.fields]}


def _json_value(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# -- replaying a corpus under a rule set -------------------------------------------------
class _Corpus:
    """The games, and each game's violations under every rule set tried (cached: rule sets are values).

    Costs are sums over games, so a candidate is dropped as soon as its partial
    sum can no longer beat the best (branch and bound), and a value is ruled out
    as soon as a few games show violations it adds.
    """

    def __init__(self, games: Sequence[tuple[str, GameRecord]]):
        self.games = list(games)
        self._keys: dict[Rules, list[frozenset[Key] | None]] = {}
        self._results: tuple[Rules, tuple[GameResult | None, ...]] | None = None

    def _replay(self, rules: Rules, index: int) -> GameResult | RuleError:
        game = self.games[index][1]
        try:
            rules.table(game.seats)
        except RuleError as error:
            return error
        return replay_game(dataclasses.replace(game, rules=rules))

    @staticmethod
    def _keys_of(index: int, replayed: GameResult | RuleError) -> frozenset[Key]:
        if isinstance(replayed, RuleError):
            return frozenset({(index, None, None, None, UNPLAYABLE)})
        return frozenset((index, v.hand, v.trick, v.seat, v.code) for v in replayed.violations)

    def keys(self, rules: Rules, index: int) -> frozenset[Key]:
        per_game = self._keys.setdefault(rules, [None] * len(self.games))
        found = per_game[index]
        if found is None:
            found = per_game[index] = self._keys_of(index, self._replay(rules, index))
        return found

    def all_keys(self, rules: Rules) -> frozenset[Key]:
        return frozenset().union(*(self.keys(rules, i) for i in range(len(self.games))))

    def results(self, rules: Rules) -> tuple[GameResult | None, ...]:
        """Every game's full replay under ``rules`` (kept for one rule set at a time: they are large)."""
        if self._results is None or self._results[0] != rules:
            replayed = [self._replay(rules, i) for i in range(len(self.games))]
            per_game = self._keys.setdefault(rules, [None] * len(self.games))
            for index, item in enumerate(replayed):
                per_game[index] = self._keys_of(index, item)
            self._results = (rules, tuple(None if isinstance(r, RuleError) else r for r in replayed))
        return self._results[1]

    def cost(self, rules: Rules, bound: int | None = None) -> int | None:
        """The number of violations (an unplayable game counts :data:`UNPLAYABLE_COST`), or ``None``
        as soon as it reaches ``bound``."""
        total = 0
        for index in range(len(self.games)):
            keys = self.keys(rules, index)
            total += UNPLAYABLE_COST if (index, None, None, None, UNPLAYABLE) in keys else len(keys)
            if bound is not None and total >= bound:
                return None
        return total

    def evidence(self, rules: Rules, index: int, keys: Iterable[Key]) -> list[Evidence]:
        source, game = self.games[index]
        replayed = self._replay(rules, index)
        if isinstance(replayed, RuleError):
            return [Evidence(source, game.game_id, None, None, None, UNPLAYABLE, str(replayed))]
        wanted = set(keys)
        return [Evidence(source, game.game_id, v.hand, v.trick, v.seat, v.code, v.message)
                for v in replayed.violations if (index, v.hand, v.trick, v.seat, v.code) in wanted]

    def added(self, rules: Rules, base: Rules, limit: int | None = EXAMPLES) -> tuple[int, bool, tuple[Evidence, ...]]:
        """``(games, all_counted, evidence)``: games where ``rules`` adds violations to ``base``'s.

        Stops after ``limit`` such games (``all_counted`` is then false); the
        evidence is the first added violation of each.
        """
        games = 0
        examples: list[Evidence] = []
        for index in range(len(self.games)):
            extra = self.keys(rules, index) - self.keys(base, index)
            if not extra:
                continue
            games += 1
            if len(examples) < EXAMPLES:
                first = min(extra, key=_order)
                examples.extend(self.evidence(rules, index, [first])[:1])
            if limit is not None and games >= limit and index < len(self.games) - 1:
                return games, False, tuple(examples)
        return games, True, tuple(examples)


def _order(key: Key) -> tuple:
    """Corpus order, a play's violation before the hand's score, hands before the game's end."""
    return tuple(1 << 30 if part is None else part for part in key[:4]) + (key[4],)


# -- candidate values -------------------------------------------------------------------
def _removed_candidates(corpus: _Corpus) -> list[tuple[str, ...] | None]:
    """``None`` (by player count) and every removed set the deals show."""
    seen: Counter = Counter()
    for _, game in corpus.games:
        dealt = 0
        for hand in game.hands:
            for cards in hand.deal or ():   # a score sheet's hand has no deal
                dealt |= mask_of(cards or ())
        if game.hands:
            seen[tuple(card_name(c) for c in iter_cards(DECK & ~dealt))] += 1
    return [None] + [removed for removed, _ in seen.most_common(3)]


def _pass_count_candidates(corpus: _Corpus) -> list[int]:
    seen: Counter = Counter()
    for _, game in corpus.games:
        for hand in game.hands:
            for cards in hand.passes or ():
                if cards:
                    seen[len(cards)] += 1
    return _unique([3, 0] + [count for count, _ in seen.most_common(3)])


def _cycle_candidates(corpus: _Corpus) -> list[tuple[str, ...] | None]:
    """Known cycles plus the shortest cycles that every hand's possible directions agree with."""
    allowed = [(number, directions) for _, game in corpus.games
               for number, hand in enumerate(game.hands, 1)
               for directions in [_possible_directions(hand, game.seats)] if directions]
    derived: list[tuple[str, ...]] = []
    for length in range(1, MAX_CYCLE + 1):
        positions = [set(PASS_DIRECTIONS) for _ in range(length)]
        for number, directions in allowed:
            positions[(number - 1) % length] &= directions
        if any(not p for p in positions):
            continue
        ordered = [sorted(p, key=PASS_DIRECTIONS.index) for p in positions]
        for cycle in itertools.islice(itertools.product(*ordered), MAX_DERIVED_CYCLES):
            if not any(cycle == cycle[:m] * (length // m) for m in range(1, length) if length % m == 0):
                derived.append(cycle)
    return _unique(list(KNOWN_CYCLES) + derived[:MAX_DERIVED_CYCLES])


def _possible_directions(hand: HandRecord, seats: int) -> set[str]:
    """Directions a hand's record allows: the stated one, or those that send each passed card to
    the seat that later plays it. Only proposes cycles; the replay decides."""
    if hand.pass_direction is not None:
        return {hand.pass_direction}
    if not hand.passes or not any(hand.passes):
        return {"hold"}
    played_by = {card: seat for seat, card in hand.plays}
    table = Rules().table(seats)
    directions = ("left", "right", "across") if seats % 2 == 0 else ("left", "right")

    def fits(direction: str) -> bool:
        to = [table.pass_target(seat, direction) for seat in range(seats)]
        return all(played_by.get(card, to[seat]) == to[seat] for seat, cards in enumerate(hand.passes)
                   for card in cards or ())
    return {direction for direction in directions if fits(direction)}


def _unique(values: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def _recorded_points(results: Sequence[GameResult | None]) -> Iterable[tuple[Any, tuple[int, ...]]]:
    """``(HandResult, recorded points)`` for every hand whose points the record states or implies."""
    for result in results:
        if result is None:
            continue
        previous: tuple[int, ...] | None = (0,) * result.record.seats
        for hand, record in zip(result.hands, result.record.hands):
            points = record.points
            if points is None and record.totals is not None and previous is not None:
                points = tuple(a - b for a, b in zip(record.totals, previous))
            previous = record.totals
            if points is not None:
                yield hand, points


def _implied_jack(results: Sequence[GameResult | None], base: Rules) -> list[int]:
    """JD's value from the recorded points of the seat that took it (moon or not, it keeps JD)."""
    seen: Counter = Counter()
    for hand, points in _recorded_points(results):
        for seat, taken in enumerate(hand.taken):
            if taken >> JD & 1:
                seen[points[seat] - (hand.points[seat] - base.jack_of_diamonds)] += 1
    return [value for value, _ in seen.most_common(4)]


def _implied_no_tricks(results: Sequence[GameResult | None], base: Rules) -> list[int]:
    """The bonus from the recorded points of seats that took no trick, in hands without a moon."""
    seen: Counter = Counter()
    for hand, points in _recorded_points(results):
        if hand.moon is None:
            for seat, won in enumerate(hand.tricks_won):
                if not won:
                    seen[points[seat] - (hand.points[seat] - base.no_tricks_bonus)] += 1
    return [value for value, _ in seen.most_common(4)]


def _target_span(results: Sequence[GameResult | None], end_at: str) -> tuple[int, int | None]:
    """The targets under which no game ends early and every game marked complete has ended."""
    low, high = 1, None
    for result in results:
        if result is None or not result.hands:
            continue
        peaks = [max(hand.totals) for hand in result.hands]
        before = max(peaks[:-1], default=None)
        if before is not None:
            low = max(low, before + 1 if end_at == "reach" else before)
        if result.record.complete:
            last = peaks[-1] if end_at == "reach" else peaks[-1] - 1
            high = last if high is None else min(high, last)
    return low, high


def _roundest(low: int, high: int | None, prefer: int) -> int:
    """A target to try in ``[low, high]``: ``prefer`` if inside, else the roundest number."""
    if low <= prefer and (high is None or prefer <= high):
        return prefer
    top = high if high is not None else low + 99
    for step in (100, 50, 25, 10, 5, 1):
        first = -(-low // step) * step
        if first <= top:
            return first
    return low


# -- the search -----------------------------------------------------------------------------
def _best(corpus: _Corpus, base: Rules, options: Iterable[Rules], neutral: list[Rules] | None = None) -> Rules:
    """The option with the fewest violations; ``base`` wins ties, which are collected in ``neutral``."""
    best, cost = base, corpus.cost(base)
    for option in options:
        if not cost:
            break
        option_cost = corpus.cost(option, bound=cost + 1)
        if option_cost is None or option == best:
            continue
        if option_cost < cost:
            best, cost = option, option_cost
            if neutral is not None:
                neutral.clear()
        elif neutral is not None and best == base:
            neutral.append(option)
    return best


def _changes(rules: Rules, base: Rules) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in RULE_FIELDS if getattr(rules, name) != getattr(base, name)}


def _best_pair(corpus: _Corpus, base: Rules, neutral: list[Rules]) -> Rules:
    """Two fields that only matter together (QS not breaking hearts *and* a hearts-only lead ending the
    hand): each change alone costs nothing, both together remove violations."""
    moves = [_changes(option, base) for option in neutral[:MAX_NEUTRAL]]
    pairs = (base.replace(**a, **b) for a, b in itertools.combinations(moves, 2) if not a.keys() & b.keys())
    return _best(corpus, base, pairs)


def _field_options(corpus: _Corpus, base: Rules, name: str) -> list[Rules]:
    if name == "removed_cards":
        values: list[Any] = _removed_candidates(corpus)
    elif name == "pass_count":
        values = _pass_count_candidates(corpus)
    elif name == "pass_cycle":
        values = _cycle_candidates(corpus)
    elif name == "jack_of_diamonds":
        values = _unique(_PRESET_NUMBERS[name] + _implied_jack(corpus.results(base), base))
    elif name == "no_tricks_bonus":
        values = _unique(_PRESET_NUMBERS[name] + _implied_no_tricks(corpus.results(base), base))
    else:
        values = list(CHOICES[name])
    return [base.replace(**{name: value}) for value in values]


def _ending_options(corpus: _Corpus, base: Rules) -> list[Rules]:
    results = corpus.results(base)
    options = []
    for end_at in END_AT:
        low, high = _target_span(results, end_at)
        if high is None or low <= high:
            options.append(base.replace(end_at=end_at, target=_roundest(low, high, base.target)))
        options.append(base.replace(end_at=end_at))
    return options


SEARCH_ORDER = ("removed_cards", "pass_count", "pass_cycle", "first_lead", "points_on_first_trick",
                "hearts_must_be_broken", "hearts_broken_by", "only_hearts_lead", "moon",
                "queen_of_clubs_cancels_queen", "jack_of_diamonds", "no_tricks_bonus")


def _fit(corpus: _Corpus) -> Rules:
    base = _best(corpus, Rules.from_spec("standard"), (Rules.from_spec(name) for name in PRESETS))
    for _ in range(MAX_ROUNDS):
        before = base
        neutral: list[Rules] = []
        for name in SEARCH_ORDER:
            if not corpus.cost(base):
                break
            base = _best(corpus, base, _field_options(corpus, base, name), neutral)
        base = _best(corpus, base, _ending_options(corpus, base), neutral)
        if base == before and corpus.cost(base):
            base = _best_pair(corpus, base, neutral)
        if base == before:
            break
    return base


def infer_rules(games: Iterable[tuple[str, GameRecord]], count_all: bool = False) -> Inference:
    """Judge every rule field's values and every preset against the games ``(source, record)``.

    A value is ruled out after the first few games that show it wrong, unless
    ``count_all`` asks for the number of every such game.
    """
    return _infer(_Corpus(games), None if count_all else EXAMPLES)


def _infer(corpus: _Corpus, limit: int | None) -> Inference:
    best = _fit(corpus)
    reports = [_field_report(corpus, best, name, limit) for name in RULE_FIELDS if name not in ("target", "end_at")]
    reports += _ending_reports(corpus, best, limit)
    by_name = {r.field: r for r in reports}
    presets = []
    for name in PRESETS:
        rules = Rules.from_spec(name)
        games, all_counted, evidence = corpus.added(rules, best, limit)
        differs = tuple(f for f in RULE_FIELDS if f != "target" and getattr(rules, f) not in by_name[f].fitting)
        low, high = by_name["target"].span
        if not (low <= rules.target and (high is None or rules.target <= high)):
            differs += ("target",)
        presets.append(PresetReport(name, not games, games, all_counted, evidence, differs,
                                    _adjusted(corpus, rules, best, differs)))
    unexplained = sorted(corpus.all_keys(best), key=_order)
    examples: list[Evidence] = []
    for key in unexplained[:EXAMPLES * 3]:
        examples.extend(corpus.evidence(best, key[0], [key])[:1])
    return Inference(
        games=len(corpus.games), hands=sum(len(g.hands) for _, g in corpus.games), best=best,
        unexplained=tuple(examples), unexplained_count=len(unexplained),
        unexplained_games=len({k[0] for k in unexplained}),
        fields=tuple(by_name[name] for name in RULE_FIELDS), presets=tuple(presets))


@dataclass(frozen=True)
class NamedRuleSet:
    """The games that name one rule set: which of them break it, and which rules they fit."""

    rules: Rules
    named: bool
    """Whether the records name it (else they name no rules, and ``standard`` applies)."""
    games: int
    hands: int
    breaking_games: int
    """Games with a violation under the rules they name."""
    violations: int
    breaking: tuple[Evidence, ...]
    """The first violation of each of the first few games that break their named rules."""
    inference: Inference
    """What rules these games fit, their named rules set aside."""

    def to_dict(self) -> dict[str, Any]:
        return {"named": self.rules.to_spec() if self.named else None, "games": self.games,
                "hands": self.hands, "breaking_games": self.breaking_games, "violations": self.violations,
                "breaking": [e.to_dict() for e in self.breaking], "inference": self.inference.to_dict()}


def infer_named(games: Iterable[tuple[str, GameRecord]], count_all: bool = False) -> tuple[NamedRuleSet, ...]:
    """:func:`infer_rules` for each rule set the records name, most games first, after the games
    that break the rules they name."""
    groups: dict[Rules, list[tuple[str, GameRecord]]] = {}
    named: set[Rules] = set()
    for source, game in games:
        groups.setdefault(game.rules, []).append((source, game))
        if game.rules_spec is not None:
            named.add(game.rules)
    reports = []
    for rules, members in sorted(groups.items(), key=lambda item: -len(item[1])):
        corpus = _Corpus(members)
        found = [corpus.keys(rules, index) for index in range(len(members))]
        breaking = [index for index, keys in enumerate(found) if keys]
        evidence = tuple(e for index in breaking[:EXAMPLES]
                         for e in corpus.evidence(rules, index, [min(found[index], key=_order)])[:1])
        reports.append(NamedRuleSet(rules, rules in named, len(members), sum(len(g.hands) for _, g in members),
                                    len(breaking), sum(map(len, found)), evidence,
                                    _infer(corpus, None if count_all else EXAMPLES)))
    return tuple(reports)


def _adjusted(corpus: _Corpus, preset: Rules, best: Rules, differs: tuple[str, ...]) -> dict[str, Any] | None:
    """The preset with the fitted value of each field it gets wrong, if that fits as well as ``best``."""
    for candidate in (preset.replace(**{f: getattr(best, f) for f in differs}),
                      dataclasses.replace(best, preset=preset.preset)):
        games, _, _ = corpus.added(candidate, best, limit=1)
        if not games and not corpus.added(best, candidate, limit=1)[0]:
            return candidate.to_spec()
    return None


def _verdict(corpus: _Corpus, rules: Rules, best: Rules, value: Any, limit: int | None) -> Verdict:
    games, all_counted, evidence = corpus.added(rules, best, limit)
    return Verdict(value, not games, games, all_counted, evidence)


def _field_report(corpus: _Corpus, best: Rules, name: str, limit: int | None) -> FieldReport:
    options = _unique([best] + _field_options(corpus, best, name))
    verdicts = _unique_verdicts([_verdict(corpus, rules, best, getattr(rules, name), limit) for rules in options])
    note = None
    if name == "jack_of_diamonds" and not _implied_jack(corpus.results(best), best):
        note = "no recorded points show what JD scored: only the listed values were tried"
    if name == "no_tricks_bonus" and not _implied_no_tricks(corpus.results(best), best):
        note = "no hand records the points of a seat that took no trick: only the listed values were tried"
    return FieldReport(name, tuple(verdicts), note=note)


def _unique_verdicts(verdicts: list[Verdict]) -> list[Verdict]:
    out: dict[Any, Verdict] = {}
    for verdict in verdicts:
        out.setdefault(verdict.value, verdict)
    return sorted(out.values(), key=lambda v: not v.fits)


def _ending_reports(corpus: _Corpus, best: Rules, limit: int | None) -> list[FieldReport]:
    """``end_at`` fits where some target makes every game end right; ``target`` as an interval."""
    results = corpus.results(best)
    end_verdicts = []
    for end_at in END_AT:
        low, high = _target_span(results, end_at)
        fits = high is None or low <= high
        trial = best.replace(end_at=end_at, target=_roundest(low, high, best.target) if fits else low)
        end_verdicts.append(_verdict(corpus, trial, best, end_at, limit))
    low, high = _target_span(results, best.end_at)
    tried = _unique([best.target, *_PRESET_NUMBERS["target"], low] + ([high] if high is not None else []))
    target_verdicts = [_verdict(corpus, best.replace(target=t), best, t, limit) for t in tried]
    if high is None:
        note = f"{low} or more (end_at {best.end_at}): no game marked complete bounds it from above"
    elif low == high:
        note = f"exactly {low} (end_at {best.end_at})"
    elif low <= high:
        note = f"any whole number from {low} to {high} (end_at {best.end_at})"
    else:
        note = (f"no target fits under end_at {best.end_at}: some game needs at least {low}, "
                f"a complete game needs at most {high}")
    return [FieldReport("end_at", tuple(_unique_verdicts(end_verdicts))),
            FieldReport("target", tuple(_unique_verdicts(target_verdicts)), span=(low, high), note=note)]


# -- the inference in words -------------------------------------------------------------------
def inference_dict(games: list[tuple[str, GameRecord]], named: tuple[NamedRuleSet, ...],
                   errors: list[dict]) -> dict[str, Any]:
    """``hearts rules --infer --format json``: the games, their hands, each named rule set's inference, and the
    unreadable records' reports."""
    return {"games": len(games), "hands": sum(len(game.hands) for _, game in games),
            "rule_sets": [group.to_dict() for group in named], "errors": errors}


def _games(count: int, all_counted: bool) -> str:
    return f"{count}{'' if all_counted else '+'} game{'s' if count != 1 or not all_counted else ''}"


def _ruled_out(verdict: Verdict, field: str) -> list[str]:
    head = f"not {value_text(field, verdict.value)} ({_games(verdict.games, verdict.all_counted)})"
    example = verdict.evidence[0].text() if verdict.evidence else ""
    return wrap(f"{head}: {example}" if example else head, "      ")


def _field_lines(report: FieldReport) -> list[str]:
    fits = [value_text(report.field, v) for v in report.fitting]
    if report.field == "target" and report.note:
        summary = report.note
    else:
        summary = " | ".join(fits) if fits else "no value tried fits"
    lines = wrap(f"{report.field}: {summary}", "  ")
    if report.note and report.field != "target":
        lines += wrap(f"({report.note})", "      ")
    for verdict in report.verdicts:
        if not verdict.fits:
            lines += _ruled_out(verdict, report.field)
    return lines


def suggestion_command(spec: dict[str, Any]) -> str:
    """The ``--rules`` / ``--set`` options that select a rule set spec.

    >>> suggestion_command({"preset": "omnibus", "pass_cycle": ["left", "hold"], "target": 50})
    '--rules omnibus --set pass_cycle=left,hold --set target=50'
    """
    parts = [f"--rules {spec['preset']}"]
    for key, value in spec.items():
        if key == "preset" or value is None:  # a per-player-count default has no --set spelling
            continue
        text = (",".join(value) if isinstance(value, (list, tuple))
                else str(value).lower() if isinstance(value, bool) else str(value))
        parts.append("--set " + shlex.quote(f"{key}={text}"))
    return " ".join(parts)


def render_named(named: tuple[NamedRuleSet, ...]) -> str:
    """Each named rule set: the games that break it, then what its games fit."""
    blocks = []
    if len(named) > 1:
        blocks.append(f"The records name {len(named)} rule sets; the games of each are judged apart.")
    for group in named:
        spec = orjson.dumps(group.rules.to_spec()).decode()
        head = (f"Rule set {spec}, named by " if group.named else f"No rule set named (so {spec}), by ")
        lines = [head + f"{counted(group.games, 'game')} ({counted(group.hands, 'hand')}):"]
        if group.breaking_games:
            one = group.breaking_games == 1
            lines += wrap(f"{group.breaking_games:,} {'game breaks its' if one else 'games break their'} named rules "
                           f"({group.violations:,} violation{'s' if group.violations != 1 else ''}), e.g.:", "  ")
            for evidence in group.breaking:
                lines += wrap(evidence.text(), "    ")
            lines += wrap("The rules fitted below set the named rules aside: where those violations are "
                           "deliberate, the fitted rules are looser than the games were played under.", "  ")
        else:
            lines.append("  every game keeps the rules it names")
        blocks.append("\n".join(lines) + "\n\n" + render_inference(group.inference))
    return "\n\n".join(blocks)


def render_inference(inference: Inference) -> str:
    """An inference in words: the fitted rule set and the options that audit by it, then each preset and field.

    >>> from hearts_analysis.simulate import simulate_games
    >>> games = [("g.jsonl:1", game) for game in simulate_games(1, Rules.preset("standard", target=30), seed=7)]
    >>> print("\\n".join(render_inference(infer_rules(games)).splitlines()[:4]))
    1 game (3 hands) replayed under candidate rule sets.
    <BLANKLINE>
    Fitted rule set: {"preset":"standard","target":30}
      audit with: hearts validate --rules standard --set target=30 PATH...
    """
    lines = [f"{counted(inference.games, 'game')} ({counted(inference.hands, 'hand')}) replayed under candidate rule sets.", ""]
    spec = inference.suggestion
    lines.append(f"Fitted rule set: {orjson.dumps(spec).decode()}")
    lines.append(f"  audit with: hearts validate {suggestion_command(spec)} PATH...")
    if inference.unexplained_count:
        lines += wrap(f"{inference.unexplained_count:,} violation(s) in {inference.unexplained_games:,} "
                       "game(s) fit no rule set tried (the values below are judged by what they add), e.g.:", "  ")
        for evidence in inference.unexplained[:3]:
            lines += wrap(evidence.text(), "    ")
    else:
        lines.append("  every game is fully legal and correctly scored under it")
    lines += ["", "Presets:"]
    for preset in inference.presets:
        if preset.fits:
            lines.append(f"  {preset.name}: fits")
            continue
        why = f" (wrong {', '.join(preset.differs)})" if preset.differs else ""
        example = f": {preset.evidence[0].text()}" if preset.evidence else ""
        lines += wrap(f"{preset.name}: does not fit{why}, {_games(preset.games, preset.all_counted)}{example}",
                       "  ")
        overrides = {k: v for k, v in (preset.adjusted or {}).items() if k != "preset"}
        if preset.adjusted is not None and preset.adjusted.get("preset") == preset.name and overrides:
            lines += wrap("fits with " + ", ".join(f"{k} {value_text(k, v)}" for k, v in overrides.items()),
                           "      ")
    lines += ["", "Fields (values that fit every game, then each value ruled out with its first evidence):"]
    for report in inference.fields:
        lines += _field_lines(report)
    return "\n".join(map(terminal_safe, lines))
