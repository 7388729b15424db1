"""bayes_tuner's settings: the control file's table, its defaults, and the match size's rule."""

from __future__ import annotations

import math
from typing import Any

from ringmaster.settings import (
    Setting,
    interpret_bool,
    interpret_enum,
    interpret_float,
    interpret_optional,
    interpret_positive_int,
)

TARGET_POINTS = 150          # with number_of_games known, matches are sized to give about this many points
MIN_GAMES_PER_POINT = 4      # the binomial model takes a short match at its worth; 2-game matches
                             # at a few hundred games let one lucky pair draw the search away
UNLIMITED_GAMES_PER_POINT = 20
TRENDS = ("constant", "quadratic")   # gaussian_process.TRENDS, named here so that settings need no numpy
ACQUISITIONS = ("knowledge_gradient", "ucb")
ANSWER_SMOOTHING = 1.0     # the answer's model has the fit's lengthscales times this (answer_smoothing):
                           # 2 gains on ridges, loses on Log1D and Rosenbrock (reports/continuous_tuners.md)
ANSWER_CAUTION = 2.0       # the answer maximises the model's mean less this many sds (answer_caution): in
                           # 4-D at 300 games it was drawn to sparse regions (reports/continuous_tuners.md)


def _interpret_nonnegative_float(value: Any) -> float:
    value = interpret_float(value)
    if value < 0.0:
        raise ValueError("must not be negative")
    return value


def _interpret_smoothing(value: Any) -> float:
    value = interpret_float(value)
    if value < 1.0:
        raise ValueError("must be at least 1 (1: the fitted model's own maximum)")
    return value


MAX_INITIAL_POINTS = 10_000
"""The most points the initial design may have: they are built at once, and the model's
fit costs the cube of its points."""

BAYES_SETTINGS = [
    Setting("number_of_games", interpret_optional(interpret_positive_int), default=None),
    Setting("games_per_point", interpret_optional(interpret_positive_int), default=None),
    Setting("initial_points", interpret_optional(interpret_positive_int), default=None),
    Setting("start_matches", interpret_optional(interpret_positive_int), default=None),
    Setting("acquisition", interpret_enum(*ACQUISITIONS), default="knowledge_gradient"),
    Setting("ucb_kappa", _interpret_nonnegative_float, default=1.96),
    Setting("refit_every", interpret_positive_int, default=10),
    Setting("trend", interpret_enum(*TRENDS), default="quadratic"),
    Setting("trust_region", interpret_bool, default=False),
    Setting("answer_smoothing", _interpret_smoothing, default=ANSWER_SMOOTHING),
    Setting("answer_caution", _interpret_nonnegative_float, default=ANSWER_CAUTION),
    Setting("head_to_head", interpret_optional(interpret_bool), default=None),
]


GEOMETRIC_REFITS_FROM = 200   # matches: from a fit at this many, refits wait for 10% more (REFIT_GROWTH);
                              # the bench (300 to 20,000 games) never has more than 187, so its rows stand
REFIT_GROWTH = 0.1


def refit_due(matches: int, fitted_at: int, refit_every: int) -> bool:
    """Whether the model's hyperparameters are due a refit at matches (with results), last fitted at
    fitted_at: after refit_every more, and from GEOMETRIC_REFITS_FROM after REFIT_GROWTH times
    fitted_at more where that is later. A refit solves the model about 100 times at the cube of the
    matches each, so at a fixed period a run with no end cost the fourth power of its matches (a
    refit every 10 matches took 33 s at 1,000); growing the period with the matches makes it the cube."""
    interval = refit_every
    if fitted_at >= GEOMETRIC_REFITS_FROM:
        interval = max(refit_every, math.ceil(REFIT_GROWTH * fitted_at))
    return matches >= fitted_at + interval


def default_games_per_point(number_of_games: int | None) -> int:
    """Even, at least MIN_GAMES_PER_POINT, and about TARGET_POINTS points over the run (fewer
    below TARGET_POINTS x MIN_GAMES_PER_POINT games)."""
    if number_of_games is None:
        return UNLIMITED_GAMES_PER_POINT
    size = max(MIN_GAMES_PER_POINT, round(number_of_games / TARGET_POINTS))
    return size + size % 2


def default_start_matches(acquisition: str) -> int:
    """Matches at the start in the initial design: 4 for the knowledge gradient (a model anchored
    at the user's setting searches better at a few hundred games); 1 for UCB, which the anchor
    misled (reports/continuous_tuners.md, issue 34)."""
    return 4 if acquisition == "knowledge_gradient" else 1
