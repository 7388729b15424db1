"""Statistics for reports: win rates with confidence intervals, Elo differences and LOS."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054

# What every report says about how its Elo figures are computed.
ELO_METHOD = ("Elo: logistic, Elo = -400 log10(1/score - 1), score = (wins + jigos/2) / games with a "
              "result (games with no result are left out of every figure); 95% interval: the "
              "Wilson score interval of the score mapped through the same curve; LOS "
              "(likelihood of superiority) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2, jigos left "
              "out (as cutechess computes it).")


def wilson_interval(wins: float, games: float, z: float = Z_95) -> tuple[float, float]:
    """Wilson score interval for a win rate (jigos count as half wins).

    Returns (low, high); (0.0, 1.0) when no games were played.
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / games + z * z / (4 * games * games)) / denominator
    # At 0 or all wins one end is exactly 0 or 1 (centre = half there); rounding must not make
    # it 1e-17 or 0.9999999999999999, which elo_from_rate would turn into a finite Elo.
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= games else min(1.0, centre + half)
    return low, high


def elo_from_rate(rate: float) -> float:
    """Elo difference implied by an expected score; +-inf at 1 and 0."""
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / rate - 1.0)


def rate_from_elo(elo: float) -> float:
    """Expected score of a player this many Elo points stronger (the logistic curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_interval(wins: float, games: float) -> tuple[float, float, float]:
    """(Elo difference, low, high) with a 95% interval, from a score over games with a result.

    The point estimate is the Elo of the observed score (+-inf for a perfect
    or a zero score); the interval maps the Wilson interval through the Elo
    curve (see ELO_METHOD). No games: (0, -inf, inf).
    """
    if games <= 0:
        return 0.0, -math.inf, math.inf
    point = elo_from_rate(wins / games)
    low, high = wilson_interval(wins, games)
    return point, elo_from_rate(low), elo_from_rate(high)


def likelihood_of_superiority(wins: float, losses: float) -> float | None:
    """P(the player with these wins is the stronger one): (1 + erf((W-L)/sqrt(2(W+L))))/2.

    Jigos are left out (cutechess's formula). None when there are no decisive games.
    """
    if wins + losses <= 0:
        return None
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def json_float(x: float) -> float | str | None:
    """x as the JSON reports give it: an infinity as the string '+inf' or '-inf' (JSON has
    none; float() reads both back), NaN (undefined) as None."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return x


def format_signed(x: float) -> str:
    """'+35', '-20', '+inf', '-inf'."""
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{round(x) + 0:+d}"


def format_elo(wins: float, games: float) -> str:
    """'+35 [-20, +93]' for the Elo of the player with this score over games with a result."""
    point, low, high = elo_interval(wins, games)
    return f"{format_signed(point)} [{format_signed(low)}, {format_signed(high)}]"


def elo_json(wins: float, games: float) -> dict[str, float | str | None]:
    """{'elo', 'elo_low', 'elo_high'} as numbers, '+inf' or '-inf' for an infinite one
    (json_float); None with no games."""
    if games <= 0:
        return {"elo": None, "elo_low": None, "elo_high": None}
    point, low, high = elo_interval(wins, games)
    return {"elo": json_float(point), "elo_low": json_float(low), "elo_high": json_float(high)}


def two_proportion_z_test(wins_1: float, games_1: float, wins_2: float,
                          games_2: float) -> tuple[float, float]:
    """(z, two-sided p-value) for the difference of two win rates, with the pooled standard error.

    Raises ValueError if a side has no games or the pooled rate is 0 or 1 (no variance).
    """
    if games_1 <= 0 or games_2 <= 0:
        raise ValueError("both sides need games")
    pooled = (wins_1 + wins_2) / (games_1 + games_2)
    if pooled <= 0.0 or pooled >= 1.0:
        raise ValueError("the pooled rate is 0 or 1")
    error = math.sqrt(pooled * (1.0 - pooled) * (1.0 / games_1 + 1.0 / games_2))
    z = (wins_1 / games_1 - wins_2 / games_2) / error
    return z, math.erfc(abs(z) / math.sqrt(2.0))
