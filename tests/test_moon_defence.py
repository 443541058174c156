"""Moon defence as strong players play it: the judge reads a seat that has taken every point
so far as able to take the rest, stops its moon where it can, and does not credit a weak hand with moons. Positions are game records, asked through
:func:`hearts_analysis.advise`."""

from __future__ import annotations

from dataclasses import replace

from hearts_analysis import advise
from hearts_analysis.cards import card_name
from hearts_analysis.review.deal_weights import running_seat
from hearts_analysis.review.evaluate import Settings
from hearts_analysis.rules import Rules

from conftest import game

RULES = replace(Rules.preset("standard"), pass_count=0)

# Seat 1 wins every trick: AC, then AS (seat 3 drops QS), AD (seat 2, void, throws 2H), AH; it has
# taken QS and every heart so far and leads 8H. Seat 2 holds TH, which beats it, and 3H.
DEAL = ("2C 8S 9S TS JS 2D 3D 8D 9D TD JD 6H 7H",
        "AC KC QC AS KS AD KD QD AH KH QH JH 8H",
        "3C 5C 6C 7C 8C 9C 2S 4S 5S 2H 3H 4H TH",
        "4C TC JC QS 3S 6S 7S 4D 5D 6D 7D 5H 9H")
PLAYS = ("0:2C 1:AC 2:3C 3:4C  1:AS 2:2S 3:QS 0:8S  1:AD 2:2H 3:4D 0:2D  1:AH 2:4H 3:5H 0:6H  1:8H")


def _advice(seed: int, read_runner: bool = True):
    settings = replace(Settings(seed=seed), read_runner=read_runner)
    advice = advise(game(DEAL, PLAYS, rules=RULES), settings=settings)
    assert advice.seat == 2 and advice.kind == "play"
    assert {card_name(c) for o in advice.options for c in o.cards} == {"TH", "3H"}
    return {card_name(o.cards[0]): o for o in advice.options}     # best first


def test_the_seat_under_a_lone_point_taker_never_finds_the_high_heart_worse():
    # The book's answer is TH. The judge, reading seat 1 as running, finds the moon after 3H (about 7%
    # of the deals) worth about the two hearts TH takes: TH is the best or as good within the noise,
    # on every seed. (Which of the two it names turns on the seed; see benchmarks/README.md.)
    for seed in range(3):
        options = _advice(seed)
        assert next(iter(options)) == "TH" or options["TH"].equal, {c: o.option for c, o in options.items()}
        assert options["3H"].option.moon_against >= 0.03


def test_without_reading_the_running_seat_the_judge_lets_the_moon_through():
    # what the reading changes: the same position judged on uniformly drawn deals
    for seed in range(3):
        options = _advice(seed, read_runner=False)
        assert options["3H"].option.expected < options["TH"].option.expected and not options["TH"].equal
        assert options["3H"].option.moon_against < 0.03


def test_a_queen_eaten_in_one_trick_is_no_run_and_a_string_of_point_tricks_is():
    state = _state(DEAL, "0:2C 1:AC 2:3C 3:4C  1:AS 2:2S 3:QS 0:8S  1:AD 2:2H 3:4D 0:2D")
    assert running_seat(state, 2) is None                      # QS and 2H: two point cards
    state = _state(DEAL, PLAYS)
    assert running_seat(state, 2) == 1 and running_seat(state, 1) is None


def _state(deal, plays):
    from hearts_analysis.cards import mask_of, parse_card
    from hearts_analysis.engine.state import HandState
    state = HandState(RULES.table(4), [mask_of(parse_card(c) for c in hand.split()) for hand in deal], 0)
    for play in plays.split():
        seat, card = play.split(":")
        state.push(int(seat), parse_card(card))
    return state


def _shoot_rate(option) -> float:
    return dict((cause, rate) for cause, _, rate in option.option.parts).get("shoot", 0.0)


def test_a_hand_with_one_heart_and_no_high_card_is_credited_with_almost_no_moons():
    # seat 0: one low heart, nothing above a nine; asked for its pass, then its first play
    deal = ("2C 3C 5C 7C 2D 4D 6D 8D 3S 5S 7S 9S 4H",
            "4C 6C 8C TC QC AC 3D 5D 7D 9D JD KD 2H",
            "9C JC KC TD QD AD 2S 4S 6S 8S TS QS AS",
            "JS KS 3H 5H 6H 7H 8H 9H TH JH QH KH AH")
    dealt = game(deal, "", rules=replace(RULES, pass_count=0))
    advice = advise(dealt)
    assert advice.kind == "play" and advice.seat == 0
    assert max(_shoot_rate(o) for o in advice.options) < 0.03, [o.option.parts for o in advice.options]
