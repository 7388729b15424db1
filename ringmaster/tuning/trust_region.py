"""bayes_tuner's trust region: a box around the incumbent that widens on progress and narrows on failure."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

START_SIDE = 0.8      # the box's side at the first step after the design (optimiser units)
MAX_SIDE = 1.6        # the whole range from the middle, most of it from anywhere
MIN_SIDE = 0.2        # a 14-game match is too noisy for a smaller box to keep the peak in it
SUCCESSES = 3         # steps in a row on which the incumbent's mean rose: the side doubles
FAILURES = 8          # steps in a row on which it did not: the side halves
RISE = 1e-3           # logit: how much the incumbent's mean must rise to count as progress
LOCAL_REACH = 2.0     # the local model sees the points within this many box sides of its centre
LOCAL_MIN_POINTS = 20  # ... or the nearest this many, where fewer are that near


@dataclass
class TrustRegion:
    """The box's side, centre and counters, and the local model's fitted hyperparameters.

    last_value is the incumbent's mean when the last point was chosen (None before the first);
    local_hyper is lengthscales then signal sd, local_rotation the kernel's turn (or None),
    local_fitted_at the number of matches with results at that fit.
    """

    side: float = START_SIDE
    successes: int = 0
    failures: int = 0
    centre: list[float] | None = None
    last_value: float | None = None
    local_hyper: list[float] | None = None
    local_rotation: list[list[float]] | None = None
    local_fitted_at: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "successes": self.successes, "failures": self.failures,
                "centre": self.centre, "last_value": self.last_value,
                "local_hyper": self.local_hyper, "local_rotation": self.local_rotation,
                "local_fitted_at": self.local_fitted_at}

    @classmethod
    def from_json(cls, data: dict[str, Any], dims: int) -> TrustRegion:
        """The region a state file holds; ValueError (or KeyError, TypeError) where it is not one."""
        def vector(value: Any, size: int) -> list[float] | None:
            if value is None:
                return None
            found = [float(v) for v in value]
            if len(found) != size:
                raise ValueError("trust region's shape")
            return found

        region = cls(side=float(data["side"]), successes=int(data["successes"]),
                     failures=int(data["failures"]), centre=vector(data["centre"], dims),
                     last_value=None if data["last_value"] is None else float(data["last_value"]),
                     local_hyper=vector(data["local_hyper"], dims + 1),
                     local_fitted_at=int(data["local_fitted_at"]))
        rotation = data["local_rotation"]
        if rotation is not None:
            region.local_rotation = [vector(row, dims) for row in rotation]
            if len(region.local_rotation) != dims:
                raise ValueError("trust region's shape")
        if not MIN_SIDE <= region.side <= MAX_SIDE or region.successes < 0 or region.failures < 0:
            raise ValueError("trust region out of range")
        return region


def box(centre: Any, side: float) -> tuple[np.ndarray, np.ndarray]:
    """The box's low and high corners: a cube of the given side around centre, clipped to [0, 1]."""
    centre = np.asarray(centre, dtype=float)
    return np.clip(centre - side / 2.0, 0.0, 1.0), np.clip(centre + side / 2.0, 0.0, 1.0)


def inside(x: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Which rows of x lie in the box (its faces included)."""
    return np.all((x >= low - 1e-12) & (x <= high + 1e-12), axis=1)


def local_points(x: np.ndarray, low: np.ndarray, high: np.ndarray,
                 at_least: int = LOCAL_MIN_POINTS) -> np.ndarray:
    """Which rows of x the local model sees: those within LOCAL_REACH sides of the box's centre (by
    the largest coordinate's distance), or the at_least nearest where fewer are."""
    side = np.maximum(high - low, 1e-6)
    distance = np.max(np.abs(x - (low + high) / 2.0) / side, axis=1)
    near = distance <= LOCAL_REACH / 2.0
    if near.sum() < at_least:
        near = np.zeros(len(x), dtype=bool)
        near[np.argsort(distance, kind="stable")[:at_least]] = True
    return near


def step(region: TrustRegion, value: float) -> None:
    """Count the step whose incumbent's mean is value (progress if it rose by more than RISE since
    the last), then double the side after SUCCESSES in a row or halve it after FAILURES in a row,
    within MIN_SIDE and MAX_SIDE. The first step only records the value."""
    if region.last_value is not None:
        if value > region.last_value + RISE:
            region.successes += 1
            region.failures = 0
        else:
            region.failures += 1
            region.successes = 0
        if region.successes >= SUCCESSES:
            region.side = min(MAX_SIDE, 2.0 * region.side)
            region.successes = 0
        elif region.failures >= FAILURES:
            region.side = max(MIN_SIDE, region.side / 2.0)
            region.failures = 0
