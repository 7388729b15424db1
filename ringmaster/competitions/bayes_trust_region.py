"""bayes_tuner's trust region (trust_region = True): the local model on the box, the match chosen in it,
and the answer there."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ringmaster.competitions.bayes_matches import KG_ANSWERS, KG_CHOICES, KG_SPREAD
from ringmaster.competitions.bayes_model import RANDOM_CANDIDATES, Observed, candidates, with_pending
from ringmaster.competitions.bayes_settings import refit_due

if TYPE_CHECKING:
    from ringmaster.tuning.trust_region import TrustRegion

LOCAL_TREND = "constant"   # the trust region's local model: a quadratic fitted to the few dozen noisy
                           # matches near the box put its answer wrong (reports/continuous_tuners.md)


def first_region(gp: Any, x: Any) -> TrustRegion:
    """A box around the played point (a row of x) with the model's highest mean."""
    import numpy as np

    from ringmaster.tuning import trust_region

    return trust_region.TrustRegion(centre=[float(v) for v in x[int(np.argmax(gp.predict_mean(x)))]])


def local_model(region: TrustRegion, observed: Observed, refit: bool,
                refit_every: int) -> tuple[Any, Any, Any]:
    """(gp, low, side): a GP with a constant trend on the matches near the region's box, in
    coordinates that make the box the unit cube, so that its lengthscales can shrink to a peak
    the global model smooths over. Its hyperparameters are refitted every refit_every matches
    (bayes_settings.refit_due) when refit (and kept in the region); otherwise the region's are used
    as they are."""
    import numpy as np

    from ringmaster.tuning import trust_region
    from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters, fit

    x, wins, games, other = observed   # other: head-to-head matches of an earlier run
    low, high = trust_region.box(region.centre, region.side)
    side = np.maximum(high - low, 1e-6)
    near = trust_region.local_points(x, low, high)
    local_x = (x[near] - low) / side
    local_other = None if other is None else (other[near] - low) / side
    start = None if region.local_hyper is None else \
        Hyperparameters.from_lists(region.local_hyper, region.local_rotation)
    if start is None or (refit and refit_due(len(x), region.local_fitted_at, refit_every)):
        gp = fit(local_x, wins[near], games[near], start, LOCAL_TREND, other=local_other)
        if refit:
            region.local_hyper, region.local_rotation = gp.hyper.to_lists()
            region.local_fitted_at = len(x)
    else:
        gp = GaussianProcess(local_x, wins[near], games[near], start, trend=LOCAL_TREND,
                             other=local_other)
    return gp, low, side


def incumbent(local: Any, x: Any, low: Any, side: Any) -> tuple[list[float], float]:
    """The match played (a row of x) in the box (anywhere, if none is) with the local model's highest
    mean, and that mean."""
    import numpy as np

    from ringmaster.tuning import trust_region

    inside = x[trust_region.inside(x, low, low + side)]
    if len(inside) == 0:
        inside = x
    means = local.predict_mean((inside - low) / side)
    best = int(np.argmax(means))
    return [float(v) for v in inside[best]], float(means[best])


def trust_region_point(region: TrustRegion, observed: Observed, pending: Any, rng: Any,
                       refit_every: int, games_per_point: int) -> list[float]:
    """The knowledge gradient's choice inside the box, by the local model; the box first moved
    to the incumbent, its side counted a step (trust_region.step). pending: the points still being
    played, a row each, counted as matches that went as the local model predicts."""
    import numpy as np

    from ringmaster.tuning import trust_region
    from ringmaster.tuning.gaussian_process import knowledge_gradient

    local, low, side = local_model(region, observed, True, refit_every)
    centre, value = incumbent(local, observed.x, low, side)
    trust_region.step(region, value)
    region.centre = centre
    local, low, side = local_model(region, observed, True, refit_every)
    region.last_value = incumbent(local, observed.x, low, side)[1]
    high = low + side
    if len(pending):
        pending = pending[trust_region.local_points(pending, low, high, at_least=0)]
        if len(pending):
            local = with_pending(local, [{"x": row} for row in (pending - low) / side], games_per_point)
    scale = min(1.0, region.side)
    answers = candidates(rng, region.centre, 0.05 * scale, KG_ANSWERS, low, high)
    choices = candidates(rng, region.centre, KG_SPREAD * scale, KG_CHOICES, low, high)
    gain = knowledge_gradient(local, (choices - low) / side, (answers - low) / side, games_per_point)
    return [float(v) for v in choices[int(np.argmax(gain))]]


def trust_region_best(region: TrustRegion, observed: Observed, rng: Any,
                      refit_every: int) -> tuple[Any, Any, Any, Any]:
    """(point, local model, low, side): where the local model's mean is highest in the box,
    searched as bayes_model.best_mean searches the whole space."""
    import numpy as np

    from ringmaster.tuning import trust_region

    local, low, side = local_model(region, observed, False, refit_every)
    high = low + side
    scale = min(1.0, region.side)
    x = observed.x
    around = x[trust_region.inside(x, low, high)]
    if len(around) == 0:
        around = np.atleast_2d(region.centre)
    found = candidates(rng, around, 0.05 * scale, RANDOM_CANDIDATES, low, high)
    for spread in (0.03, 0.01):
        best = found[int(np.argmax(local.predict_mean((found - low) / side)))]
        found = candidates(rng, best, spread * scale, 0, low, high)
    point = found[int(np.argmax(local.predict_mean((found - low) / side)))]
    return point, local, low, side
