"""The review replays each game once: hand-level work starts from the replayed hand, not the record."""

from __future__ import annotations

import pickle
from concurrent.futures import Future

import pytest

from hearts_analysis.engine import replay as replay_module
from hearts_analysis.records.errors import Item
from hearts_analysis.records.model import GameRecord
from hearts_analysis.review import Settings, review_game
from hearts_analysis.review import batch as batch_module
from hearts_analysis.review import game as game_module
from hearts_analysis.review.batch import review_items
from hearts_analysis.review.puzzles import puzzles
from hearts_analysis.rules import Rules
from hearts_analysis.simulate import simulate_game

TINY = Settings(samples=12, pass_samples=12, budget=24, batch=12)


@pytest.fixture(scope="module")
def game():
    return simulate_game(Rules.preset("standard"), ["ann", "bob", "cy", "dee"], seed=5, max_hands=4)


@pytest.fixture(scope="module")
def alone(game):
    """The game's review on its own, the one the batch's reviews are held to (built once: a module fixture is set
    up before a test's counting fixtures, so it replays nothing they count)."""
    return review_game(game, TINY)


@pytest.fixture
def hands_replayed(monkeypatch):
    """How many hands the reference engine replays (every replay of a game goes through replay_hand)."""
    count = [0]
    real = replay_module.replay_hand

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(replay_module, "replay_hand", counted)
    return count


class Here:
    """An executor that runs each task here, after a pickle round trip as a process pool would, and keeps
    what it was sent."""

    def __init__(self):
        self.sent = []

    def submit(self, fn, *args):
        self.sent.append(args)
        fn, args = pickle.loads(pickle.dumps((fn, args)))
        future = Future()
        future.set_result(fn(*args))
        return future


@pytest.mark.parametrize("executor", [None, "pool"])
def test_a_game_is_replayed_once_however_many_hands_are_reviewed(game, alone, hands_replayed, executor):
    here = Here() if executor else None
    [done] = review_items([Item("g.json:1", game)], TINY, executor=here)
    assert hands_replayed[0] == len(game.hands)   # one replay of the game, not one per hand
    assert done.review == alone
    if here is not None:   # the workers get each hand's replayed start, never the record
        assert len(here.sent) == len(game.hands)
        assert not any(isinstance(arg, (GameRecord, Item)) for args in here.sent for arg in args)


def test_the_puzzles_reuse_the_review_replay(game, hands_replayed):
    [done] = review_items([Item("g.json:1", game)], TINY)
    before = hands_replayed[0]
    found = puzzles(game, done.review, "g.json", starts=done.starts)
    assert hands_replayed[0] == before
    assert found == puzzles(game, done.review, "g.json")   # the same puzzles as from a fresh replay
    assert found, "the seed should flag some decision"


class _Outstanding:
    """An executor that runs each task at once and counts the futures whose result is not yet taken."""

    def __init__(self):
        self.open = self.most = 0

    def submit(self, fn, *args):
        outer = self

        class Counted(Future):
            def result(self, timeout=None):
                if not self.taken:
                    self.taken = True
                    outer.open -= 1
                return super().result(timeout)

        future = Counted()
        future.taken = False
        future.set_result(fn(*args))
        self.open += 1
        self.most = max(self.most, self.open)
        return future


def test_the_hands_in_flight_are_bounded_by_hands_not_by_games(game, alone):
    """A game's hands were all sent at once, so a long game had every hand in flight whatever ``ahead`` said;
    now at most ``ahead`` beyond the one being returned, across and within games, in input order."""
    executor = _Outstanding()
    done = list(review_items([Item("g:1", game), Item("g:2", game)], TINY, executor=executor, ahead=1))
    assert executor.most == 2 < len(game.hands)
    assert [d.review for d in done] == [alone, alone]
