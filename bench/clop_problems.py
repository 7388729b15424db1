"""CLOP's artificial tuning problems as win-rate landscapes over [0, 1]^d, for the tuner benchmarks.

Rémi Coulom's CLOP (Computer Games Workshop / ACG 13, 2011) evaluates tuners on
artificial problems: each gives a strength s(v) for parameters v in [-1, 1]^d and
the win probability is the logistic 1 / (1 + exp(-s)). The formulas below are
the facts read from the CLOP sources (programs/clop/src/artificial/CP*.h, .cpp);
here the tuner's parameter u in [0, 1] is mapped to v = 2u - 1, and two problems
have their strength shifted (noted in their docstrings) so that every optimum's
win rate is between 52% and 63%, the range of a real tuning event.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass


def logistic(s: float) -> float:
    if s < -700.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-s))


def _v(u: Sequence[float]) -> list[float]:
    return [2.0 * min(1.0, max(0.0, float(x))) - 1.0 for x in u]


def log1d_strength(v: Sequence[float]) -> float:
    """CLOP's Log1D: x = 2v + 1; s = 2 ln(2x + 2.1) - 2x - 1; optimum v = -0.525."""
    x = 2.0 * v[0] + 1.0
    return 2.0 * math.log(2.0 * x + 2.1) - 2.0 * x - 1.0


def flat_strength(v: Sequence[float]) -> float:
    """CLOP's Flat (n-D): s = sum_i 0.2 / (1 + 6 d^2 + d^3), d = v_i + 0.6; optimum v_i = -0.6.

    Shifted here by -0.3 per 4 dimensions (-0.075 per dimension), so the 4-D optimum is s = 0.5.
    """
    return sum(0.2 / (1.0 + 6.0 * (x + 0.6) ** 2 + (x + 0.6) ** 3) - 0.075 for x in v)


def quadratic_strength(v: Sequence[float]) -> float:
    """CLOP's QuadraticND: s = 0.5 - sum_i 0.5 (v_i + 0.2)^2; optimum v_i = -0.2."""
    return 0.5 - 0.5 * sum((x + 0.2) ** 2 for x in v)


def rosenbrock_strength(v: Sequence[float]) -> float:
    """CLOP's Rosenbrock (2-D): x = 4 v0, y = 10 v1 + 4, f = (1 - x)^2 + (y - x^2)^2, s = 1 - 0.1 f.

    Optimum v = (0.25, -0.3). Shifted here by -0.5, so the optimum is s = 0.5.
    """
    x = 4.0 * v[0]
    y = 10.0 * v[1] + 4.0
    f = (1.0 - x) ** 2 + (y - x * x) ** 2
    return 1.0 - 0.1 * f - 0.5


def _ill(x: float) -> float:
    return x * x * (x * (1.0 - x) - 1.0)


def ill_correlated_strength(v: Sequence[float]) -> float:
    """CLOP's IllCorrelated (2-D): a = v0 + v1 + 0.1, b = v0 - v1 + 0.9, g(x) = x^2 (x (1 - x) - 1),
    s = 0.2 (g(10 a) + g(b)) + 0.1; optimum v = (-0.5, 0.4).
    """
    a = v[0] + v[1] + 0.1
    b = v[0] - v[1] + 0.9
    return 0.2 * (_ill(10.0 * a) + _ill(b)) + 0.1


def smooth2d_strength(v: Sequence[float]) -> float:
    """Not CLOP's: a tilted, anisotropic bowl, s = 0.5 - 0.8 (a^2 + 0.5 b^2) - 0.3 a b, a = v0 - 0.3,
    b = v1 + 0.4; optimum v = (0.3, -0.4)."""
    a, b = v[0] - 0.3, v[1] + 0.4
    return 0.5 - 0.8 * (a * a + 0.5 * b * b) - 0.3 * a * b


def edge2d_strength(v: Sequence[float]) -> float:
    """Not CLOP's: s = 0.55 - 0.6 (v0 - 1.2)^2 - 0.5 (v1 + 0.3)^2, whose peak lies outside the cube:
    the optimum is on the edge v0 = 1, at v = (1, -0.3)."""
    return 0.55 - 0.6 * (v[0] - 1.2) ** 2 - 0.5 * (v[1] + 0.3) ** 2


@dataclass(frozen=True)
class Problem:
    """A landscape: name, dimensions, strength over v in [-1, 1]^d and its optimum in v."""

    name: str
    dimensions: int
    strength: Callable[[Sequence[float]], float]
    optimum_v: tuple[float, ...]

    def strength_at(self, u: Sequence[float]) -> float:
        """The strength (the logit of the win rate) at parameters u in [0, 1]^d (clipped to the cube)."""
        return self.strength(_v(u))

    def win_rate(self, u: Sequence[float]) -> float:
        """The candidate's win probability at parameters u in [0, 1]^d (clipped to the cube)."""
        return logistic(self.strength_at(u))

    @property
    def optimum_u(self) -> tuple[float, ...]:
        return tuple((v + 1.0) / 2.0 for v in self.optimum_v)

    @property
    def best_rate(self) -> float:
        return self.win_rate(self.optimum_u)

    def regret(self, u: Sequence[float]) -> float:
        """Simple regret: the optimum's win rate minus this point's."""
        return self.best_rate - self.win_rate(u)


def turned(problem: Problem, name: str, degrees: float) -> Problem:
    """A 2-D problem with its landscape turned by degrees about the centre: s'(v) = s(R v), R the
    rotation by degrees, so the optimum is R^T v* and the centre (where the tuners start) keeps
    its strength. IllCorrelated's ridge runs along (1, -1), the direction of one of SPSA's
    perturbations in 2-D (each parameter moves by +-c): turned by 45 degrees it runs along an axis."""
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))

    def strength(v: Sequence[float]) -> float:
        return problem.strength((c * v[0] - s * v[1], s * v[0] + c * v[1]))

    x, y = problem.optimum_v
    return Problem(name, 2, strength, (c * x + s * y, -s * x + c * y))


PROBLEMS: dict[str, Problem] = {p.name: p for p in (
    Problem("Log1D", 1, log1d_strength, (-0.525,)),
    Problem("Rosenbrock", 2, rosenbrock_strength, (0.25, -0.3)),
    Problem("IllCorrelated", 2, ill_correlated_strength, (-0.5, 0.4)),
    Problem("Smooth2D", 2, smooth2d_strength, (0.3, -0.4)),
    Problem("Edge2D", 2, edge2d_strength, (1.0, -0.3)),
    Problem("Flat4D", 4, flat_strength, (-0.6,) * 4),
    Problem("Quadratic4D", 4, quadratic_strength, (-0.2,) * 4),
)}
BENCH_PROBLEMS = tuple(PROBLEMS)
"""The bench's seven problems (run's default); the turned ones below are for the ridge's angle."""
PROBLEMS["IllCorrelated22"] = turned(PROBLEMS["IllCorrelated"], "IllCorrelated22", 22.5)
PROBLEMS["IllCorrelated45"] = turned(PROBLEMS["IllCorrelated"], "IllCorrelated45", 45.0)
PROBLEMS["Smooth2D135"] = turned(PROBLEMS["Smooth2D"], "Smooth2D135", 135.0)
"""Smooth2D turned by 135 degrees, optimum u = (0.25, 0.54): issue 34's kind of landscape, not in the bench's
set, for bench_tuner_ringmaster.py's runs through the ringmaster."""
