"""The simulator's plays on the compiled kernel against the Python bots: the same games, card by card.

A table of HeuristicBots plays on :mod:`hearts_analysis.kernel.heuristic`; every other table, and
these tests with the kernel switched off, on the bots' own ``choose_play``. The records of both must be
equal field by field (the plays, points, moons, totals), and so must what the bots keep between hands
(``moon_attempts``, the ``shooting`` flag) and the random streams (a later hand's deal and pass).
"""

from __future__ import annotations

import functools
import random
import subprocess
import sys

import pytest

from hearts_analysis.records import game_to_dict
from hearts_analysis.rules import PRESETS, RuleError, Rules
from hearts_analysis.simulate import BlunderBot, HandPlay, HeuristicBot, RandomBot, game, kernel_play, mixed_bot
from hearts_analysis.simulate import simulate_game, simulate_pool
from hearts_analysis.simulate.pool import make_pool

from review_positions import PRESET_RULES, RULE_IDS

VARIANTS = {"moon-none": Rules.preset("standard", moon="none"),
            "shy-of-tricks": Rules.preset("omnibus", no_tricks_bonus=-5, pass_count=0),
            "left-of-dealer-ends-hand": Rules.preset("black_queen", first_lead="left_of_dealer"),
            "points-first-unbroken": Rules.preset("classic", points_on_first_trick=True, hearts_must_be_broken=False),
            "any-club-queen-first": Rules.preset("openspiel", first_lead="any_club", jack_of_diamonds=-10)}
RULES = {**{name: Rules.preset(name) for name in PRESETS}, **dict(zip(RULE_IDS, PRESET_RULES)), **VARIANTS}
TABLES = []
for _name, _rules in RULES.items():
    for _players in (3, 4, 5, 6, 7):
        try:
            _rules.table(_players)
        except RuleError:
            continue
        TABLES.append(pytest.param(_rules, _players, id=f"{_name}-{_players}"))
SEEDS = range(4)


class Counted:
    """``kernel_play.play_out``, counting its calls."""

    def __init__(self):
        self.calls = 0
        self._play_out = kernel_play.play_out

    def __call__(self, play, bots):
        self.calls += 1
        return self._play_out(play, bots)


def played(monkeypatch, on_kernel: bool, rules: Rules, players: int, seed, bot=HeuristicBot):
    """A game through one path: its record, and what each seat's bot kept of the game."""
    monkeypatch.setattr(game, "KERNEL", on_kernel)
    made = []

    def seat(rng):
        made.append(bot(rng))
        return made[-1]

    record = simulate_game(rules, [f"p{s}" for s in range(players)], seed, seat)
    return game_to_dict(record), [(b.moon_attempts, b.shooting, b.rng.random()) for b in made]


@pytest.mark.parametrize("rules,players", TABLES)
def test_the_kernel_plays_the_games_the_bots_play(monkeypatch, rules, players):
    counted = Counted()
    monkeypatch.setattr(kernel_play, "play_out", counted)
    for seed in SEEDS:
        by_the_bots, bots_kept = played(monkeypatch, False, rules, players, seed)
        assert counted.calls == 0
        on_the_kernel, kernel_kept = played(monkeypatch, True, rules, players, seed)
        assert counted.calls == len(on_the_kernel["hands"])
        counted.calls = 0
        for hand, (python, kernel) in enumerate(zip(by_the_bots["hands"], on_the_kernel["hands"]), 1):
            assert kernel == python, f"seed {seed}, hand {hand}"
        assert on_the_kernel == by_the_bots
        assert kernel_kept == bots_kept   # moon attempts, the shooting flag, each bot's stream afterwards


def test_the_compared_games_run_for_the_moon_and_end_hands_early(monkeypatch):
    """The comparison means something: its games hold moon runs, hold hands and hands swept early."""
    runs = holds = swept = 0
    for rules, players in [(Rules.preset("standard"), 4), (Rules.preset("black_queen"), 4),
                           (RULES["shy-of-tricks"], 5)]:
        for seed in SEEDS:
            record, kept = played(monkeypatch, True, rules, players, seed)
            runs += sum(len(attempts) for attempts, _, _ in kept)
            holds += sum(hand.get("passes") is None for hand in record["hands"])
            swept += sum(len(hand["plays"]) < 52 for hand in record["hands"])
    assert runs and holds and swept


def test_a_hand_swept_at_the_first_lead_plays_nothing_and_draws_nothing():
    """Under ``ends_hand`` a first leader dealt only hearts takes every card: no seat plays, so no
    bot makes its plan (the kernel is not asked)."""
    table = Rules.preset("black_queen", first_lead="left_of_dealer", pass_count=0).table(4)
    hearts = sum(1 << card for card in range(26, 39))
    others = [sum(1 << card for card in range(13 * suit, 13 * suit + 13)) for suit in (0, 1, 3)]
    results = []
    for play_out in (HandPlay.play_out, kernel_play.play_out):
        hand = HandPlay(table, [others[0], hearts, others[1], others[2]], dealer=0)
        hand.start()
        bots = [HeuristicBot(random.Random(seat)) for seat in range(4)]
        plays = play_out(hand, bots) if play_out is HandPlay.play_out else play_out(hand, bots)[0]
        results.append((plays, hand.taken, hand.tricks_won, [b.rng.random() for b in bots]))
    assert results[0] == results[1] and results[0][0] == [] and results[0][1][1] == table.deck


class OwnHeuristicBot(HeuristicBot):
    """A HeuristicBot by its class, playing otherwise (as a subclass may)."""

    __slots__ = ()


@pytest.mark.parametrize("bots", [
    [RandomBot] * 4, [functools.partial(BlunderBot, log=[])] * 4, [mixed_bot] * 4,
    [HeuristicBot, HeuristicBot, RandomBot, HeuristicBot], [OwnHeuristicBot] * 4,
], ids=["random", "blunder", "mixed", "one-random", "subclass"])
def test_a_table_that_is_not_all_heuristic_bots_plays_in_python(monkeypatch, bots):
    def refuse(play, bots):
        raise AssertionError("the kernel played a table it does not model")
    monkeypatch.setattr(kernel_play, "play_out", refuse)
    record = simulate_game(Rules.preset("standard", target=40), "abcd", 3, bots)
    assert record.hands


def test_one_bot_in_two_seats_plays_in_python():
    bot = HeuristicBot(random.Random(1))
    assert not game.on_kernel([bot, bot, HeuristicBot(random.Random(2)), HeuristicBot(random.Random(3))])
    assert game.on_kernel([HeuristicBot(random.Random(seat)) for seat in range(4)])


def test_a_pool_of_heuristic_bots_plays_on_the_kernel_the_same_games(monkeypatch):
    rules, pool = Rules.preset("standard", target=50), make_pool(6, {"heuristic": 5, "random": 1}, seed=4)
    counted = Counted()
    monkeypatch.setattr(kernel_play, "play_out", counted)
    monkeypatch.setattr(game, "KERNEL_GAMES", 6)   # the pool's run of six games asks for the kernel
    on_the_kernel = list(simulate_pool(6, rules, pool, players=4, seed=4))
    assert counted.calls   # the tables without the random player
    monkeypatch.setattr(game, "KERNEL", False)
    assert list(simulate_pool(6, rules, pool, players=4, seed=4)) == on_the_kernel


@pytest.mark.parametrize("games,loads", [(10_000, False), (2, True)])
def test_a_short_run_is_left_to_python_and_a_long_one_loads_the_kernel(games, loads):
    """A run of ``KERNEL_GAMES`` games or more plays on the kernel; a shorter one plays in Python and
    never imports numba: loading it costs more than a short run saves."""
    code = ("import sys; from hearts_analysis.rules import Rules; from hearts_analysis.simulate import game, "
            f"simulate_games; game.KERNEL_GAMES = {games}; "
            "games = list(simulate_games(2, Rules.preset('standard', target=60), seed=3)); "
            "print(len(games), 'numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["2", str(loads)]
