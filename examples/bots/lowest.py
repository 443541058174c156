"""A bot for `hearts match`: passes its three highest cards, plays its lowest legal card.

As a Python class:  hearts match heuristic python:examples/bots/lowest.py:LowestBot
As a program:       hearts match heuristic 'exe:python3 examples/bots/lowest.py'
"""

import json
import sys

RANKS = "23456789TJQKA"


def rank(card):
    return RANKS.index(card[0])


class LowestBot:
    """``view`` is the seat's hearts-game/1 record (other seats' cards are null); ``legal`` the cards it may pass or play."""

    def pass_cards(self, view, legal):
        return sorted(legal, key=rank)[-3:]

    def play(self, view, legal):
        return min(legal, key=rank)


if __name__ == "__main__":  # the exe: protocol, one JSON line a request and an answer
    bot = LowestBot()
    for line in sys.stdin:
        request = json.loads(line)
        if request["kind"] == "pass":
            cards = sorted(request["legal"], key=rank)[-request.get("count", 3):]
        else:
            cards = [bot.play(request["view"], request["legal"])]
        print(json.dumps({"cards": cards}), flush=True)
