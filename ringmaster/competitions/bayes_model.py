"""bayes_tuner's model on its matches: their arrays, candidate points, the best mean, matches in flight."""

from __future__ import annotations

from typing import Any, NamedTuple

RANDOM_CANDIDATES = 500
LOCAL_CANDIDATES = 100


class Observed(NamedTuple):
    """The matches with results, as numpy arrays (a row or entry a match): each one's point, x's
    wins and games, and the head-to-head matches' other points (other_array)."""
    x: Any
    wins: Any
    games: Any
    other: Any


def observed_matches(points: list[dict[str, Any]]) -> Observed:
    """The matches of points that have results (games > 0), as Observed."""
    import numpy as np

    observed = [p for p in points if p["games"] > 0]
    return Observed(np.array([p["x"] for p in observed]), np.array([p["wins"] for p in observed]),
                    np.array([p["games"] for p in observed], dtype=float), other_array(observed))


def other_array(points: list[dict[str, Any]]) -> Any:
    """The head-to-head matches' other points, a row per match (NaN for a match against the
    opponent); None when no match was head to head."""
    import numpy as np

    if not any("y" in p for p in points):
        return None
    nan = [float("nan")] * len(points[0]["x"])
    return np.array([p.get("y", nan) for p in points], dtype=float)


def candidates(rng: Any, around: Any, spread: float, count: int, low: Any = 0.0, high: Any = 1.0) -> Any:
    """count uniform points in the box from low to high (the whole space by default),
    LOCAL_CANDIDATES normal ones (sd spread) around the rows of around, and around, all in it."""
    import numpy as np

    around = np.atleast_2d(np.asarray(around, dtype=float))
    dims = around.shape[1]
    centres = around[rng.integers(0, len(around), LOCAL_CANDIDATES)]
    local = np.clip(centres + rng.normal(0.0, spread, centres.shape), low, high)
    return np.concatenate([low + rng.random((count, dims)) * (high - low), local,
                           np.clip(around, low, high)])


def best_mean(gp: Any, played: Any, rng: Any, caution: float = 0.0) -> Any:
    """The candidate with the highest mean less caution sds: random points and the points
    played (the rows of played), then twice the neighbourhood of the best so far."""
    import numpy as np

    def score(points: Any) -> Any:
        if caution == 0.0:
            return gp.predict_mean(points)
        mean, sd = gp.predict(points)
        return mean - caution * sd

    found = candidates(rng, played, 0.05, RANDOM_CANDIDATES)
    for spread in (0.03, 0.01):
        best = found[int(np.argmax(score(found)))]
        found = candidates(rng, best, spread, 0)
    return found[int(np.argmax(score(found)))]


def answer_model(gp: Any, smoothing: float) -> Any:
    """The model whose mean's maximum is the answer: gp with its lengthscales times
    smoothing (answer_smoothing; gp itself at 1).

    The maximum of a fit to noisy matches is drawn to its luckiest bump (the winner's
    curse), and finding where a function peaks can want a wider window than fitting its
    values does: doubling the fitted lengthscales halved bayes_tuner's mean regret on
    IllCorrelated at 2,000 games, and raised it on Log1D and on Rosenbrock at 300 and 600
    (reports/continuous_tuners.md, issue 34), so it is off by default.
    """
    if smoothing == 1.0:
        return gp
    from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters

    hyper = gp.hyper
    smoother = Hyperparameters(tuple(smoothing * ls for ls in hyper.lengthscales),
                               hyper.signal_sd, hyper.rotation)
    return GaussianProcess(gp.x, gp.wins, gp.games, smoother, trend=gp.trend, start=gp.mode,
                           other=gp.other)


def with_pending(gp: Any, pending: list[dict[str, Any]], games_per_point: int) -> Any:
    """gp with a match of games_per_point for each of pending (matches still being played) that
    went as gp predicts: the mean stays, the uncertainty there shrinks."""
    import numpy as np

    from ringmaster.tuning.gaussian_process import GaussianProcess

    pending_x = np.array([p["x"] for p in pending])
    predicted = gp.predict_mean(pending_x)
    pending_other = other_array(pending)
    if pending_other is not None:
        paired = ~np.isnan(pending_other).any(axis=1)
        predicted[paired] -= gp.predict_mean(pending_other[paired])
    rate = 1.0 / (1.0 + np.exp(-predicted))
    size = float(games_per_point)
    other = None
    if gp.other is not None or pending_other is not None:
        nan = np.full(pending_x.shape, np.nan)
        other = np.concatenate([np.full(gp.x.shape, np.nan) if gp.other is None else gp.other,
                                nan if pending_other is None else pending_other])
    return GaussianProcess(np.concatenate([gp.x, pending_x]), np.concatenate([gp.wins, size * rate]),
                           np.concatenate([gp.games, np.full(len(pending_x), size)]),
                           gp.hyper, trend=gp.trend, other=other)
