"""Hand-checked cases for every rule field, replayed through the engine.

Most hands use a tiny deck (``tiny_rules`` removes every card not dealt), so a
whole hand is three or four readable tricks; full-deck hands give each seat a
whole suit (``full_deal``), where seat 0 leads clubs and wins every trick.
"""

import pytest

from hearts_analysis.cards import card_name, mask_of, names, parse_card
from hearts_analysis.engine import HandState, replay_game, score_hand
from hearts_analysis.rules import Rules

from conftest import cards, full_deal, game, hand, located, tiny_rules


def mask(text: str) -> int:
    return mask_of(cards(text))


def state_for(rules: Rules, deal: list[str], dealer: int = 0, prefix: str = "") -> HandState:
    """A hand in play after the plays of ``prefix`` (no passing)."""
    table = rules.table(len(deal))
    hands = [mask(d) for d in deal]
    state = HandState(table, hands, HandState.first_leader_for(table, hands, dealer))
    for token in prefix.split():
        seat, _, card = token.partition(":")
        state.push(int(seat), parse_card(card))
    return state


def legal(state: HandState, seat: int | None = None) -> list[str]:
    return names(state.legal_cards(seat))


def clean(g) -> None:
    result = replay_game(g)
    assert located(result) == []
    return result


# A complete four-seat hand of four tricks (tiny deck: QC JD QS and four hearts):
# T1 AC wins (takes QC); T2 KD wins (JD falls); T3 seat 2 must lead 3S (5H: unbroken),
# seat 3 discards 8H and KS wins it; T4 4H led, 6H wins 4H 5H 6H and QS.
SCORE_DEAL = ["2C 5D QS 9S", "3C JD 4H KS", "QC KD 5H 3S", "AC 7D 6H 8H"]
SCORE_PLAY = "0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"


def test_a_plain_tiny_hand_replays_clean_and_scores():
    result = clean(game(SCORE_DEAL, SCORE_PLAY, rules=tiny_rules(SCORE_DEAL), points=(0, 1, 0, 16)))
    (h,) = result.hands
    assert h.trick_winners == (3, 2, 1, 3)
    assert h.tricks_won == (0, 1, 1, 2)
    assert h.points == h.raw_points == (0, 1, 0, 16)
    assert h.moon is None
    assert names(h.taken[3]) == names(mask("2C 3C QC AC 4H 5H 6H QS"))
    assert legal(state_for(tiny_rules(SCORE_DEAL), SCORE_DEAL, prefix="0:2C 1:3C 2:QC 3:AC  3:7D 0:5D 1:JD 2:KD")) == ["3S"]


# -- removed_cards ---------------------------------------------------------------
def test_a_removed_card_in_the_deal_is_flagged_and_a_missing_one_too():
    deck = set(" ".join(SCORE_DEAL).split())
    removed = [c for c in map(card_name, range(52)) if c not in deck and c != "TS"] + ["5D"]
    rules = Rules.preset("standard", pass_count=0, removed_cards=removed)
    result = replay_game(game(SCORE_DEAL, SCORE_PLAY, rules=rules, points=(0, 1, 0, 16)))
    # 5D is removed but dealt to seat 0; TS is in the deck but nobody was dealt it
    assert located(result) == [("deal-invalid", 1, None, 0, "5D"), ("deal-invalid", 1, None, None, None)]
    assert "TS was not dealt" in result.violations[1].message


# -- first_lead --------------------------------------------------------------------
def test_lowest_club_holder_must_lead_it():
    deal = ["3C 5D QS", "2C 6D 4H", "4C KD 5H", "AC 7D 6H"]
    rules = tiny_rules(deal)
    state = state_for(rules, deal)
    assert state.leader == 1 and legal(state) == ["2C"]
    result = replay_game(game(deal, "1:6D 2:KD 3:7D 0:5D", rules=rules))
    assert located(result)[0] == ("wrong-first-lead", 1, 1, 1, "6D")
    result = replay_game(game(deal, "0:3C 1:2C 2:4C 3:AC", rules=rules))
    assert located(result)[0] == ("wrong-first-lead", 1, 1, 0, "3C")


def test_three_of_clubs_leads_where_two_of_clubs_is_removed():
    """Five players: the standard deck drops 2D and 2C, so the holder of 3C leads it."""
    rules = Rules.preset("standard", pass_count=0)
    table = rules.table(5)
    deck = [card_name(c) for c in range(52) if table.deck >> c & 1]
    deck.remove("3C")
    deal = [" ".join(deck[i * 10:(i + 1) * 10]) for i in range(5)]
    deal[3] = " ".join(deal[3].split()[:-1] + ["3C"])
    deal[4] += " " + deck[39]
    hands = [mask(d) for d in deal]
    assert HandState.first_leader_for(table, hands, dealer=0) == 3
    assert legal(HandState(table, hands, 3)) == ["3C"]
    result = replay_game(game(deal, "3:3C", rules=rules))
    assert [v.code for v in result.violations] == ["hand-incomplete"]


def test_any_club_lets_the_holder_lead_any_club():
    deal = ["2C 9C QS", "3C 6D 4H", "4C KD 5H", "AC 7D 6H"]
    rules = tiny_rules(deal, first_lead="any_club")
    state = state_for(rules, deal)
    assert state.leader == 0 and legal(state) == ["2C", "9C"]
    # 9C led, 2C kept for later: legal
    clean(game(deal, "0:9C 1:3C 2:4C 3:AC  3:7D 0:2C 1:6D 2:KD  2:5H 3:6H 0:QS 1:4H", rules=rules))
    result = replay_game(game(deal, "0:QS 1:3C 2:4C 3:AC", rules=rules))
    assert located(result)[0] == ("wrong-first-lead", 1, 1, 0, "QS")


def test_left_of_dealer_leads_any_legal_card():
    deal = ["2C 5D QS", "3C 6D 4H", "4C KD 5H", "AC 7D 6H"]
    rules = tiny_rules(deal, first_lead="left_of_dealer")
    # hand 1: dealer 0 unless recorded, so seat 1 leads; it may lead 3C or 6D, not 4H (points, unbroken)
    assert legal(state_for(rules, deal, dealer=0)) == ["3C", "6D"]
    clean(game(deal, "1:6D 2:KD 3:7D 0:5D  2:4C 3:AC 0:2C 1:3C  3:6H 0:QS 1:4H 2:5H", rules=rules))
    result = replay_game(game(deal, "0:2C 1:3C 2:4C 3:AC", rules=rules))
    assert located(result)[0] == ("wrong-first-lead", 1, 1, 0, "2C")
    # a recorded dealer moves the lead: dealer 2, so seat 3 leads
    clean(game(deal, "3:7D 0:5D 1:6D 2:KD  2:4C 3:AC 0:2C 1:3C  3:6H 0:QS 1:4H 2:5H", rules=rules, dealer=2))


def test_the_dealer_of_hand_k_is_k_minus_1_mod_n():
    deal = ["2C 5D QS", "3C 6D 4H", "4C KD 5H", "AC 7D 6H"]
    rules = tiny_rules(deal, first_lead="left_of_dealer")
    h1 = hand(deal, "1:6D 2:KD 3:7D 0:5D  2:4C 3:AC 0:2C 1:3C  3:6H 0:QS 1:4H 2:5H")
    h2 = hand(deal, "2:4C 3:AC 0:2C 1:3C  3:7D 0:5D 1:6D 2:KD  2:5H 3:6H 0:QS 1:4H")  # dealer 1
    result = clean(game(hands=[h1, h2], rules=rules))
    assert [h.dealer for h in result.hands] == [0, 1]


# -- points_on_first_trick -------------------------------------------------------------
def test_no_points_on_first_trick_for_a_seat_holding_anything_else():
    deal = ["2C 5D 9S", "3C 6D 4H", "QS 8D 5H", "AC 7D 6H"]
    rules = tiny_rules(deal)
    state = state_for(rules, deal, prefix="0:2C 1:3C")
    assert legal(state, 2) == ["8D"]  # void in clubs: not 5H, not QS
    result = replay_game(game(deal, "0:2C 1:3C 2:QS 3:AC", rules=rules))
    assert located(result)[0] == ("points-on-first-trick", 1, 1, 2, "QS")
    result = replay_game(game(deal, "0:2C 1:3C 2:5H 3:AC", rules=rules))
    assert located(result)[0] == ("points-on-first-trick", 1, 1, 2, "5H")


def test_a_seat_holding_nothing_else_may_play_points_on_the_first_trick():
    deal = ["2C 5D 9S", "3C 6D 4H", "QS 7H 5H", "AC 7D 6H"]
    rules = tiny_rules(deal)
    assert legal(state_for(rules, deal, prefix="0:2C 1:3C"), 2) == ["5H", "7H", "QS"]
    clean(game(deal, "0:2C 1:3C 2:QS 3:AC  3:7D 0:5D 1:6D 2:5H  3:6H 0:9S 1:4H 2:7H", rules=rules))


def test_first_trick_spade_lead_keeps_qs_back_while_another_spade_is_held():
    """Under left_of_dealer the first trick can be a spade: QS may not fall while a lower spade is held."""
    deal = ["2C 5S QS", "3C 6S 4H", "4C KS 5H", "AC 7S 6H"]
    rules = tiny_rules(deal, first_lead="left_of_dealer")
    assert legal(state_for(rules, deal, prefix="1:6S 2:KS 3:7S"), 0) == ["5S"]
    result = replay_game(game(deal, "1:6S 2:KS 3:7S 0:QS", rules=rules))
    assert located(result)[0] == ("points-on-first-trick", 1, 1, 0, "QS")


def test_first_trick_leader_under_left_of_dealer_may_not_lead_qs():
    """The first-trick rule covers the lead too: 'no heart and no QS on the first trick' (QS may be led later)."""
    deal = ["2C 5S 9D", "QS 6S 4H", "4C KS 5H", "AC 7S 6H"]
    rules = tiny_rules(deal, first_lead="left_of_dealer")
    assert legal(state_for(rules, deal)) == ["6S"]
    result = replay_game(game(deal, "1:QS 2:KS 3:7S 0:5S", rules=rules))
    assert located(result)[0] == ("points-on-first-trick", 1, 1, 1, "QS")
    assert legal(state_for(rules.replace(points_on_first_trick=True), deal)) == ["6S", "QS"]


def test_points_on_first_trick_true_allows_dumping():
    deal = ["2C 5D 9S", "3C 6D 4H", "QS 8D 5H", "AC 7D 6H"]
    rules = tiny_rules(deal, points_on_first_trick=True)
    assert legal(state_for(rules, deal, prefix="0:2C 1:3C"), 2) == ["8D", "5H", "QS"]
    clean(game(deal, "0:2C 1:3C 2:QS 3:AC  3:7D 0:5D 1:6D 2:8D  2:5H 3:6H 0:9S 1:4H", rules=rules))


# -- hearts_must_be_broken / hearts_broken_by -------------------------------------------------
BREAK_DEAL = ["2C 5D 9S TH", "3C 6D 4H 2S", "4C KD 5H QS", "AC 7D 6H 3S"]


def test_a_heart_may_not_be_led_before_hearts_are_broken():
    rules = tiny_rules(BREAK_DEAL)
    # trick 1 clubs (AC wins); trick 2: seat 3 holds 7D 6H 3S and leads
    state = state_for(rules, BREAK_DEAL, prefix="0:2C 1:3C 2:4C 3:AC")
    assert legal(state) == ["7D", "3S"]
    result = replay_game(game(BREAK_DEAL, "0:2C 1:3C 2:4C 3:AC  3:6H", rules=rules))
    assert located(result)[0] == ("hearts-not-broken", 1, 2, 3, "6H")


def test_hearts_need_not_be_broken_when_the_rule_is_off():
    rules = tiny_rules(BREAK_DEAL, hearts_must_be_broken=False)
    state = state_for(rules, BREAK_DEAL, prefix="0:2C 1:3C 2:4C 3:AC")
    assert legal(state) == ["7D", "6H", "3S"]
    clean(game(BREAK_DEAL, "0:2C 1:3C 2:4C 3:AC  3:6H 0:TH 1:4H 2:5H  0:5D 1:6D 2:KD 3:7D"
                           "  2:QS 3:3S 0:9S 1:2S", rules=rules))


@pytest.mark.parametrize("broken_by, may_lead_heart", [("heart_or_queen", True), ("heart", False)])
def test_qs_breaks_hearts_only_under_heart_or_queen(broken_by, may_lead_heart):
    rules = tiny_rules(BREAK_DEAL, hearts_broken_by=broken_by)
    # trick 2: seat 3 leads 3S, QS falls (seat 2 must follow spades with QS), seat 2 wins and leads trick 3
    state = state_for(rules, BREAK_DEAL, prefix="0:2C 1:3C 2:4C 3:AC  3:3S 0:9S 1:2S 2:QS")
    assert state.leader == 2
    assert ("5H" in legal(state)) is may_lead_heart
    result = replay_game(game(BREAK_DEAL, "0:2C 1:3C 2:4C 3:AC  3:3S 0:9S 1:2S 2:QS  2:5H 3:6H 0:TH 1:4H"
                                          "  0:5D 1:6D 2:KD 3:7D", rules=rules))
    expected = [] if may_lead_heart else [("hearts-not-broken", 1, 3, 2, "5H")]
    assert located(result) == expected


def test_a_heart_discarded_on_an_earlier_trick_breaks_hearts():
    deal = ["2C 8S 9S TH", "3C 6D 4H QS", "4C KD 5H JS", "AC 7D 6H 3S"]
    rules = tiny_rules(deal, hearts_broken_by="heart")
    prefix = "0:2C 1:3C 2:4C 3:AC  3:7D"
    assert legal(state_for(rules, deal, prefix=prefix + " 0:9S 1:6D 2:KD")) == ["JS"]  # unbroken
    result = clean(game(deal, prefix + " 0:TH 1:6D 2:KD  2:5H 3:6H 0:8S 1:4H  3:3S 0:9S 1:QS 2:JS",
                        rules=rules))
    assert result.hands[0].points == (0, 13, 1, 3)


# -- only_hearts_lead -----------------------------------------------------------------------
# Trick 1: 2C, 3C, 4C, AC (seat 3 wins); trick 2: 7S led, seat 0 wins with AS and is left
# with 2H 3H and QS while hearts are unbroken.
ONLY_DEAL = ["2C AS QS 2H 3H", "3C 6S 4D 5D 6D", "4C KD 8D 9D TD", "AC 7S 4H 5H 6H"]
ONLY_PREFIX = "0:2C 1:3C 2:4C 3:AC  3:7S 0:AS 1:6S 2:KD"


@pytest.mark.parametrize("mode, legal_leads", [
    ("allowed", ["2H", "3H", "QS"]), ("queen_first", ["QS"]), ("ends_hand", ["QS"]),
])
def test_leader_with_only_hearts_and_qs(mode, legal_leads):
    rules = tiny_rules(ONLY_DEAL, only_hearts_lead=mode)
    state = state_for(rules, ONLY_DEAL, prefix=ONLY_PREFIX)
    assert state.leader == 0 and not state.ended
    assert legal(state) == legal_leads
    result = replay_game(game(ONLY_DEAL, ONLY_PREFIX + "  0:2H 1:4D 2:8D 3:4H  3:5H 0:3H 1:5D 2:9D"
                                                       "  3:6H 0:QS 1:6D 2:TD", rules=rules))
    expected = [] if mode == "allowed" else [("hearts-not-broken", 1, 3, 0, "2H")]
    assert located(result) == expected


@pytest.mark.parametrize("mode", ["allowed", "queen_first"])
def test_leader_with_only_hearts_may_lead_one(mode):
    deal = ["2C AS 7H 2H 3H", "3C 6S 4D 5D 6D", "4C KD 8D 9D TD", "AC 7S QS 5H 6H"]
    rules = tiny_rules(deal, only_hearts_lead=mode)
    state = state_for(rules, deal, prefix=ONLY_PREFIX)
    assert legal(state) == ["2H", "3H", "7H"]
    clean(game(deal, ONLY_PREFIX + "  0:2H 1:4D 2:8D 3:5H  3:QS 0:3H 1:5D 2:9D  3:6H 0:7H 1:6D 2:TD",
               rules=rules))


# T1 clubs (AC wins); T2 7S led, seat 2 discards QS (hearts stay unbroken under 'heart'),
# AS wins; T3 AD wins for seat 0, which is then left with only 2H 3H.
ENDS_DEAL = ["2C 9S AD 2H 3H", "3C AS 4D 5D 6D", "4C QS 8D 9D TD", "AC 7S 2D 6H 7H"]
ENDS_PREFIX = "0:2C 1:3C 2:4C 3:AC  3:7S 0:9S 1:AS 2:QS  1:4D 2:8D 3:2D 0:AD"


def test_ends_hand_the_leader_with_only_hearts_takes_every_remaining_card():
    rules = tiny_rules(ENDS_DEAL, only_hearts_lead="ends_hand", hearts_broken_by="heart")
    state = state_for(rules, ENDS_DEAL, prefix=ENDS_PREFIX)
    assert state.ended and state.is_over and not any(state.hands)
    assert names(state.taken[0]) == names(mask("4D 8D 2D AD 2H 3H 5D 6D 9D TD 6H 7H"))
    assert state.tricks_won == [3, 1, 0, 1]
    result = clean(game(ENDS_DEAL, ENDS_PREFIX, rules=rules, points=(4, 13, 0, 0)))
    assert result.hands[0].points == (4, 13, 0, 0) and result.hands[0].moon is None
    # a record that plays on after the hand ended
    result = replay_game(game(ENDS_DEAL, ENDS_PREFIX + "  0:2H 1:5D 2:9D 3:6H", rules=rules))
    assert located(result) == [("hand-incomplete", 1, 4, 0, "2H")]
    assert "only_hearts_lead ends_hand" in result.violations[0].message


@pytest.mark.parametrize("overrides", [{"hearts_must_be_broken": False}, {"hearts_broken_by": "heart_or_queen"},
                                       {"only_hearts_lead": "allowed"}])
def test_ends_hand_needs_the_rule_and_unbroken_hearts(overrides):
    rules = tiny_rules(ENDS_DEAL, **{"only_hearts_lead": "ends_hand", "hearts_broken_by": "heart", **overrides})
    state = state_for(rules, ENDS_DEAL, prefix=ENDS_PREFIX)
    assert not state.ended and legal(state) == ["2H", "3H"]
    clean(game(ENDS_DEAL, ENDS_PREFIX + "  0:2H 1:5D 2:9D 3:6H  3:7H 0:3H 1:6D 2:TD", rules=rules))


def test_ends_hand_can_give_the_leader_the_moon():
    """Black Queen: seat 2 wins trick 1 with AC, then holds only hearts while unbroken; it takes
    all 48 remaining cards, so every heart and QS: a moon, scored +26 to every other seat."""
    deal = ["2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2D", "AH 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", full_deal()[3]]
    rules = Rules.preset("black_queen", pass_count=0)
    result = clean(game(deal, "0:2C 1:3D 2:AC 3:2S", rules=rules, points=(26, 26, 0, 26)))
    (h,) = result.hands
    assert h.moon is not None and (h.moon.seat, h.moon.choice) == (2, "add_to_others")
    assert h.tricks_won == (0, 0, 13, 0)
    omnibus = rules.replace(jack_of_diamonds=-10)
    assert clean(game(deal, "0:2C 1:3D 2:AC 3:2S", rules=omnibus)).hands[0].points == (26, 26, -10, 26)


# -- jack_of_diamonds, queen_of_clubs_cancels_queen, no_tricks_bonus -----------------------------
@pytest.mark.parametrize("overrides, points", [
    ({}, (0, 1, 0, 16)),
    ({"jack_of_diamonds": -10}, (0, 1, -10, 16)),
    ({"queen_of_clubs_cancels_queen": True}, (0, 1, 0, 3)),  # seat 3 took QC (trick 1) and QS
    ({"no_tricks_bonus": -5}, (-5, 1, 0, 16)),  # seat 0 took no trick
    ({"jack_of_diamonds": -10, "no_tricks_bonus": -5, "queen_of_clubs_cancels_queen": True}, (-5, 1, -10, 3)),
])
def test_scoring_options(overrides, points):
    rules = tiny_rules(SCORE_DEAL, **overrides)
    result = clean(game(SCORE_DEAL, SCORE_PLAY, rules=rules, points=points))
    assert result.hands[0].points == result.hands[0].raw_points == points


def test_qc_cancels_qs_only_for_the_seat_that_took_both():
    # AC now wins trick 1 for seat 2, which takes QC; QS still goes to seat 3
    deal = ["2C 5D QS 9S", "3C JD 4H KS", "AC KD 5H 3S", "QC 7D 6H 8H"]
    play = "0:2C 1:3C 2:AC 3:QC  2:KD 3:7D 0:5D 1:JD  2:3S 3:8H 0:9S 1:KS  1:4H 2:5H 3:6H 0:QS"
    points = clean(game(deal, play, rules=tiny_rules(deal, queen_of_clubs_cancels_queen=True))).hands[0].points
    assert points == (0, 1, 0, 16)


# -- the moon --------------------------------------------------------------------------------------
MOON_DEAL = full_deal()  # seat 0 holds every club and wins all 13 tricks
MOON_PLAY = " ".join(f"0:{r}C 1:{r}D 2:{r}H 3:{r}S" for r in "23456789TJQKA")


def moon_game(moon_rule: str, jd: int = 0, **fields):
    return game(MOON_DEAL, MOON_PLAY, rules=Rules.preset("standard", pass_count=0, moon=moon_rule,
                                                          jack_of_diamonds=jd), **fields)


@pytest.mark.parametrize("rule, points", [
    ("add_to_others", (0, 26, 26, 26)),
    ("subtract_from_shooter", (-26, 0, 0, 0)),
    ("shooter_choice", (0, 26, 26, 26)),  # no recorded choice, no recorded points: add_to_others
    ("none", (26, 0, 0, 0)),
])
def test_each_moon_rule(rule, points):
    result = clean(moon_game(rule))
    (h,) = result.hands
    assert h.points == points and h.raw_points == (26, 0, 0, 0)
    assert (h.moon is None) is (rule == "none")
    if h.moon:
        assert h.moon.seat == 0


@pytest.mark.parametrize("recorded_moon, recorded_points, points, choice", [
    ("subtract_from_shooter", None, (-26, 0, 0, 0), "subtract_from_shooter"),
    ("add_to_others", None, (0, 26, 26, 26), "add_to_others"),
    (None, (-26, 0, 0, 0), (-26, 0, 0, 0), "subtract_from_shooter"),  # inferred from the points
    (None, (0, 26, 26, 26), (0, 26, 26, 26), "add_to_others"),
    (None, None, (0, 26, 26, 26), "add_to_others"),  # nothing recorded: the default
])
def test_shooter_choice(recorded_moon, recorded_points, points, choice):
    result = clean(moon_game("shooter_choice", moon=recorded_moon, points=recorded_points))
    assert result.hands[0].points == points and result.hands[0].moon.choice == choice


def test_shooter_choice_with_points_fitting_neither_option_defaults_to_add_to_others():
    result = replay_game(moon_game("shooter_choice", points=(26, 0, 0, 0)))
    assert result.hands[0].moon.choice == "add_to_others"
    assert located(result) == [("points-mismatch", 1, None, s, None) for s in range(4)]


def test_jd_stays_with_its_taker_in_a_moon_hand():
    for rule, points in [("add_to_others", (-10, 26, 26, 26)), ("subtract_from_shooter", (-36, 0, 0, 0))]:
        result = clean(moon_game(rule, jd=-10))
        assert result.hands[0].points == points
        assert result.hands[0].raw_points == (16, 0, 0, 0)


def test_moon_needs_every_heart_and_qs_but_not_jd():
    table = Rules.preset("omnibus").table(4)
    everything_but_jd = mask("JD") ^ ((1 << 52) - 1) & ~mask("2C 3C 4C")
    taken = [everything_but_jd & ~mask("2C 3C 4C"), mask("JD 2C 3C 4C"), 0, 0]
    raw, points, moon = score_hand(table, taken, [12, 1, 0, 0])
    assert moon is not None and moon.seat == 0
    assert raw == [26, -10, 0, 0] and points == [0, 16, 26, 26]
    # one heart short of a moon: plain scoring
    taken = [taken[0] & ~mask("2H"), taken[1] | mask("2H"), 0, 0]
    raw, points, moon = score_hand(table, taken, [12, 1, 0, 0])
    assert moon is None and points == raw == [25, -9, 0, 0]


def test_no_tricks_bonus_applies_only_without_a_moon():
    """Under moon none nobody shoots the moon, so the bonus applies even when one seat took all points."""
    rules = Rules.preset("standard", pass_count=0, no_tricks_bonus=-5, moon="add_to_others")
    result = clean(game(MOON_DEAL, MOON_PLAY, rules=rules))
    assert result.hands[0].points == (0, 26, 26, 26)
    assert result.hands[0].raw_points == (26, 0, 0, 0)
    result = clean(game(MOON_DEAL, MOON_PLAY, rules=rules.replace(moon="none")))
    assert result.hands[0].points == (26, -5, -5, -5)


def test_a_moon_is_worth_the_point_cards_in_the_deck():
    """Interpretation: with a heart removed (3 players dropping 2H instead of 2D) a moon takes 25
    points, and the others are charged those 25, not the full-deck 26 of the rules text."""
    hearts = [r + "H" for r in "3456789TJQKA"]
    deal = [" ".join([r + "C" for r in "23456789TJQKA"] + ["AD", "KD", "QD", "JD"]),
            " ".join(hearts + ["2D", "3D", "4D", "5D", "6D"]),
            " ".join([r + "S" for r in "23456789TJQKA"] + ["7D", "8D", "9D", "TD"])]
    play = " ".join(f"0:{r}C 1:{(['2D'] + hearts)[t]} 2:{r}S" for t, r in enumerate("23456789TJQKA"))
    play += " 0:AD 1:3D 2:7D  0:KD 1:4D 2:8D  0:QD 1:5D 2:9D  0:JD 1:6D 2:TD"
    rules = Rules.preset("standard", removed_cards=["2H"], pass_count=0)
    for moon, points in [("add_to_others", (0, 25, 25)), ("subtract_from_shooter", (-25, 0, 0))]:
        result = clean(game(deal, play, rules=rules.replace(moon=moon), points=points))
        assert result.hands[0].raw_points == (25, 0, 0) and result.hands[0].moon.seat == 0


def test_qc_cancel_does_not_undo_a_moon():
    """A shooter who also took QC still shot the moon (it took every heart and QS)."""
    rules = Rules.preset("standard", pass_count=0, queen_of_clubs_cancels_queen=True, moon="add_to_others")
    result = clean(game(MOON_DEAL, MOON_PLAY, rules=rules))
    assert result.hands[0].points == (0, 26, 26, 26) and result.hands[0].raw_points == (13, 0, 0, 0)


# -- passing ---------------------------------------------------------------------------------
PASS_DEAL = ["2C 5D QS 9S", "3C 6D 4H 8S", "4C KD 5H TS", "AC 7D 6H JS"]


@pytest.mark.parametrize("direction, receiver", [("left", 1), ("right", 3), ("across", 2)])
def test_passes_move_cards_in_the_cycle_direction(direction, receiver):
    rules = tiny_rules(PASS_DEAL, pass_count=1, pass_cycle=[direction])
    passes = ["2C", "3C", "4C", "AC"]  # everyone passes its club; 2C ends at the receiver
    g = game(PASS_DEAL, f"{receiver}:2C", rules=rules, passes=passes)
    result = replay_game(g)
    assert [v.code for v in result.violations] == ["hand-incomplete"]
    assert result.hands[0].pass_direction == direction


def test_pass_cycle_and_hold_hands_over_several_hands():
    rules = tiny_rules(PASS_DEAL, pass_count=1, pass_cycle=["hold", "left"])
    held = hand(PASS_DEAL, "0:2C")
    passed = hand(PASS_DEAL, "1:2C", passes=["2C", "3C", "4C", "AC"])
    result = replay_game(game(hands=[held, passed, held], rules=rules))
    assert [h.pass_direction for h in result.hands] == ["hold", "left", "hold"]
    assert {v.code for v in result.violations} == {"hand-incomplete"}


def test_pass_count_zero_never_passes():
    rules = tiny_rules(PASS_DEAL, pass_count=0, pass_cycle=["left"])
    result = replay_game(game(PASS_DEAL, "0:2C", rules=rules))
    assert result.hands[0].pass_direction == "hold"
    assert [v.code for v in result.violations] == ["hand-incomplete"]


def test_any_cycle_takes_the_stated_direction():
    rules = tiny_rules(PASS_DEAL, pass_count=1, pass_cycle=["any"])
    g = game(PASS_DEAL, "3:2C", rules=rules, passes=["2C", "3C", "4C", "AC"], pass_direction="right")
    result = replay_game(g)
    assert result.hands[0].pass_direction == "right"
    assert [v.code for v in result.violations] == ["hand-incomplete"]


# -- target and end_at --------------------------------------------------------------------------
def scoring_hands(count: int):
    """Hands in which seat 1 takes 1 point and seat 3 16 each time (see ``SCORE_DEAL``)."""
    return [hand(SCORE_DEAL, SCORE_PLAY) for _ in range(count)]


@pytest.mark.parametrize("end_at, target, over_after", [
    ("reach", 32, 2), ("exceed", 32, 3), ("reach", 33, 3), ("exceed", 31, 2), ("reach", 16, 1), ("exceed", 16, 2),
])
def test_target_reach_and_exceed(end_at, target, over_after):
    rules = tiny_rules(SCORE_DEAL, target=target, end_at=end_at)
    result = clean(game(hands=scoring_hands(over_after), rules=rules, complete=True))
    assert result.complete and result.ended_at == over_after
    assert result.totals == (0, over_after, 0, 16 * over_after)
    assert result.winners == (0, 2)
    short = replay_game(game(hands=scoring_hands(over_after - 1), rules=rules, complete=True))
    assert not short.complete and short.winners == ()
    assert [v.code for v in short.violations] == ["game-over-early"]


def test_the_result_is_the_standings_when_the_game_ended_not_after_a_hand_played_past_it():
    rules = tiny_rules(SCORE_DEAL, target=32)
    result = replay_game(game(hands=scoring_hands(3), rules=rules))
    assert [(v.code, v.hand) for v in result.violations] == [("game-continued", 3)]
    assert result.ended_at == 2 and result.totals == (0, 2, 0, 32) and result.winners == (0, 2)
    assert result.hands[2].totals == (0, 3, 0, 48)  # the hand after the end is still audited and scored
    assert [h.number for h in result.counted] == [1, 2] and result.after_end(result.hands[2])


def test_winners_are_the_lowest_totals_when_the_game_ends():
    other = ["2C 5D QS 9S", "3C JD 4H KS", "AC 7D 6H 8H", "QC KD 5H 3S"]  # seats 2 and 3 swapped
    play = "0:2C 1:3C 2:AC 3:QC  2:7D 3:KD 0:5D 1:JD  3:3S 0:9S 1:KS 2:8H  1:4H 2:6H 3:5H 0:QS"
    rules = tiny_rules(SCORE_DEAL, target=30)
    two = [hand(SCORE_DEAL, SCORE_PLAY), hand(other, play)]
    result = clean(game(hands=two, rules=rules))
    assert result.hands[1].points == (0, 1, 16, 0)
    assert result.totals == (0, 2, 16, 16) and not result.complete and result.winners == ()
    result = clean(game(hands=two + [hand(SCORE_DEAL, SCORE_PLAY)], rules=rules))
    assert result.ended_at == 3 and result.totals == (0, 3, 16, 32) and result.winners == (0,)
