"""Reasons in cards: the facts a seat knows at a play (review/card_facts.py), and
the clauses :func:`explain` builds from them. Every position is built by hand; nothing is reviewed."""

from types import SimpleNamespace

from hearts_analysis.cards import CLUBS, DIAMONDS, SPADES, SUIT_MASKS, mask_of, names, parse_card
from hearts_analysis.engine.state import HandState
from hearts_analysis.review import card_facts
from hearts_analysis.review.reasons import explain
from hearts_analysis.rules import Rules

TABLE = Rules.preset("standard").table(4)
PLAYERS = ("Ann", "Bob", "Cy", "Di")


def cards(text: str) -> int:
    return mask_of(parse_card(c) for c in text.split())


def position(hands: list[str], gone: str = "", voids: dict[int, tuple[int, ...]] | None = None,
             trick: list[tuple[int, str]] = (), leader: int = 0) -> HandState:
    """A mid-hand state: ``gone`` played in earlier tricks, ``voids`` shown by then, ``trick`` the
    plays of the current trick so far (pushed, so a seat that does not follow shows its void)."""
    state = HandState(TABLE, [cards(h) for h in hands], leader)
    state.trick_number = 6
    state.broken = True
    state.played |= cards(gone)
    for seat, suits in (voids or {}).items():
        for suit in suits:
            state.voids[seat] |= SUIT_MASKS[suit]
    for seat, card in trick:
        state.push(seat, parse_card(card))
    return state


def option(card: str, queen: float, hearts: float):
    return SimpleNamespace(cards=(parse_card(card),), expected=13 * queen + hearts, queen=queen, hearts=hearts,
                           moon_against=0.0, parts=(("queen", 13 * queen, queen), ("hearts", hearts, hearts)))


# -- the facts ---------------------------------------------------------------------------------------

def test_gone_and_out_top_cards_are_read_from_the_played_cards_and_the_seats_hand():
    state = position(["QS 3S 7H 8H", "2S 9D", "AS 4C", "5S 6C"], gone="KS JS")
    queen = parse_card("QS")
    assert names(card_facts.gone_above(state, 0, queen)) == ["KS"]
    assert names(card_facts.out_above(state, 0, queen)) == ["AS"]        # seat 2 holds it, unplayed
    assert not card_facts.top_left(state, 0, queen)
    state.played |= cards("AS")
    state.hands[2] &= ~cards("AS")
    assert names(card_facts.gone_above(state, 0, queen)) == ["KS", "AS"]
    assert card_facts.top_left(state, 0, queen)
    own = position(["AS QS 3S", "2S", "4C", "5S"], gone="KS")            # its own AS is not gone
    assert not card_facts.top_left(own, 0, queen) and names(card_facts.gone_above(own, 0, queen)) == ["KS"]


def test_voids_come_only_from_a_seat_that_did_not_follow_suit():
    state = position(["AS 5S 2D", "7S KD", "8H 4D", "9S 3C"], trick=[(3, "9S"), (0, "5S"), (1, "7S")], leader=3)
    assert card_facts.shown_void(state, SPADES, 0) == ()
    state.push(2, parse_card("8H"))                                      # seat 2 discards on spades
    assert card_facts.shown_void(state, SPADES, 0) == (2,)
    assert card_facts.shown_void(state, DIAMONDS, 0) == ()               # it still holds 4D, unseen


def test_who_may_hold_the_queen_and_who_plays_behind():
    state = position(["AS 5S 2D", "7S KD", "QS 4D", "9S 3C"], voids={2: (SPADES,)}, trick=[(3, "9S")], leader=3)
    assert card_facts.behind(state, 0) == (1, 2)
    # seat 2 holds the QS in this deal, but it showed a void in spades: as seat 0 sees it, it cannot
    assert card_facts.queen_holders(state, 0) == (1, 3)
    assert card_facts.queen_holders(position(["QS 2D", "3D", "4D", "5D"]), 0) == ()
    assert card_facts.queen_holders(position(["2S 2D", "3D", "4D", "5D"], gone="QS"), 0) == ()


def test_a_hand_of_top_cards_cannot_get_off_lead():
    every_club = " ".join(f"{r}C" for r in "2456789TJQKA" if f"{r}C" not in ("9C",))
    state = position(["9C 3C AD AS", "2D", "3D", "4D"], gone=every_club.replace("3C", "").replace("5C", ""),
                     trick=[(3, "5C")], leader=3)
    assert card_facts.cannot_get_off(state, 0, cards("3C AD AS")) == (CLUBS, DIAMONDS, SPADES)
    assert card_facts.cannot_get_off(state, 0, cards("9C AD AS")) == (CLUBS, DIAMONDS, SPADES)
    open_clubs = position(["9C 3C AD AS", "7C", "3D", "4D"], trick=[(3, "5C")], leader=3)
    assert card_facts.cannot_get_off(open_clubs, 0, cards("3C AD AS")) == ()   # 7C is out: 3C exits
    assert card_facts.winning_leads(open_clubs, 0, cards("3C AD AS")) == (DIAMONDS, SPADES)
    # every other seat has shown no diamonds: even the 2D wins when led
    void = position(["2D AS", "3C", "4C", "5C"], voids={1: (DIAMONDS,), 2: (DIAMONDS,), 3: (DIAMONDS,)})
    assert card_facts.cannot_get_off(void, 0) == (DIAMONDS, SPADES)


def test_facts_do_not_depend_on_how_the_hidden_cards_lie():
    """Two deals alike as seat 0 sees them (its hand, the plays, the voids) give the same facts."""
    one = position(["QS 3S 2D", "AS 9D 4H", "5S 8D 5H", "6S 7D 6H"], gone="KS", trick=[(3, "6S")], leader=3)
    two = position(["QS 3S 2D", "5S 8D 5H", "AS 9D 4H", "6S 7D 6H"], gone="KS", trick=[(3, "6S")], leader=3)
    for state in (one, two):
        assert names(card_facts.out_above(state, 0, parse_card("QS"))) == ["AS"]
        assert not card_facts.top_left(state, 0, parse_card("QS"))
        assert card_facts.queen_holders(state, 0) == ()
        assert card_facts.cannot_get_off(state, 0) == ()


# -- the reasons -------------------------------------------------------------------------------------

def test_the_top_spade_is_named_where_ace_and_king_are_gone():
    state = position(["QS 3S 7H 8H", "2S 9D", "4C 5C", "5S 6C"], gone="AS KS")
    reason = explain(state, 0, "play", option("QS", 0.6, 1.0), option("3S", 0.05, 1.0), PLAYERS)
    assert reason.startswith("AS and KS are gone, so your QS is the top spade: with the 3S you take QS in 5%")
    only_ace = position(["KS 3S 7H 8H", "QS 9D", "4C 5C", "5S 6C"], gone="AS")
    reason = explain(only_ace, 0, "play", option("KS", 0.4, 1.0), option("3S", 0.05, 1.0), PLAYERS)
    assert reason.startswith("AS is gone, so your KS is the top spade")


def test_a_card_the_seat_cannot_see_is_never_called_gone():
    # KS was played, but seat 2 holds AS unplayed: the QS is not the top spade
    state = position(["QS 3S 7H 8H", "2S 9D", "AS 4C", "5S 6C"], gone="KS")
    reason = explain(state, 0, "play", option("QS", 0.6, 1.0), option("3S", 0.05, 1.0), PLAYERS)
    assert "gone" not in reason and "top spade" not in reason
    assert reason == "with the 3S you take QS in 5% of the deals; with the QS, in 60%"


def test_the_queen_holder_behind_is_named():
    state = position(["AS 5S 2D", "7S KD", "8H 4D", "9S 3C"], voids={2: (SPADES,)}, trick=[(3, "9S")], leader=3)
    reason = explain(state, 0, "play", option("AS", 0.5, 0.0), option("5S", 0.1, 0.0), PLAYERS)
    assert reason == ("the QS is still out and Bob, behind you, can drop it on your AS: ducking with the 5S, you "
                      "take QS in 10% of the deals; with the AS, in 50%")
    assert "QS was still out" not in reason                             # said once
    assert "seat B" in explain(state, 0, "play", option("AS", 0.5, 0.0), option("5S", 0.1, 0.0))
    gone = position(["AS 5S 2D", "7S KD", "8H 4D", "9S 3C"], gone="QS", trick=[(3, "9S")], leader=3)
    reason = explain(gone, 0, "play", option("AS", 0.5, 0.0), option("5S", 0.1, 0.0), PLAYERS)
    assert "still out" not in reason and "drop" not in reason


def test_a_hand_that_cannot_get_off_and_the_voids_behind_are_named():
    clubs = "2C 4C 6C 7C 8C TC JC QC KC AC"
    state = position(["9C 3C AD AS", "2D", "3D", "4D"], gone=clubs, voids={1: (CLUBS,), 2: (CLUBS,)},
                     trick=[(3, "5C")], leader=3)
    reason = explain(state, 0, "play", option("9C", 0.0, 11.4), option("3C", 0.0, 0.5), PLAYERS)
    assert reason == ("Bob and Cy, behind you, have shown no clubs; after the 9C you hold only the last clubs, "
                      "diamonds and spades, so once on lead you cannot get off: with the 3C you take 0.5 hearts "
                      "in the hand on average; with the 9C, 11.4")
    # 7C is out, unseen: the 3C can still give the lead away, and no seat has shown a void
    open_clubs = position(["9C 3C AD AS", "7C", "3D", "4D"], gone=clubs.replace("7C ", ""), trick=[(3, "5C")],
                          leader=3)
    reason = explain(open_clubs, 0, "play", option("9C", 0.0, 11.4), option("3C", 0.0, 0.5), PLAYERS)
    assert reason == "with the 3C you take 0.5 hearts in the hand on average; with the 9C, 11.4"
