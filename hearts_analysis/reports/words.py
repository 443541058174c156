"""Rules, cards and places in plain words, for people reading a report.

A report tells its reader the rules of the table it shows, so the sentences
follow the rule set and the number of players:

>>> from hearts_analysis.rules import Rules
>>> rules_in_words(Rules.preset("standard"), 3)[0]
'3 players, 17 cards each; 2D removed from the deck.'
>>> rules_in_words(Rules.preset("omnibus"), 4)[6]
'Each heart scores 1 point, QS 13, JD −10 points.'
>>> card_parts("QS")["label"], joined(["ann", "bob", "cy"]), ordinal(22)
('queen of spades', 'ann, bob and cy', '22nd')
"""

from __future__ import annotations

from ..cards import Card, CardError, card_name, parse_card, rank_of, suit_of
from ..rules import ANY_DIRECTION, FOURFOLD, PRESETS, QUEEN_POINTS, RULE_TABLE, Rules

_DISPLAY_SUIT_ORDER = {0: 0, 1: 1, 3: 2, 2: 3}
"""Clubs, diamonds, spades, hearts: black and red alternate in a displayed hand."""


def display_order(card: Card) -> tuple[int, int]:
    return _DISPLAY_SUIT_ORDER[suit_of(card)], rank_of(card)


def _points(n: int) -> str:
    return f"{n:+d} points".replace("-", "\u2212")


def rules_in_words(rules: Rules, players: int) -> list[str]:
    """One sentence per rule that matters at this table, in the order a player needs them.

    A field of named values (and a flag, where a page speaks of it) says its value in the sentence the
    rule-field table gives it
    (:data:`~hearts_analysis.rules.RULE_TABLE`), with this table's facts filled in; the numbers
    (QS's points, the moon's total, the fourfold moon) come from the rules module, never retyped.
    """
    table = rules.table(players)
    r = rules
    facts = {"card": card_name(table.lowest_club) if table.lowest_club is not None else "",
             "total": table.point_total, "fourfold": FOURFOLD, "target": r.target}

    def said(name: str) -> str:
        return RULE_TABLE[name].sentence(getattr(r, name), **facts)

    lines = [f"{players} players, {table.hand_size} cards each"
             + (f"; {', '.join(table.removed_cards)} removed from the deck" if table.removed_cards else "") + "."]
    if r.pass_count == 0:
        lines.append("No passing.")
    elif table.pass_cycle == (ANY_DIRECTION,):
        lines.append(f"Each seat passes {r.pass_count} cards; each hand's direction is drawn and recorded.")
    else:
        lines.append(f"Each seat passes {r.pass_count} cards: {', '.join(table.pass_cycle)}, then the cycle repeats.")
    lines.append(said("first_lead"))
    lines.append(said("points_on_first_trick"))
    if r.hearts_must_be_broken:
        lines.append(said("hearts_broken_by"))
        lines.append(said("only_hearts_lead"))
    else:
        lines.append(said("hearts_must_be_broken"))
    scoring = f"Each heart scores 1 point, QS {QUEEN_POINTS}"
    if r.jack_of_diamonds:
        scoring += f", JD {_points(r.jack_of_diamonds)}"
    lines.append(scoring + ".")
    if r.ten_of_clubs != 1:
        lines.append(f"The player who takes TC has its points for the hand multiplied by {r.ten_of_clubs}.")
    if r.charges:
        doubled = {"AH": "AH doubles every heart", "QS": f"QS scores {2 * QUEEN_POINTS}",
                   "JD": f"JD scores {_points(2 * r.jack_of_diamonds)}" if r.jack_of_diamonds else "JD doubles",
                   "TC": f"TC multiplies by {2 * r.ten_of_clubs}"}
        lines.append(f"After the pass, a player may charge (expose) {joined(list(r.charges))}: "
                     + "; ".join(doubled[c] for c in r.charges) + ".")
        lines.append(said("charged_cards_wait"))
    if r.queen_of_clubs_cancels_queen:
        lines.append(said("queen_of_clubs_cancels_queen"))
    moons = r.moon != "none"
    if r.no_tricks_bonus:
        lines.append(f"A player who takes no trick scores {_points(r.no_tricks_bonus)}"
                     + (", unless someone shot the moon." if moons else "."))
    moon = said("moon")
    if r.charges and r.moon in ("add_to_others", "subtract_from_shooter", "shooter_choice"):
        moon = moon[:-1] + " (charged cards doubling it)."
    lines.append(moon)
    if moons and r.jack_of_diamonds:
        lines.append("In a moon hand JD still scores for the player who took it.")
    if r.claims:
        lines.append(said("claims"))
    if r.deals_per_game:
        lines.append(f"A game is {r.deals_per_game} deals, whatever the totals; the lowest total wins.")
    else:
        lines.append(said("end_at"))
    return lines


def preset_note(rules: Rules) -> str:
    preset = PRESETS.get(rules.preset)
    return preset.source if preset else ""


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def joined(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


_SUIT_WORDS = (("\u2663", "clubs"), ("\u2666", "diamonds"), ("\u2665", "hearts"), ("\u2660", "spades"))
_RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


def card_parts(text: str) -> dict[str, str] | None:
    """What a card shows: rank, suit symbol, suit letter and a spoken label; ``None`` if not a card."""
    try:
        card = parse_card(text)
    except CardError:
        return None
    name = card_name(card)
    symbol, suit = _SUIT_WORDS[suit_of(card)]
    return {"name": name, "rank": "10" if name[0] == "T" else name[0], "symbol": symbol, "suit": name[1],
            "label": f"{_RANK_WORDS[rank_of(card)]} of {suit}"}


def cost_words(d: dict) -> str:
    """A decision's cost as shown: ``4.2 ± 0.6``, or both models' figures (``6.8-13.7``) where the
    second model, which confirms a flag, finds a cost outside the first one's margin. The first is the
    cost its reason adds up to.

    >>> cost_words({"cost": 4.2, "margin": 0.6, "other_cost": 4.5})
    '4.2 ± 0.6'
    >>> cost_words({"cost": 13.7, "margin": 1.1, "other_cost": 6.8})
    '6.8-13.7 (two models)'
    """
    cost, margin, other = d["cost"], d["margin"], d.get("other_cost")
    if other is None or abs(other - cost) <= margin:
        return f"{cost:.1f} \u00b1 {margin:.1f}"
    low, high = sorted((cost, other))
    return f"{low:.1f}-{high:.1f} (two models)"
