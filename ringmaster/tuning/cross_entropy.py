"""The cross-entropy method's pieces: Gaussian sampling, elite choice and the distribution update."""

from __future__ import annotations

import math
import random

Distribution = list[tuple[float, float]]   # (mean, variance) per dimension


def sample(distribution: Distribution, rng: random.Random) -> list[float]:
    """One point, each dimension drawn independently from its Gaussian."""
    return [rng.gauss(mean, math.sqrt(variance)) for mean, variance in distribution]


def elite_count(elite_proportion: float, samples_per_generation: int) -> int:
    """max(1, elite_proportion * N rounded half up)."""
    return max(1, math.floor(elite_proportion * samples_per_generation + 0.5))


def rank_candidates(wins: list[float], games: list[int] | None = None) -> list[int]:
    """Candidate numbers, highest win rate (wins / games, the games with a result) first, a candidate
    with none last; on a tie the higher candidate number comes first. Without games: most wins first."""
    def rate(i: int) -> float:
        if games is None:
            return wins[i]
        return wins[i] / games[i] if games[i] else -1.0
    return sorted(range(len(wins)), key=lambda i: (rate(i), i), reverse=True)


def update_distribution(distribution: Distribution, elites: list[list[float]],
                        step_size: float) -> Distribution:
    """Move each mean and variance a step towards the elite samples' mean and (population) variance."""
    n = len(elites)
    result = []
    for d, (old_mean, old_variance) in enumerate(distribution):
        values = [e[d] for e in elites]
        elite_mean = sum(values) / n
        elite_variance = max(0.0, sum(v * v for v in values) / n - elite_mean * elite_mean)
        result.append((step_size * elite_mean + (1.0 - step_size) * old_mean,
                       step_size * elite_variance + (1.0 - step_size) * old_variance))
    return result


def format_distribution(distribution: Distribution) -> str:
    """' 1.00~0.25 50.00~400.00': mean~variance per dimension."""
    return " ".join(f"{mean:5.2f}~{variance:4.2f}" for mean, variance in distribution)
