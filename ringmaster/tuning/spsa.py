"""SPSA's gain schedule as fishtest runs it (A, alpha, gamma, c_end, r_end) and its update, in [0, 1]."""

from __future__ import annotations

import math
from dataclasses import dataclass

ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1


def default_c_end(parameters: int) -> float:
    """c_end (optimiser units) when a Parameter gives none: a twentieth of the range times
    sqrt(parameters), at most a fifth.

    A pair's result measures the sum of every coordinate's effect, so each coordinate's
    share of the signal falls as parameters are added; a larger perturbation keeps it
    above the games' noise. Chosen on CLOP's problems (bench/bench_continuous_tuners.py).
    """
    return min(0.2, 0.05 * math.sqrt(max(parameters, 1)))


def default_r_end(iterations: int) -> float:
    """r_end when a Parameter gives none: 1.5 / sqrt(iterations), at most 0.1.

    fishtest has no default (its runs of 10^4 to 10^5 pairs commonly use 0.002);
    this one shrinks with the run so that short runs still travel and long ones
    settle (bench/bench_continuous_tuners.py).
    """
    return min(0.1, 1.5 / math.sqrt(max(iterations, 1)))


@dataclass(frozen=True)
class Schedule:
    """fishtest's gains for a run of `iterations` game pairs.

    c = c_end * N^gamma and a = r_end * c_end^2 * (A + N)^alpha, so that at the last
    iteration N the perturbation is c_end and the learning rate R_N is r_end.
    At iteration k (1, 2, ...): c_k = c / k^gamma, a_k = a / (A + k)^alpha,
    R_k = a_k / c_k^2, and a pair whose first engine (parameters + c_k * flip)
    scored wins - losses against the second moves the parameters by
    R_k * c_k * (wins - losses) * flip.
    """

    iterations: int
    c_end: tuple[float, ...]
    r_end: tuple[float, ...]
    a_ratio: float = A_RATIO
    alpha: float = ALPHA
    gamma: float = GAMMA

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.iterations

    def c_k(self, k: int) -> list[float]:
        """The perturbation of each parameter at iteration k."""
        n = self.iterations
        return [c_end * n ** self.gamma / k ** self.gamma for c_end in self.c_end]

    def r_k(self, k: int) -> list[float]:
        """The learning rate of each parameter at iteration k."""
        n, big_a = self.iterations, self.big_a
        result = []
        for c_end, r_end, c in zip(self.c_end, self.r_end, self.c_k(k)):
            a = r_end * c_end * c_end * (big_a + n) ** self.alpha
            result.append(a / (big_a + k) ** self.alpha / (c * c))
        return result


def perturbed(theta: list[float], c: list[float], flip: list[int], sign: int) -> list[float]:
    """theta + sign * c * flip, each coordinate clipped to [0, 1]."""
    return [min(1.0, max(0.0, t + sign * ci * f)) for t, ci, f in zip(theta, c, flip)]


def updated(theta: list[float], r: list[float], c: list[float], flip: list[int],
            score: float) -> list[float]:
    """theta + R * c * score * flip, clipped to [0, 1]; score is the first engine's wins - losses."""
    return [min(1.0, max(0.0, t + ri * ci * score * f)) for t, ri, ci, f in zip(theta, r, c, flip)]
