"""Elo ratings: from one match score, and a Bradley-Terry fit over many pairwise results with an anchor."""

from __future__ import annotations

import math


def elo_difference(score: float, games: int) -> float:
    """Elo difference implied by a score fraction; clamped half a game from 0 and 1."""
    eps = 0.5 / max(games, 1)
    s = min(max(score, eps), 1 - eps)
    return -400.0 * math.log10(1.0 / s - 1.0)


def fit_elo(results: list[tuple[str, str, float, float]], anchor: str,
            anchor_elo: float = 0.0, iterations: int = 2000) -> dict[str, float]:
    """Maximum-likelihood Elo from (player_a, player_b, a_points, games) records.

    A draw counts half a point each way. A weak prior (one virtual draw against
    the anchor) keeps ratings finite for players who won or lost every game.
    """
    players = sorted({p for r in results for p in r[:2]} | {anchor})
    records = list(results) + [(p, anchor, 0.5, 1.0) for p in players if p != anchor]
    rating = {p: 0.0 for p in players}
    scale = math.log(10) / 400.0
    for _ in range(iterations):
        grad = {p: 0.0 for p in players}
        hess = {p: 1e-9 for p in players}
        for a, b, points, games in records:
            expected = 1.0 / (1.0 + math.exp(-scale * (rating[a] - rating[b])))
            g = scale * (points - games * expected)
            h = scale * scale * games * expected * (1 - expected)
            grad[a] += g
            grad[b] -= g
            hess[a] += h
            hess[b] += h
        step = 0.0
        for p in players:
            if p != anchor:
                delta = grad[p] / hess[p]
                rating[p] += delta
                step = max(step, abs(delta))
        if step < 1e-6:
            break
    shift = anchor_elo - rating[anchor]
    return {p: r + shift for p, r in rating.items()}
