"""A flagged pass's reason in the principles of passing: the facts in cards that tell the played pass from the
better one (review/pass_facts.py), each given only where the two passes differ in it, and the reason a
reviewed pass opens with."""

from hearts_analysis.cards import mask_of, names, parse_card
from hearts_analysis.review.pass_facts import lead_clauses, pass_facts
from hearts_analysis.review.settings import Settings
from hearts_analysis.rules import Rules


def cards(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def facts(dealt: str, played: str, better: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for fact in pass_facts(cards(dealt), cards(played), cards(better)):
        found.setdefault(fact.topic, []).append(fact.text)
    return found


# -- each fact, and where the two passes agree on it -----------------------------------------------------------
HAND = "QS 8S 5S 3S 4H 9H KH AH 6C 9C 6D 9D JD"


def test_a_suit_the_better_pass_voids_or_leaves_with_one_card():
    assert facts(HAND, "AH KH 9H", "JD 9D 6D")["void"] == ["passing JD 9D 6D voids your diamonds"]
    assert facts(HAND, "AH KH 9H", "JD 9D AH")["void"] == ["passing JD 9D leaves you only the 6D"]
    assert "void" not in facts(HAND, "AH KH 9H", "QS 5S 3S")          # a spade left alone is no help
    assert "void" not in facts(HAND, "JD 9D 6D", "JD 9D 6D")          # the same pass
    assert "void" not in facts(HAND, "AH KH 9H", "AH KH 9D")          # neither leaves a short suit


def test_low_spades_kept_under_the_queen():
    assert facts(HAND, "5S 3S AH", "JD 9D AH")["low-spades"] == ["the better pass keeps 5S 3S under your QS"]
    below = facts(HAND, "QS 5S 3S", "QS JD 9D")["low-spades"]           # both pass QS: no queen to be under
    assert below == ["the better pass keeps 5S 3S, spades below the queen"]
    assert "low-spades" not in facts(HAND, "5S 3S AH", "5S 3S KH")      # both pass them
    assert "low-spades" not in facts(HAND, "JD 9D AH", "5S 3S AH")      # only the played pass keeps them


def test_the_high_spades_of_a_short_suit_passed_and_a_queen_kept_guarded():
    short = "AS KS 3S 4H 9H KH AH 6C 9C 6D 9D JD 2D"
    assert facts(short, "JD 9D AH", "AS KS AH")["high-spades"] == [
        "the better pass gives away AS and KS, which catch the queen, with only three spades"]
    queen = "QS 7S 3S 4H 9H KH AH 6C 9C 6D 9D JD 2D"
    assert facts(queen, "JD 9D AH", "QS JD AH")["high-spades"] == [
        "the better pass gives away the QS: with only three spades the QS cannot be guarded"]
    assert "high-spades" not in facts(short, "AS KS 9D", "AS KS AH")     # both pass them
    long = "AS KS 3S 2S 9H KH AH 6C 9C 6D 9D JD 2D"                    # four spades guard them
    assert "high-spades" not in facts(long, "JD 9D AH", "AS KS AH")
    assert facts(HAND, "QS JD 9D", "JD 9D 6D")["high-spades"] == ["the better pass keeps your QS, guarded by 8S 5S 3S"]
    assert "high-spades" not in facts(HAND, "QS JD 9D", "QS 9D 6D")     # both pass it


def test_the_4h_example_an_exit_given_away_is_named_not_only_the_queen():
    # the played pass gives away the 4H, the only low heart; the better pass keeps it. The cost is the queen's,
    # yet the reason names the 4H as an exit.
    dealt = "QS TS 9S 8S 4H 9H KH AH 2C 5C 9D TD JD"
    clauses = lead_clauses(cards(dealt), cards("4H TD JD"), cards("9D TD JD"), "queen")
    assert any("4H" in c and "exit" in c for c in clauses), clauses
    assert facts(dealt, "4H TD JD", "9D TD JD")["exit"] == [
        "you pass the 4H, your only low heart, an exit the better pass keeps"]
    assert facts("7C 6C 8C 4H", "7C 6C", "4H 8C")["exit"] == [
        "you pass 7C 6C, your low clubs, exits the better pass keeps"]
    assert facts("7C 6C 8C 4H", "7C 6C", "4H 7C")["exit"] == [
        "you pass 7C 6C, your low clubs, where the better pass keeps the 6C as an exit"]
    assert "exit" not in facts(dealt, "9D TD JD", "9D TD JD")                       # both keep it
    assert "exit" not in facts(dealt, "4H 9H KH", "4H 9H TD")               # both pass it
    two = "QS TS 9S 8S 4H 6H KH AH 2C 5C 9D TD JD"                                 # the 6H is a low heart too
    assert "exit" not in facts(two, "4H TD JD", "9D TD JD")
    assert "exit" not in facts(dealt.replace("KH AH", "2D 3D"), "4H 9H JD", "9D TD JD")  # passing every heart voids


def test_high_hearts_kept_against_a_moon_or_passed_against_heart_tricks():
    assert facts(HAND, "AH KH 9D", "JD 9D 6D")["hearts-kept"] == [
        "the better pass keeps AH KH, high hearts that stop or make a moon"]
    assert facts(HAND, "JD 9D 6D", "AH KH 9D")["hearts-passed"] == [
        "the better pass gives away AH KH, which take heart tricks"]
    assert facts(HAND, "JD 9D 6D", "AH 9D 6D")["hearts-passed"] == [
        "the better pass gives away the AH, which takes heart tricks"]
    assert not {"hearts-kept", "hearts-passed"} & set(facts(HAND, "AH KH 9D", "AH KH 6D"))


# -- what the reason says first ------------------------------------------------------------------------------
def test_the_cause_of_the_cost_orders_the_clauses_and_two_at_most_are_given():
    dealt, played, better = cards(HAND), cards("5S 3S 4H"), cards("JD 9D 6D")
    every = [f.text for f in pass_facts(dealt, played, better)]
    assert len(every) >= 3
    queen = lead_clauses(dealt, played, better, "queen")
    assert queen[0] == "the better pass keeps 5S 3S under your QS" and len(queen) == 2
    hearts = lead_clauses(dealt, played, better, "hearts")
    assert hearts[0] == "you pass the 4H, your only low heart, an exit the better pass keeps"
    assert lead_clauses(dealt, played, better, "hearts", count=1) == hearts[:1]


def test_a_clause_the_passing_advice_says_is_left_out():
    dealt, played, better = cards(HAND), cards("5S 3S 4H"), cards("JD 9D 6D")
    assert not any("5S 3S" in c for c in lead_clauses(dealt, played, better, "queen", ("passed-low-spade",)))
    short = cards("AS KS 3S 4H 9H KH AH 6C 9C 6D 9D JD 2D")
    told = lead_clauses(short, cards("JD 9D AH"), cards("AS KS AH"), "queen", ("kept-high-spade-short",))
    assert not any("catch the queen" in c for c in told)
    low = cards("QS TS 9S 8S 2H 9H KH AH 2C 5C 9D TD JD")                          # the 2H: the advice's own exit
    assert not any("2H" in c for c in lead_clauses(low, cards("2H TD JD"), cards("9D TD JD"), "hearts",
                                                   ("passed-low-card",)))
    assert any("2H" in c for c in lead_clauses(low, cards("2H TD JD"), cards("9D TD JD"), "hearts"))


# -- a reviewed pass --------------------------------------------------------------------------------------------
def reviewed(hand: str, played: str):
    from hearts_analysis.review.evaluate import Position, review_pass
    position = Position(Rules.preset("standard").table(4), 1, (0, 0, 0, 0), 0, ("ann", "bob", "cy", "dee"))
    decision = review_pass(position, 0, cards(hand), cards(played), "left", 3, Settings(samples=100))
    assert decision.category is not None
    opening, _, rest = decision.reason.partition(": passing ")
    return decision, opening.split("; "), rest


def test_a_flagged_pass_opens_with_a_fact_in_cards_then_the_figures_and_the_advice():
    hand, played = "QS KS AS 2H 3H 4H 2C 3C 4C 5C 2D 3D 4D", "4H 3D 4D"
    decision, clauses, rest = reviewed(hand, played)
    facts = [f.text for f in pass_facts(cards(hand), cards(played), mask_of(decision.best))]
    assert clauses and all(c in facts for c in clauses), decision.reason
    assert " instead of 3D 4D 4H, " in rest and "The passing advice agrees" in rest
    # what the advice line says is not said again: the unguarded spades are its kept-queen-short
    assert not any("cannot be guarded" in c or "catch the queen" in c for c in clauses)


def test_the_4h_example_reviewed_names_the_exit_it_gave_away():
    decision, clauses, rest = reviewed("AH KH QH 4H AD KD QD 7S 8S 9S 6C 7C 8C", "4H 6C 7C")
    assert parse_card("4H") not in decision.best
    assert "you pass the 4H, your only low heart, an exit the better pass keeps" in clauses, decision.reason
    assert " instead of 6C 7C 4H, you take " in rest


def test_a_pass_flagged_in_a_reviewed_game_opens_with_its_facts():
    import pathlib

    from hearts_analysis.records import read_games
    from hearts_analysis.review import review_game
    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "clean-4p-standard.json"
    [item] = list(read_games([example]))
    [decision] = [d for d in review_game(item.game, Settings(samples=40), seats=[1], hands=[11]).decisions
                  if d.kind == "pass"]
    assert decision.category is not None, decision.reason     # bob passing AC KH AH in hand 11
    dealt = mask_of(item.game.hands[10].deal[1])
    facts = [f.text for f in pass_facts(dealt, mask_of(decision.played), mask_of(decision.best))]
    opening, _, rest = decision.reason.partition(": passing ")
    assert rest.startswith(f"{' '.join(names(decision.best))} instead of {' '.join(names(decision.played))}, ")
    clauses = opening.split("; ")
    assert 1 <= len(clauses) <= 2 and all(c in facts for c in clauses), decision.reason
