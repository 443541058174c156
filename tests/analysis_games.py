"""Crafted hands for the analysis tests, each small enough to check by hand.

Decks are cut to the dealt cards (``tiny_rules``), so every hand is complete
and legal; each docstring says what happens trick by trick.
"""

from __future__ import annotations

from dataclasses import replace

from conftest import game, hand, tiny_rules

# -- a run for the moon: three endings from one start ------------------------------
# Seat 0 makes two control plays (KD over 6D while holding 2D; AD, a sure winner, while
# holding 2D), takes 2H 6H on trick 3 and KH 3H 4H 7H on trick 4, KH led over its QH (points
# taken on purpose): six points, every point card so far, so it is running from trick 4.
RUN_DEAL = ["3C 2D KD AD KH QH", "2C 4D 4S QS 2H 3H", "4C 5D 2S 4H 5H 6H", "5C 6D 3D 7H 8H AH"]
RUN_START = "1:2C 2:4C 3:5C 0:3C  3:6D 0:KD 1:4D 2:5D  0:AD 1:2H 2:6H 3:3D  0:KH 1:3H 2:4H 3:7H"

SHOT_PLAY = RUN_START + "  0:QH 1:4S 2:5H 3:8H  0:2D 1:QS 2:2S 3:AH"
"""Trick 5: seat 3, last to play, could win with AH for sure and plays 8H (a missed stop);
trick 6: seat 0 leads 2D and takes QS and AH: the moon (tricks 2-6, not the sun)."""

STOPPED_PLAY = RUN_START + "  0:QH 1:4S 2:5H 3:AH  3:8H 0:2D 1:QS 2:2S"
"""Trick 5: seat 3 takes QH 5H with AH: stopped by seat 3 on trick 5; the runner keeps its 6 points."""

ABANDON_DEAL = ["3C 2D KD AD AH KH 9H", "2C 4D 4S 5S QS 2H 3H", "4C 5D 2S 4H 5H 6H TH",
                "5C 6D 3D 7D 7H 8H 6S"]
ABANDON_PLAY = ("1:2C 2:4C 3:5C 0:3C  3:6D 0:KD 1:4D 2:5D  0:AD 1:2H 2:6H 3:3D  0:AH 1:3H 2:4H 3:7H  "
                "0:2D 1:4S 2:2S 3:7D  3:8H 0:9H 1:5S 2:TH  2:5H 3:6S 0:KH 1:QS")
"""Running from trick 4; trick 5 (no points) goes to seat 3; on trick 6 seat 0 ducks with 9H
holding KH and seat 2 takes 8H 9H with TH: abandoned. Seat 0 then takes KH 5H QS (21 points)."""

ACCIDENT_DEAL = ["2C AS 3D 4D", "3C QS 5D 2H", "4C 2S 6D 3H", "5C 3S 7D 4H"]
ACCIDENT_PLAY = "0:2C 1:3C 2:4C 3:5C  3:3S 0:AS 1:QS 2:2S  0:3D 1:5D 2:6D 3:7D  3:4H 0:4D 1:2H 2:3H"
"""Seat 0 is stuck with QS (its only spade) on trick 2: every point so far, but no control play."""

SUN_DEAL = ["2C AD AS", "2D 2H QS", "3D 3H 2S", "4D 4H 3S"]
SUN_PLAY = "0:2C 1:2D 2:3D 3:4D  0:AD 1:QS 2:3H 3:4H  0:AS 1:2H 2:2S 3:3S"
"""Seat 0 wins all three tricks: the moon and the sun."""

NEAR_DEAL = ["2C AD 5S", "2D 2H QS", "3D 3H 2S", "4D 4H KS"]
NEAR_PLAY = "0:2C 1:2D 2:3D 3:4D  0:AD 1:QS 2:3H 3:4H  0:5S 1:2H 2:2S 3:KS"
"""Seat 0 takes QS 3H 4H (15 of 16 points), seat 3 takes 2H: a near miss, no attempt."""

PASS_DEAL = ["2C QS 3S 5D", "3C AS 2H 6D", "4C 4S 3H 7D", "5C KS 4H 8D"]
PASS_PASSES = ["QS", "2H", "4S", "8D"]
PASS_PLAY = "0:2C 1:3C 2:4C 3:5C  3:KS 0:3S 1:AS 2:3H  1:6D 2:7D 3:4H 0:8D  0:5D 1:QS 2:2H 3:4S"
"""Everyone passes one card left. Seat 0's QS comes back to it on trick 4 (with 2H)."""


def run_game(play: str, deal=RUN_DEAL, **rules):
    return spec_kept(game(deal, play, rules=tiny_rules(deal, **rules)))


def pass_game(**rules):
    rules.setdefault("pass_count", 1)
    rules.setdefault("pass_cycle", ["left"])
    record = hand(PASS_DEAL, PASS_PLAY, passes=PASS_PASSES)
    return spec_kept(game(hands=[record], rules=tiny_rules(PASS_DEAL, **rules)))


def spec_kept(record):
    """The record with its rule set written out, so that it survives a trip through a file."""
    return replace(record, rules_spec=record.rules.to_spec())


def with_players(record, *players: str):
    return replace(record, players=tuple(players))
