"""A deliberately naive referee written straight from the rules text, for differential tests.

It shares no code with ``hearts_analysis``: cards are the strings of the record
format (``"QS"``), hands are Python sets, and every rule is spelled out as a
plain condition rather than a cascade of masks. It reads a game in its JSON
form (``game_to_dict``) and the rule fields as a plain dict (``Rules.to_dict()``),
and resolves the per-player-count defaults itself.

``audit`` returns every violation as ``(code, hand, trick, seat, card)`` plus the
points per hand after the moon adjustment; after a violation the card is taken
as played, as the engine does (so later, independent violations are found too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
FULL_DECK = [r + s for s in SUITS for r in RANKS]
DEFAULT_REMOVED = {3: ["2D"], 4: [], 5: ["2D", "2C"], 6: ["2D", "3D", "3C", "4C"], 7: ["2D", "3D", "3C"]}
MOON_CHOICES = ("add_to_others", "subtract_from_shooter")

Found = tuple[str, int | None, int | None, int | None, str | None]


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


def order(card: str) -> tuple[int, int]:
    return SUITS.index(suit(card)), rank(card)


@dataclass
class Audit:
    violations: list[Found] = field(default_factory=list)
    points: list[list[int]] = field(default_factory=list)
    """Points of each hand after the moon adjustment."""
    raw: list[list[int]] = field(default_factory=list)
    """Points of each hand before the moon adjustment (no no-trick bonus in a moon hand)."""
    totals: list[int] = field(default_factory=list)
    complete: bool = False

    @property
    def valid(self) -> bool:
        return not self.violations


class Referee:
    def __init__(self, rules: dict[str, Any], players: int):
        self.rules = rules
        self.n = players
        removed = rules["removed_cards"]
        self.removed = set(DEFAULT_REMOVED[players] if removed is None else removed)
        self.deck = set(FULL_DECK) - self.removed
        self.hand_size = len(self.deck) // players
        cycle = rules["pass_cycle"]
        if cycle is None:
            cycle = ["left", "right", "across", "hold"] if players == 4 else ["left", "right"]
        self.cycle = list(cycle)
        clubs = sorted((c for c in self.deck if suit(c) == "C"), key=rank)
        self.lowest_club = clubs[0] if clubs else None
        self.hearts = {c for c in self.deck if suit(c) == "H"}
        self.moon_cards = self.hearts | ({"QS"} & self.deck)
        self.moon_value = len(self.hearts) + (13 if "QS" in self.deck else 0)

    # -- one hand ---------------------------------------------------------------
    def audit_hand(self, k: int, hand: dict[str, Any], found: list[Found]) -> tuple[list[int], list[int]]:
        n, rules = self.n, self.rules
        # charged cards the rules allow (the others were reported before the hand)
        self.charged = {c for c in hand.get("charged") or [] if c in (rules.get("charges") or [])}
        led_suits: set[str] = set()

        def flag(code: str, trick: int | None = None, seat: int | None = None, card: str | None = None) -> None:
            found.append((code, k, trick, seat, card))

        dealer = hand.get("dealer")
        if dealer is None:
            dealer = (k - 1) % n

        # The deal: equal hands that together are exactly the deck in play.
        owner: dict[str, int] = {}
        for seat, cards in enumerate(hand["deal"]):
            if len(cards) != self.hand_size:
                flag("deal-invalid", seat=seat)
            for card in cards:
                if card in owner:
                    flag("deal-invalid", seat=seat, card=card)
                else:
                    owner[card] = seat
                if card in self.removed:
                    flag("deal-invalid", seat=seat, card=card)
        if self.deck - set(owner):
            flag("deal-invalid")
        holding = [set(cards) for cards in hand["deal"]]

        # The pass.
        if rules["pass_count"] == 0:
            cycle_says = "hold"
        else:
            cycle_says = self.cycle[(k - 1) % len(self.cycle)]
        stated = hand.get("pass_direction")
        passes = hand.get("passes")
        if cycle_says == "any":
            if stated is None and passes and any(passes):
                flag("pass-invalid")
            if stated == "across" and n % 2:
                flag("pass-invalid")
            direction = stated or "hold"
        else:
            if stated is not None and stated != cycle_says:
                flag("pass-invalid")
            direction = stated or cycle_says
        if direction == "hold" or rules["pass_count"] == 0:
            for seat, cards in enumerate(passes or []):
                if cards:
                    flag("pass-invalid", seat=seat)
        else:
            count = rules["pass_count"]
            step = {"left": 1, "right": n - 1, "across": n // 2}[direction]
            gifts: list[set[str]] = []
            for seat in range(n):
                cards = passes[seat] if passes else None
                if cards is None:
                    flag("pass-invalid", seat=seat)
                    gifts.append(set())
                    continue
                if len(cards) != count or len(set(cards)) != len(cards):
                    flag("pass-invalid", seat=seat)
                foreign = set(cards) - holding[seat]
                if foreign:
                    flag("pass-invalid", seat=seat, card=max(foreign, key=order))
                gifts.append(set(cards) & holding[seat])
            for seat in range(n):
                holding[seat] -= gifts[seat]
            for seat in range(n):
                holding[(seat + step) % n] |= gifts[seat]

        # The play.
        if rules["first_lead"] == "left_of_dealer":
            leader = (dealer + 1) % n
        else:
            holders = [s for s in range(n) if self.lowest_club in holding[s]]
            leader = holders[0] if holders else (dealer + 1) % n
        taken = [set() for _ in range(n)]
        tricks = [0] * n
        trick: list[tuple[int, str]] = []
        trick_no = 1
        broken = False
        ended = False
        cards_in_play = sum(len(h) for h in holding)

        def leader_gives_up() -> bool:
            """ends_hand: a leader holding only hearts while hearts are unbroken takes everything left."""
            mine = holding[leader]
            if (rules["only_hearts_lead"] == "ends_hand" and rules["hearts_must_be_broken"] and not broken
                    and mine and all(suit(c) == "H" for c in mine)):
                rest = set().union(*holding)
                taken[leader].update(rest)
                tricks[leader] += len(rest) // n
                for h in holding:
                    h.clear()
                return True
            return False

        ended = leader_gives_up()
        plays = hand["plays"]
        for index, (seat, card) in enumerate(plays):
            if ended or index >= cards_in_play:
                flag("hand-incomplete", trick_no, seat, card)
                break
            turn = (leader + len(trick)) % n
            if seat != turn:
                flag("wrong-first-lead" if trick_no == 1 and not trick else "out-of-turn", trick_no, seat, card)
            if card not in holding[seat]:
                flag("card-not-held", trick_no, seat, card)
            elif seat == turn:
                broken_rule = self.charge_rule(holding[seat], trick, trick_no, broken, card, led_suits)
                if broken_rule:
                    flag(broken_rule, trick_no, seat, card)
            holding[seat].discard(card)
            trick.append((seat, card))
            if len(trick) == n:
                led = suit(trick[0][1])
                led_suits.add(led)
                best = max((c for _, c in trick if suit(c) == led), key=rank)
                winner = next(s for s, c in trick if c == best)
                taken[winner].update(c for _, c in trick)
                tricks[winner] += 1
                if any(suit(c) == "H" for _, c in trick):
                    broken = True
                if rules["hearts_broken_by"] == "heart_or_queen" and any(c == "QS" for _, c in trick):
                    broken = True
                trick = []
                trick_no += 1
                leader = winner
                ended = leader_gives_up()
        else:
            if not ended and len(plays) < cards_in_play:
                flag("hand-incomplete", trick_no)

        return self.score(k, hand, taken, tricks, flag)

    def charge_rule(self, hand: set[str], trick: list[tuple[int, str]], trick_no: int, broken: bool, card: str,
                    led_suits: set[str]) -> str | None:
        """:meth:`broken_rule`, then: a charged card waits for the first trick of its suit while the seat
        has another card those rules allow (led: not an unled charged card; followed: not charged)."""
        found = self.broken_rule(hand, trick, trick_no, broken, card)
        if found or card not in self.charged or not self.rules.get("charged_cards_wait", True):
            return found
        allowed = [c for c in hand if self.broken_rule(hand, trick, trick_no, broken, c) is None]
        if not trick:
            unled = {c for c in self.charged if suit(c) not in led_suits}
            if card in unled and any(c not in unled for c in allowed):
                return "charge-invalid"
        else:
            led = suit(trick[0][1])
            if (suit(card) == led and led not in led_suits and any(suit(c) == led for c in hand)
                    and any(c not in self.charged for c in allowed)):
                return "charge-invalid"
        return None

    def broken_rule(self, hand: set[str], trick: list[tuple[int, str]], trick_no: int, broken: bool,
                    card: str) -> str | None:
        """The rule a play of ``card`` (held, in turn) breaks, if any, read straight from the rules text."""
        rules = self.rules
        is_points = suit(card) == "H" or card == "QS"
        if not trick:  # a lead
            if trick_no == 1 and rules["first_lead"] == "lowest_club":
                if self.lowest_club in hand and card != self.lowest_club:
                    return "wrong-first-lead"
            if trick_no == 1 and rules["first_lead"] == "any_club":
                if suit(card) != "C" and any(suit(c) == "C" for c in hand):
                    return "wrong-first-lead"
            if trick_no == 1 and not rules["points_on_first_trick"] and is_points:
                if any(not (suit(c) == "H" or c == "QS") for c in hand):
                    return "points-on-first-trick"
            if rules["hearts_must_be_broken"] and not broken and suit(card) == "H":
                if rules["only_hearts_lead"] == "allowed":
                    if any(suit(c) != "H" and c != "QS" for c in hand):
                        return "hearts-not-broken"
                elif any(suit(c) != "H" for c in hand):
                    return "hearts-not-broken"
            return None
        led = suit(trick[0][1])
        same_suit = [c for c in hand if suit(c) == led]
        if same_suit and suit(card) != led:
            return "revoke"
        if trick_no == 1 and not rules["points_on_first_trick"] and is_points:
            choices = same_suit or list(hand)
            if any(not (suit(c) == "H" or c == "QS") for c in choices):
                return "points-on-first-trick"
        return None

    # -- scoring ------------------------------------------------------------------
    def score(self, k: int, hand: dict[str, Any], taken: list[set[str]], tricks: list[int], flag):
        rules, n = self.rules, self.n
        shooter = None
        if rules["moon"] != "none" and self.moon_cards:
            # only a corrupt record (a card played twice) lets two seats take every point card:
            # the lowest such seat is the shooter, as in the engine
            shooters = [seat for seat in range(n) if self.moon_cards <= taken[seat]]
            shooter = shooters[0] if shooters else None

        def plain(seat: int, bonus: bool) -> int:
            got = taken[seat]
            double = {c: 2 if c in self.charged else 1 for c in ("AH", "QS", "JD")}
            pts = sum(double["AH"] for c in got if suit(c) == "H")
            if "QS" in got and not (rules["queen_of_clubs_cancels_queen"] and "QC" in got):
                pts += 13 * double["QS"]
            if "JD" in got:
                pts += rules["jack_of_diamonds"] * double["JD"]
            if bonus and tricks[seat] == 0:
                pts += rules["no_tricks_bonus"]
            return pts

        recorded_choice = hand.get("moon")
        recorded_points = hand.get("points")
        if shooter is None:
            raw = [plain(s, True) for s in range(n)]
            points = list(raw)
        else:
            raw = [plain(s, False) for s in range(n)]

            def moon_score(choice: str) -> list[int]:
                jack = rules["jack_of_diamonds"] * (2 if "JD" in self.charged else 1)
                value = (len(self.hearts) * (2 if "AH" in self.charged else 1)
                         + (13 * (2 if "QS" in self.charged else 1) if "QS" in self.deck else 0))
                out = [jack if "JD" in taken[s] else 0 for s in range(n)]
                for s in range(n):
                    if choice == "subtract_from_shooter" and s == shooter:
                        out[s] -= value
                    if choice == "add_to_others" and s != shooter:
                        out[s] += value
                return out

            if rules["moon"] != "shooter_choice":
                choice = rules["moon"]
            elif recorded_choice is not None:
                choice = recorded_choice
            else:
                def scored(c: str) -> list[int]:
                    mult = rules.get("ten_of_clubs", 1) * (2 if "TC" in self.charged else 1)
                    return [p * mult if "TC" in taken[s] else p for s, p in enumerate(moon_score(c))]
                fits = [c for c in MOON_CHOICES if recorded_points is not None and scored(c) == list(recorded_points)]
                choice = fits[0] if len(fits) == 1 else "add_to_others"
            points = moon_score(choice)

        # TC multiplies its taker's points, moon or not (twice as much when charged)
        multiplier = rules.get("ten_of_clubs", 1) * (2 if "TC" in self.charged else 1)
        if multiplier != 1:
            raw = [p * multiplier if "TC" in taken[s] else p for s, p in enumerate(raw)]
            points = [p * multiplier if "TC" in taken[s] else p for s, p in enumerate(points)]
        if shooter is not None and rules["moon"] == "shooter_gains_fourfold":
            points[shooter] = -4 * abs(raw[shooter])  # Trend Hearts: four times the deal score, as a gain
        if recorded_choice is not None:
            if shooter is None:
                flag("moon-choice-invalid")
            elif rules["moon"] != "shooter_choice" and recorded_choice != rules["moon"]:
                flag("moon-choice-invalid", seat=shooter)
        if recorded_points is not None:
            for seat in range(n):
                if recorded_points[seat] != points[seat]:
                    flag("points-mismatch", seat=seat)
        return raw, points


def _over(rules: dict[str, Any], totals: list[int], deals: int) -> bool:
    if rules.get("deals_per_game"):
        return deals >= rules["deals_per_game"]
    if rules["end_at"] == "exceed":
        return any(t > rules["target"] for t in totals)
    return any(t >= rules["target"] for t in totals)


def audit(game: dict[str, Any], rules: dict[str, Any]) -> Audit:
    """Every violation of a game (JSON form) under the rule fields, and its scores."""
    n = len(game["players"])
    referee = Referee(rules, n)
    result = Audit(totals=[0] * n)
    carried = [0] * n
    ended_after = None
    # an importer's list of what the engine does not model: notes, not violations (the game stays valid)
    for k, hand in enumerate(game["hands"], 1):
        found: list[Found] = []
        if hand.get("charged") and not rules.get("charges"):  # a charge under rules without charging
            # (the seat that held the card after the pass: in these records, the one that played it)
            found += [("charge-invalid", k, None, next((s for s, p in hand["plays"] if p == c), None), c)
                      for c in hand["charged"]]
        raw, points = referee.audit_hand(k, hand, found)
        if ended_after is not None and k == ended_after + 1:
            found.append(("game-continued", k, None, None, None))
        result.totals = [t + p for t, p in zip(result.totals, points)]
        recorded_totals = hand.get("totals")
        if recorded_totals is not None:
            for seat in range(n):
                off = recorded_totals[seat] - result.totals[seat]
                if off != 0 and off != carried[seat]:
                    found.append(("totals-mismatch", k, None, seat, None))
                carried[seat] = off
        if ended_after is None and _over(rules, result.totals, k):
            ended_after, final = k, list(result.totals)
        result.violations += found
        result.points.append(points)
        result.raw.append(raw)
    result.complete = ended_after is not None
    if result.complete:  # the standings when the game ended: a hand played after it does not count
        result.totals = final
    if game.get("complete") is True and ended_after is None:
        result.violations.append(("game-over-early", None, None, None, None))
    if game.get("winners") is not None:  # the winners are the lowest when the game ended; before it, nobody
        lowest = min(result.totals)
        right = {game["players"][s] for s in range(n) if result.totals[s] == lowest} if result.complete else set()
        if set(game["winners"]) != right:
            result.violations.append(("winner-mismatch", ended_after or len(game["hands"]) or None, None, None, None))
    return result
