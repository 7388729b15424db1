"""bayes_tuner's choice of the next match: the initial design, the knowledge gradient's lone matches and
head-to-head pairs, UCB."""

from __future__ import annotations

import random
from typing import Any

from ringmaster.competitions.bayes_model import RANDOM_CANDIDATES, best_mean, candidates

KG_ANSWERS = 200             # uniform points among the knowledge gradient's possible answers
KG_CHOICES = 150             # uniform points a lone match may go to (with head_to_head, only below
                             # LONE_NEAR_DIMENSIONS parameters); and the pairs' random directions
KG_SPREAD = 0.15             # sd of the choices near the current best (optimiser units)
LONE_NEAR_DIMENSIONS = 2     # head_to_head: with this many parameters or more, a match against the
                             # opponent is chosen only near the incumbent; in 1-D that gained nothing
                             # and widened the optimum's interval five times (issue 34)
LEVEL_EVERY = 4   # head_to_head: every 4th match after the design plays the opponent at the incumbent
PAIR_RADII = (0.02, 0.25)  # a head-to-head match's two points lie this far either side of the incumbent
AXIS_RADII = 6             # head-to-head choices along each of the kernel's axes, at radii across PAIR_RADII


def latin_hypercube(count: int, dims: int, rng: random.Random) -> list[list[float]]:
    """count points in [0, 1]^dims, one in each of count equal slices of every dimension."""
    columns = []
    for _ in range(dims):
        column = [(i + rng.random()) / count for i in range(count)]
        rng.shuffle(column)
        columns.append(column)
    return [list(point) for point in zip(*columns)]


def pairs_either_side(centre: Any, steps: Any) -> tuple[Any, Any]:
    """(plus, minus): the points centre + step and centre - step for each row of steps (each
    coordinate at most 0.5), the pair moved inward together where one would leave [0, 1], so that
    it keeps its full length.

    Clipped point by point, a pair at an incumbent by an edge lost the part of its step beyond
    the edge and measured the slope over as little as half its length: on the bench's Flat4D at
    2,000 games, moving pairs inward whole cut bayes_tuner's mean regret by a fifth
    (reports/continuous_tuners.md, issue 34).
    """
    import numpy as np

    steps = np.asarray(steps, dtype=float)
    reach = np.abs(steps)
    middle = np.clip(np.asarray(centre, dtype=float), reach, 1.0 - reach)
    return np.clip(middle + steps, 0.0, 1.0), np.clip(middle - steps, 0.0, 1.0)   # against rounding


def next_pair(gp: Any, played: Any, rng: Any, after_design: int, games_per_point: int) -> dict[str, Any]:
    """A match after the design with head_to_head (after_design matches came before it since the
    design; gp counts those still being played as if they went as predicted; played: the points
    with results, a row each): whichever the knowledge gradient rates higher of the best
    head-to-head match, two points either side of the incumbent (the model's best mean; moved
    inward together at an edge, pairs_either_side), in random directions and along the kernel's
    axes, and the best match against the opponent. {"x": point} against the opponent, or with
    "y" the other point of a head-to-head match.

    A game between two candidates measures the difference of their strengths with about a
    quarter of the variance that two games against the opponent do, and a pair either side
    of the incumbent measures the slope there, as SPSA's pairs do. A match against the
    opponent still wins where the model must look beyond the pairs' reach (CLOP's
    IllCorrelated ridge); with LONE_NEAR_DIMENSIONS parameters or more it is chosen near the
    incumbent too (normal choices, sd KG_SPREAD), since chosen anywhere it went mostly to far
    corners the design had seen lose, where a logit's flat tail never rules out a rise
    (reports/continuous_tuners.md, issue 34). Every LEVEL_EVERY-th match after the design
    plays the opponent at the incumbent, since pairs say nothing of the level: without them the
    win rate's interval at the answer was 0.20 to 0.33 wide on the bench at 1,200 games, with
    them 0.11 to 0.12.
    """
    import numpy as np

    from ringmaster.tuning.gaussian_process import knowledge_gradient, knowledge_gradient_head_to_head

    best = best_mean(gp, played, rng)
    if after_design % LEVEL_EVERY == LEVEL_EVERY - 1:
        return {"x": [float(v) for v in best]}
    dims = len(best)
    directions = rng.normal(size=(KG_CHOICES, dims))
    directions /= np.linalg.norm(directions, axis=1)[:, None]
    steps = directions * rng.uniform(*PAIR_RADII, (KG_CHOICES, 1))
    # and along the kernel's axes (a ridge across the parameters lies along one of them)
    axes = np.eye(dims) if gp.hyper.rotation is None else np.asarray(gp.hyper.rotation)
    radii = np.geomspace(*PAIR_RADII, AXIS_RADII)
    steps = np.concatenate([steps, (axes[:, None, :] * radii[None, :, None]).reshape(-1, dims)])
    plus, minus = pairs_either_side(best, steps)
    answers = candidates(rng, best, 0.05, KG_ANSWERS)
    gain = knowledge_gradient_head_to_head(gp, plus, minus, answers, games_per_point)
    chosen = int(np.argmax(gain))
    choices = candidates(rng, best, KG_SPREAD, 0 if dims >= LONE_NEAR_DIMENSIONS else KG_CHOICES)
    alone = knowledge_gradient(gp, choices, answers, games_per_point)
    if alone.max() > gain[chosen]:
        return {"x": [float(v) for v in choices[int(np.argmax(alone))]]}
    return {"x": [float(v) for v in plus[chosen]], "y": [float(v) for v in minus[chosen]]}


def next_point(gp: Any, played: Any, rng: Any, acquisition: str, ucb_kappa: float,
               games_per_point: int) -> list[float]:
    """A new point after the design, against the opponent: the acquisition's maximum (the
    knowledge gradient's, or mean + ucb_kappa * sd's), gp counting the matches still being played
    as if they went as predicted (so parallel games spread); played: the points with results."""
    import numpy as np

    from ringmaster.tuning.gaussian_process import knowledge_gradient

    best = best_mean(gp, played, rng)
    if acquisition == "ucb":
        found = candidates(rng, best, 0.05, RANDOM_CANDIDATES)
        mean, sd = gp.predict(found)
        return [float(v) for v in found[int(np.argmax(mean + ucb_kappa * sd))]]
    answers = candidates(rng, best, 0.05, KG_ANSWERS)
    choices = candidates(rng, best, KG_SPREAD, KG_CHOICES)
    gain = knowledge_gradient(gp, choices, answers, games_per_point)
    return [float(v) for v in choices[int(np.argmax(gain))]]
