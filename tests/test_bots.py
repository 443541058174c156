"""The simulator's bots and hand kernel: legality agrees with the engine, bots use only their seat's
knowledge, and they play like Hearts players (duck, dump QS, pass by the book, run for the moon)."""

from __future__ import annotations

import math
import random
import statistics
from functools import partial

import pytest
from hypothesis import given, settings, strategies as st

from hearts_analysis.cards import JD, QS, QS_MASK, SPADES, SUIT_MASKS, mask_of, parse_card
from hearts_analysis.engine import HandState, replay_game
from hearts_analysis.rules import PRESETS, RuleError, Rules
from hearts_analysis.simulate import (BlunderBot, BotError, HandPlay, HeuristicBot, RandomBot, mixed_bot,
                                      simulate_game, simulate_games)
from hearts_analysis.simulate.game import deal, pass_direction_for

PROPERTY = settings(max_examples=30, deadline=None, derandomize=True)
OVERRIDES = [{}, {"jack_of_diamonds": -10, "no_tricks_bonus": -5}, {"only_hearts_lead": "ends_hand"},
             {"only_hearts_lead": "queen_first", "hearts_broken_by": "heart"},
             {"hearts_must_be_broken": False, "points_on_first_trick": True},
             {"first_lead": "any_club"}, {"first_lead": "left_of_dealer"}, {"pass_count": 0}]


@st.composite
def tables(draw):
    """A preset with one set of overrides, for a player count it can seat."""
    players = draw(st.integers(3, 7))
    rules = Rules.preset(draw(st.sampled_from(sorted(PRESETS))), **draw(st.sampled_from(OVERRIDES)))
    if rules.pass_cycle and "across" in rules.pass_cycle and players % 2:
        rules = rules.replace(pass_cycle=["left", "right"])
    return rules.table(players)


def dealt_hand(table, rng, bots, number=1):
    """A HandPlay after the deal and the pass of hand ``number``, ready for trick 1."""
    hands = [mask_of(cards) for cards in deal(table, rng)]
    direction = pass_direction_for(table, number, rng)
    play = HandPlay(table, hands, number, (number - 1) % table.players, None, direction)
    if direction != "hold" and table.rules.pass_count:
        given = [bot.choose_pass(play.views[s], table.rules.pass_count) for s, bot in enumerate(bots)]
        play.exchange(given, table.pass_offset(direction))
    play.start()
    return play


# -- the kernel agrees with the engine ----------------------------------------------------
@PROPERTY
@given(tables(), st.integers(0, 2**32), st.sampled_from([RandomBot, HeuristicBot, mixed_bot]),
       st.integers(1, 4))
def test_kernel_legality_and_tricks_match_the_engine_at_every_decision(table, seed, bot, number):
    rng = random.Random(seed)
    bots = [bot(random.Random(rng.getrandbits(32))) for _ in range(table.players)]
    play = dealt_hand(table, rng, bots, number)
    state = HandState(table, play.hands, play.public.leader)
    public = play.public
    while not public.ended:
        seat = public.turn
        assert seat == state.to_play and not state.is_over
        legal = play.legal(seat)
        assert legal == state.legal_cards(seat)
        card = bots[seat].choose_play(play.views[seat], legal)
        play.push(seat, card)
        state.push(seat, card)
        assert play.hands == state.hands and public.taken == state.taken and public.broken == state.broken
    assert state.is_over and public.tricks_won == state.tricks_won
    assert public.trick_winners == state.trick_winners[:len(public.trick_winners)]


POINTY = sorted(set(range(26, 39)) | {QS, JD, 0, 1, 12, 13, 40, 45})
"""Hearts, QS and a few others: positions where the breaking and first-trick rules bite."""


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(OVERRIDES), st.data())
def test_kernel_legality_matches_the_engine_on_crafted_positions(overrides, data):
    table = Rules.preset("standard", **overrides).table(4)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    pool = rng.sample(POINTY, len(POINTY))
    hands, used = [], 0
    for size in [rng.randint(1, 5) for _ in range(4)]:
        hands.append(mask_of(pool[used:used + size]))
        used += size
    leader, trick_number, broken = rng.randrange(4), rng.randint(1, 3), rng.random() < 0.5
    state = HandState(table, hands, leader)
    play = HandPlay(table, hands)
    play.start(leader)
    assert play.public.ended == state.is_over
    if state.is_over:
        return
    # a crafted position: set on the state machine (the truth), which the record the bots read reads
    state.trick_number = play.trick_number = trick_number
    state.broken = play.broken = broken
    for _ in range(rng.randint(0, 3)):  # some cards into the trick, legal or not
        seat = state.to_play
        assert play.legal(seat) == state.legal_cards(seat)
        if not state.hands[seat]:
            return
        card = rng.choice([c for c in range(52) if state.hands[seat] >> c & 1])
        state.push(seat, card)
        play.push(seat, card)
    assert play.legal(state.to_play) == state.legal_cards(state.to_play)


PUBLIC_FIELDS = ("trick_number", "leader", "turn", "trick", "trick_cards", "led", "top", "winner", "played",
                 "taken", "tricks_won", "trick_winners", "voids", "point_seats", "broken", "ended")


@PROPERTY
@given(tables(), st.integers(0, 2**32), st.data())
def test_a_hand_resumed_part_way_shows_the_bots_the_same_record(table, seed, data):
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(s)) for s in range(table.players)]
    play = dealt_hand(table, rng, bots)
    leader = play.public.leader
    passed = [view.passed for view in play.views]
    plays = []
    cut = data.draw(st.integers(0, table.hand_size * table.players - 1))
    snapshot = None
    while not play.public.ended:
        if len(plays) == cut:
            snapshot = (list(play.hands), {f: _copied(getattr(play.public, f)) for f in PUBLIC_FIELDS})
        seat = play.public.turn
        card = bots[seat].choose_play(play.views[seat], play.legal(seat))
        plays.append((seat, card))
        play.push(seat, card)
    if snapshot is None:  # the hand ended early (only_hearts_lead ends_hand)
        return
    hands, public = snapshot
    resumed = HandPlay.resume(table, hands, plays[:cut], leader, 1, 0, None, play.public.pass_direction, passed)
    assert {f: getattr(resumed.public, f) for f in PUBLIC_FIELDS} == public and resumed.hands == hands
    assert [(v.passed, v.received, v.pass_offset) for v in resumed.views] == \
        [(v.passed, v.received, v.pass_offset) for v in play.views]
    resumed.play_out([HeuristicBot(random.Random(s)) for s in range(table.players)])
    assert resumed.public.ended and not any(resumed.hands)


def _copied(value):
    return list(value) if isinstance(value, list) else value


def test_a_bot_choosing_an_illegal_card_is_stopped():
    class Cheat:
        def choose_play(self, view, legal):
            return (view.hand & ~legal or legal).bit_length() - 1

    table = Rules.preset("standard").table(4)
    play = dealt_hand(table, random.Random(1), [HeuristicBot(random.Random(s)) for s in range(4)])
    with pytest.raises(BotError, match="legal:"):
        play.play_out([Cheat()] * 4)


# -- bots decide only on what their seat knows ----------------------------------------------
@PROPERTY
@given(tables(), st.integers(0, 2**32), st.sampled_from([HeuristicBot, BlunderBot, RandomBot]), st.data())
def test_a_decision_depends_only_on_what_the_seat_knows(table, seed, bot, data):
    """Redeal the cards a seat has not seen at one of its turns (keeping what each seat played,
    and the cards it passed with their receiver): up to that turn it decides the same."""
    if table.rules.only_hearts_lead == "ends_hand":  # there the hidden hands can end the hand
        table = table.rules.replace(only_hearts_lead="allowed").table(table.players)
    rng = random.Random(seed)
    n = table.players
    watched = rng.randrange(n)
    bots = [HeuristicBot(random.Random(s)) for s in range(n)]
    bots[watched] = bot(random.Random(seed))
    hands = [mask_of(cards) for cards in deal(table, rng)]
    direction = pass_direction_for(table, 1, rng)
    play = HandPlay(table, hands, 1, 0, None, direction)
    passing = direction != "hold" and table.rules.pass_count
    if passing:
        given = [b.choose_pass(play.views[s], table.rules.pass_count) for s, b in enumerate(bots)]
        play.exchange(given, table.pass_offset(direction))
    play.start()
    start, leader, me = list(play.hands), play.public.leader, play.views[watched]
    plays = play.play_out(bots)
    turns = [i for i, (seat, _) in enumerate(plays) if seat == watched]
    until = turns[data.draw(st.integers(0, len(turns) - 1))]

    gone = [0] * n
    for seat, card in plays[:until]:
        gone[seat] |= 1 << card
    keep = [gone[s] | (start[s] if s == watched else 0) for s in range(n)]
    if me.passed:
        receiver = (watched + me.pass_offset) % n
        keep[receiver] |= me.passed & start[receiver]
    pool = [c for c in range(52) if table.deck >> c & 1 and not any(k >> c & 1 for k in keep)]
    rng.shuffle(pool)
    twin_hands = list(keep)
    for seat in range(n):
        while twin_hands[seat].bit_count() < start[seat].bit_count():
            twin_hands[seat] |= 1 << pool.pop()
    assert not pool and sum(h.bit_count() for h in twin_hands) == table.deck.bit_count()

    twin = HandPlay(table, twin_hands, 1, 0, None, direction)
    view = twin.views[watched]
    again = bot(random.Random(seed))
    if passing:
        view.hand = hands[watched]  # the deal, as the seat saw it when it passed
        assert again.choose_pass(view, table.rules.pass_count) == me.passed
        view.hand, view.passed, view.received, view.pass_offset = start[watched], me.passed, me.received, me.pass_offset
    twin.start(leader)
    for seat, card in plays[:until + 1]:
        if seat == watched:
            assert again.choose_play(view, twin.legal(seat)) == card
        twin.push(seat, card)


# -- complete, legal, deterministic games --------------------------------------------------
PLAYABLE = [(name, n) for name in sorted(PRESETS) for n in range(3, 8)
            if not (PRESETS[name].fields.get("pass_cycle") and "across" in PRESETS[name].fields["pass_cycle"]
                    and n % 2)]


@pytest.mark.parametrize("preset,players", PLAYABLE)
def test_every_simulated_game_replays_clean_and_reaches_the_target(preset, players):
    rules = Rules.preset(preset)
    for game in simulate_games(2, rules, players, seed=players, bot=mixed_bot):
        result = replay_game(game)
        assert result.valid, result.violations[:3]
        assert result.complete and game.complete and result.ended_at == len(game.hands)
        assert tuple(result.totals) == game.hands[-1].totals
        target = rules.target
        if rules.deals_per_game:
            assert len(game.hands) == rules.deals_per_game
        else:
            assert max(result.totals) > target if rules.end_at == "exceed" else max(result.totals) >= target


def test_presets_that_cannot_seat_a_count_are_rejected():
    with pytest.raises(RuleError, match="across"):
        simulate_game(Rules.preset("online"), ["a", "b", "c"], 1)


@pytest.mark.parametrize("overrides", OVERRIDES[1:])
def test_rule_variants_replay_clean(overrides):
    rules = Rules.preset("standard", **overrides)
    for players in (3, 4, 6):
        for game in simulate_games(2, rules, players, seed=11):
            assert replay_game(game).valid


def test_the_any_direction_draws_a_direction_each_hand_and_never_across_for_odd_tables():
    for players in (3, 4):
        seen = set()
        for game in simulate_games(6, Rules.preset("openspiel"), players, seed=3):
            seen |= {hand.pass_direction for hand in game.hands}
            assert replay_game(game).valid
        assert seen == ({"left", "right", "hold"} | ({"across"} if players == 4 else set()))


def test_the_same_seed_gives_the_same_games_and_another_seed_others():
    rules = Rules.preset("omnibus")
    first = list(simulate_games(3, rules, 5, seed=9, bot=mixed_bot))
    assert first == list(simulate_games(3, rules, 5, seed=9, bot=mixed_bot))
    assert list(simulate_games(2, rules, 5, seed=9, bot=mixed_bot)) == first[:2]  # game i depends on i only
    assert first[0].hands != next(simulate_games(1, rules, 5, seed=10, bot=mixed_bot)).hands
    assert simulate_game(rules, "abcd", "x") == simulate_game(rules, "abcd", "x")


def test_one_bot_per_seat_can_be_given():
    game = simulate_game(Rules.preset("standard"), "abcd", 1, bot=[HeuristicBot, RandomBot] * 2)
    assert replay_game(game).valid
    with pytest.raises(ValueError, match="3 bots for 4 players"):
        simulate_game(Rules.preset("standard"), "abcd", 1, bot=[HeuristicBot] * 3)


# -- they play like Hearts players ---------------------------------------------------------
def mixed_table_points(rules, players, games):
    """Points per hand of heuristic seats and of random seats sharing tables."""
    heuristic, random_ = [], []
    for index in range(games):
        seats = [HeuristicBot if (s + index) % 2 == 0 else RandomBot for s in range(players)]
        game = simulate_game(rules, [f"p{s}" for s in range(players)], index, bot=seats)
        for hand in game.hands:
            for seat, points in enumerate(hand.points):
                (heuristic if seats[seat] is HeuristicBot else random_).append(points)
    return heuristic, random_


@pytest.mark.parametrize("preset,players", [("standard", 4), ("omnibus", 4), ("classic", 5)])
def test_heuristic_bots_take_clearly_fewer_points_than_random_ones(preset, players):
    heuristic, random_ = mixed_table_points(Rules.preset(preset), players, 30)
    gap = statistics.mean(random_) - statistics.mean(heuristic)
    error = math.sqrt(statistics.variance(heuristic) / len(heuristic) + statistics.variance(random_) / len(random_))
    assert gap > 8 * error and gap > 3  # a Welch statistic far beyond chance, and a large effect


class JackBlindBot(HeuristicBot):
    """The heuristic player, unaware that JD is worth -10."""

    __slots__ = ()

    def _learn_rules(self, public):
        super()._learn_rules(public)
        self._jd_bonus = False


def test_with_the_jack_worth_minus_ten_heuristic_bots_go_for_it():
    wins = {HeuristicBot: 0, JackBlindBot: 0}
    points = {HeuristicBot: [], JackBlindBot: []}
    for index in range(30):
        seats = [HeuristicBot if (s + index) % 2 == 0 else JackBlindBot for s in range(4)]
        result = replay_game(simulate_game(Rules.preset("omnibus"), "abcd", index, bot=seats))
        for hand in result.hands:
            for seat, taken in enumerate(hand.taken):
                wins[seats[seat]] += taken >> JD & 1
                points[seats[seat]].append(hand.points[seat])
    assert wins[HeuristicBot] > 1.5 * wins[JackBlindBot]
    assert statistics.mean(points[HeuristicBot]) < statistics.mean(points[JackBlindBot]) - 0.5


def test_passes_follow_the_passing_advice():
    """The online rules page's advice: with fewer than four spades pass AS, KS, QS (passing right with a low spade, only
    QS); never spades below the queen; keep 2s and 3s; never the top three hearts or a lone AH."""
    table = Rules.preset("standard").table(4)
    counts = dict.fromkeys(["passes", "queen_held", "queen_passed", "high_held", "high_passed",
                            "low_spade", "low_card", "three_hearts"], 0)
    ah = parse_card("AH")
    for game in simulate_games(40, table.rules, 4, seed=5):
        for number, hand in enumerate(game.hands, 1):
            for dealt, passed_cards in zip(hand.deal, hand.passes or ()):
                counts["passes"] += 1
                spades = [c for c in dealt if c // 13 == SPADES]
                low_spades = [c for c in spades if c < QS]
                if len(spades) < 4 and QS in dealt:
                    counts["queen_held"] += 1
                    counts["queen_passed"] += QS in passed_cards
                if len(spades) < 4 and not (table.pass_direction(number) == "right" and low_spades):
                    for high in (parse_card("AS"), parse_card("KS")):
                        if high in dealt:
                            counts["high_held"] += 1
                            counts["high_passed"] += high in passed_cards
                counts["low_spade"] += any(c in low_spades for c in passed_cards)
                counts["low_card"] += any(c % 13 < 2 for c in passed_cards)
                hearts = sorted((c for c in dealt if c // 13 == 2), reverse=True)
                counts["three_hearts"] += sum(c // 13 == 2 for c in passed_cards) == 3
                assert not (len(hearts) >= 3 and set(hearts[:3]) <= set(passed_cards))  # never the top three hearts
                assert not (hearts == [ah] and ah in passed_cards)  # never a singleton AH
    assert counts["queen_held"] > 50 and counts["queen_passed"] / counts["queen_held"] > 0.95
    assert counts["high_held"] > 50 and counts["high_passed"] / counts["high_held"] > 0.9
    assert counts["low_spade"] / counts["passes"] < 0.03  # only in a moon pass
    assert counts["low_card"] / counts["passes"] < 0.05
    assert counts["three_hearts"] / counts["passes"] < 0.01


def test_heuristic_bots_duck_and_dump_the_queen():
    """Over a corpus: a seat void in the suit led dumps QS when it holds it, and a seat that can
    play under a trick holding QS does."""
    dumped = held_void = ducked = could_duck = 0
    for game in simulate_games(20, Rules.preset("standard"), 4, seed=2):
        for record in game.hands:
            state = None
            table = game.rules.table(4)
            hands = [mask_of(c) for c in record.deal]
            if record.passes:
                offset = table.pass_offset(table.pass_direction(game.hands.index(record) + 1))
                given = [mask_of(p) for p in record.passes]
                hands = [hands[s] & ~given[s] | given[(s - offset) % 4] for s in range(4)]
            state = HandState(table, hands, HandState.first_leader_for(table, hands, record.dealer))
            for seat, card in record.plays:
                legal = state.legal_cards(seat)
                if state.trick and state.trick_number > 1:
                    led = SUIT_MASKS[state.trick[0][1] // 13]
                    top = (state.trick_cards & led).bit_length() - 1
                    if not legal & led and legal & QS_MASK:
                        held_void += 1
                        dumped += card == QS
                    if state.trick_cards & QS_MASK and legal & led & ((1 << top) - 1):
                        could_duck += 1
                        ducked += card < top
                state.push(seat, card)
    assert held_void > 20 and dumped / held_void > 0.9
    assert could_duck > 20 and ducked / could_duck > 0.95


def test_bots_run_for_the_moon_now_and_then_and_sometimes_fail():
    runners: list[HeuristicBot] = []

    def watched(rng):
        runners.append(HeuristicBot(rng))
        return runners[-1]

    rules = Rules.preset("standard")
    games = list(simulate_games(60, rules, 4, seed=21, bot=watched))
    hands = sum(len(g.hands) for g in games)
    made = failed = 0
    for index, game in enumerate(games):
        result = replay_game(game)
        for seat in range(4):
            for number in runners[index * 4 + seat].moon_attempts:
                moon = result.hands[number - 1].moon
                if moon is not None and moon.seat == seat:
                    made += 1
                else:
                    failed += 1
    assert (made + failed) / hands > 0.01  # a measurable rate of runs
    assert made >= 3 and failed >= 1
    assert sum(h.moon is not None for g in games for h in g.hands) >= made


def test_no_moon_runs_when_the_rules_have_no_moon():
    runners: list[HeuristicBot] = []

    def watched(rng):
        runners.append(HeuristicBot(rng))
        return runners[-1]

    list(simulate_games(30, Rules.preset("standard", moon="none"), 4, seed=21, bot=watched))
    assert not any(bot.moon_attempts for bot in runners)


# -- the deliberate blunderer -------------------------------------------------------------
def test_the_blunder_bot_records_one_certain_queen_loss_per_hand_it_finds():
    found = []
    seats = [HeuristicBot, partial(BlunderBot, log=found), HeuristicBot, HeuristicBot]
    hands = 0
    kinds = set()
    for index in range(25):
        start = len(found)
        game = simulate_game(Rules.preset("standard"), "abcd", index, bot=seats)
        result = replay_game(game)
        hands += len(game.hands)
        mine = found[start:]
        assert len({b.hand for b in mine}) == len(mine)  # at most one per hand
        for blunder in mine:
            kinds.add(blunder.kind)
            record, replayed = game.hands[blunder.hand - 1], result.hands[blunder.hand - 1]
            index_in_hand = record.plays.index((blunder.seat, blunder.card))
            trick = index_in_hand // 4 + 1
            assert blunder.seat == 1 and trick == blunder.trick
            assert replayed.trick_winners[trick - 1] == 1  # it took the trick...
            assert QS in [c for _, c in record.plays[(trick - 1) * 4:trick * 4]]  # ...and the queen with it
            assert blunder.better != blunder.card
    assert len(found) > hands / 15 and len(kinds) >= 2


# -- the judge as a player ---------------------------------------------------------------------
def _judge_hand(seed: int, watched: int):
    """One standard hand, the judge in seat ``watched`` against three heuristic bots."""
    from hearts_analysis.review.judge_bot import JudgeBot
    table = Rules.preset("standard").table(4)
    rng = random.Random(seed)
    bots = [HeuristicBot(random.Random(s)) for s in range(4)]
    bots[watched] = JudgeBot(random.Random(seed))
    hands = [mask_of(cards) for cards in deal(table, rng)]
    play = HandPlay(table, hands, 1, 0, None, "left")
    given = [b.choose_pass(play.views[s], 3) for s, b in enumerate(bots)]
    play.exchange(given, table.pass_offset("left"))
    play.start()
    start, leader = list(play.hands), play.public.leader
    return table, hands, given, start, leader, play.play_out(bots), play


@pytest.mark.parametrize("seed, watched", [(1, 0), (2, 3)])
def test_the_judge_decides_only_on_what_its_seat_knows(seed, watched):
    """Redeal the cards the judge has not seen at its last turn but one (keeping every card played,
    and the cards it passed with their receiver): it passes and plays the same throughout."""
    from hearts_analysis.review.judge_bot import JudgeBot
    table, hands, given, start, leader, plays, _ = _judge_hand(seed, watched)
    turns = [i for i, (seat, _) in enumerate(plays) if seat == watched]
    until = turns[-2]
    keep = [0] * 4
    for seat, card in plays[:until]:
        keep[seat] |= 1 << card
    keep[watched] |= start[watched]
    keep[(watched + 1) % 4] |= given[watched] & start[(watched + 1) % 4]
    for attempt in range(50):     # late in a hand few cards are unseen: shuffle until they move
        rng = random.Random(seed + 100 + attempt)
        pool = [c for c in range(52) if not any(k >> c & 1 for k in keep)]
        rng.shuffle(pool)
        twin_hands = list(keep)
        for seat in range(4):
            while twin_hands[seat].bit_count() < 13:
                twin_hands[seat] |= 1 << pool.pop()
        if twin_hands != start:
            break
    assert twin_hands != start
    twin = HandPlay(table, twin_hands, 1, 0, None, "left")
    view, again = twin.views[watched], JudgeBot(random.Random(seed + 1))
    view.hand = hands[watched]
    assert again.choose_pass(view, 3) == given[watched]
    view.hand, view.passed, view.pass_offset = start[watched], given[watched], 1
    twin.start(leader)
    for seat, card in plays[:until + 1]:
        if seat == watched:
            assert again.choose_play(view, twin.legal(seat)) == card
        twin.push(seat, card)


def test_the_judges_play_is_the_reviews_best_choice():
    """One evaluator: the review of the judge's own hand finds next to nothing to flag."""
    from hearts_analysis.review import Settings, review_game
    from hearts_analysis.review.judge_bot import JudgeBot
    game = simulate_game(Rules.preset("standard"), ["judge", "b", "c", "d"], seed=4,
                         bot=[JudgeBot, HeuristicBot, HeuristicBot, HeuristicBot], max_hands=2)
    assert replay_game(game).valid
    decisions = [d for d in review_game(game, Settings(confirm=False), seats=[0]).decisions if not d.forced]
    assert len(decisions) >= 10
    assert not [d for d in decisions if d.category in ("mistake", "blunder")]
    assert sum(d.best == d.played for d in decisions) >= 0.8 * len(decisions)
