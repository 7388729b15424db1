"""Statistics for reports: win rates with confidence intervals, and Elo differences."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054


def wilson_interval(wins: float, games: float, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a win rate (jigos count as half wins).

    Returns (low, high); (0.0, 1.0) when no games were played.
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_from_rate(rate: float) -> float:
    """Elo difference implied by an expected score; +-inf at 1 and 0."""
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / rate - 1.0)


def elo_interval(wins: float, games: float) -> tuple[float, float, float]:
    """(Elo difference, low, high) with a 95% interval, from a win count.

    The point estimate is shrunk by half a game each way so that 10/10 gives a
    finite figure; the interval maps the Wilson interval through the Elo curve.
    """
    if games <= 0:
        return 0.0, -math.inf, math.inf
    point = elo_from_rate((wins + 0.5) / (games + 1.0))
    low, high = wilson_interval(wins, games)
    low_elo = -math.inf if wins <= 0 else elo_from_rate(low)
    high_elo = math.inf if wins >= games else elo_from_rate(high)
    return point, low_elo, high_elo


def format_elo(wins: float, games: float) -> str:
    """'+35 [-20, +93]' for the Elo of the player with these wins."""
    point, low, high = elo_interval(wins, games)

    def fmt(x: float) -> str:
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return f"{round(x) + 0:+d}"
    return f"{fmt(point)} [{fmt(low)}, {fmt(high)}]"
