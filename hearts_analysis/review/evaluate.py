"""The review's evaluation of a decision, by the name every caller has used: each name lives in the module of
its job (:mod:`.settings`, :mod:`.classes`, :mod:`.streams`, :mod:`.choices`, :mod:`.others`, :mod:`.fresh`,
:mod:`.play_review`, :mod:`.pass_review`, :mod:`.decision`) and is re-exported here."""

from .choices import canonical_pass, equivalent_groups, interchangeable, pass_choices, play_choices
from .classes import (AGREE, BANDS, BLUNDER, CLASSES, INACCURACY, LOSS, MISTAKE, NO_LOSS, UNSETTLED, band,
                      classify, loss_or_not, mean_and_margin, settle)
from .decision import GAME, POINTS, Decision, Option, Position, game_order, options_of
from .fresh import Fresh, FreshDeals, confirm, judge_on_fresh_deals
from .others import RUNNER_MODEL, own_player, reads_others, seat_logs, seat_model
from .pass_review import pass_candidates, pass_outcomes, review_pass
from .play_review import play_deals, play_outcomes, review_play
from .settings import FORCED_DEALS, PASS_DEALS_PER_PLAY_DEAL, Settings
from .streams import CHOOSE, JUDGE, game_key, rng_for

__all__ = [  # the review's names, as they were all here once; each lives in the module of its job
    "INACCURACY", "MISTAKE", "BLUNDER", "CLASSES", "BANDS", "UNSETTLED", "LOSS", "NO_LOSS", "AGREE", "band",
    "settle", "classify", "loss_or_not", "mean_and_margin", "FORCED_DEALS", "PASS_DEALS_PER_PLAY_DEAL", "Settings",
    "CHOOSE", "JUDGE", "rng_for", "game_key", "equivalent_groups", "interchangeable", "pass_choices",
    "canonical_pass", "play_choices", "RUNNER_MODEL", "own_player", "seat_model", "reads_others", "seat_logs",
    "Fresh", "FreshDeals", "judge_on_fresh_deals", "confirm", "play_outcomes", "play_deals", "pass_candidates",
    "pass_outcomes", "Option", "Decision", "Position", "options_of", "review_play", "review_pass", "GAME", "POINTS", "game_order"]

