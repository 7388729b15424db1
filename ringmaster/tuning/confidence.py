"""The posterior probability that a candidate's true win rate is the highest (Beta posteriors, integrated)."""

from __future__ import annotations

import math

import numpy as np

GRID_POINTS = 4001


def _beta_log_pdf(x: np.ndarray, a: float, b: float) -> np.ndarray:
    log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    return log_norm + (a - 1) * np.log(x) + (b - 1) * np.log1p(-x)


def probability_best(records: list[tuple[int, int]], index: int,
                     prior: tuple[float, float] = (1.0, 1.0)) -> float:
    """P(rate[index] > rate[j] for every other j), each rate ~ Beta(prior + wins, prior + losses).

    records -- (wins, games) per candidate, real games only.
    Computed as the integral of pdf_index(x) * prod_j cdf_j(x) on a fine grid.
    """
    if len(records) < 2:
        return 1.0
    x = (np.arange(GRID_POINTS) + 0.5) / GRID_POINTS
    dx = 1.0 / GRID_POINTS
    log_others = np.zeros_like(x)
    for j, (wins, games) in enumerate(records):
        if j == index:
            continue
        pdf = np.exp(_beta_log_pdf(x, prior[0] + wins, prior[1] + games - wins))
        cdf = (np.cumsum(pdf) - 0.5 * pdf) * dx
        total = float(np.sum(pdf) * dx)
        cdf = np.clip(cdf / max(total, 1e-300), 1e-300, 1.0)
        log_others += np.log(cdf)
    wins, games = records[index]
    log_pdf = _beta_log_pdf(x, prior[0] + wins, prior[1] + games - wins)
    return float(min(1.0, np.sum(np.exp(log_pdf + log_others)) * dx))
