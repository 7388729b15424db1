"""A small Gaussian process in numpy: constant or quadratic trend, Matérn 5/2 ARD kernel, known noises."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LENGTHSCALES = np.geomspace(0.05, 2.0, 8)    # optimiser units: the unit cube is 1 wide
SIGNAL_SDS = np.geomspace(0.05, 2.0, 8)       # logit units (0.1 is about 2.5 win-rate points at 50%)
SWEEPS = 2


def squared_differences(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(dims, len(a), len(b)): the squared difference of each pair of rows, per dimension."""
    diff = a.T[:, :, None] - b.T[:, None, :]
    return diff * diff


def matern52(squares: np.ndarray, lengthscales: np.ndarray) -> np.ndarray:
    """The Matérn 5/2 correlation from squared_differences(), lengthscales per dimension."""
    r2 = np.tensordot(1.0 / (np.asarray(lengthscales) ** 2), squares, axes=1)
    r = np.sqrt(np.maximum(r2, 0.0)) * math.sqrt(5.0)
    return (1.0 + r + r * r / 3.0) * np.exp(-r)


@dataclass(frozen=True)
class Hyperparameters:
    lengthscales: tuple[float, ...]
    signal_sd: float


TRENDS = ("constant", "quadratic")


def trend_features(x: np.ndarray, trend: str) -> np.ndarray:
    """The trend's basis functions at each row of x: 1, or 1, z_i and z_i z_j (i <= j) with z = x - 0.5."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    if trend == "constant":
        return np.ones((len(x), 1))
    if trend != "quadratic":
        raise ValueError(f"trend must be one of {', '.join(TRENDS)}, not {trend!r}")
    z = x - 0.5
    dims = z.shape[1]
    columns = [np.ones(len(z))] + [z[:, i] for i in range(dims)]
    columns += [z[:, i] * z[:, j] for i in range(dims) for j in range(i, dims)]
    return np.stack(columns, axis=1)


def trend_size(dims: int, trend: str) -> int:
    """How many basis functions the trend has in dims dimensions."""
    return 1 if trend == "constant" else 1 + dims + dims * (dims + 1) // 2


class GaussianProcess:
    """The posterior of f given y_i = f(x_i) + e_i, e_i ~ N(0, noise_i), f = h(x)'b + g, g ~ GP(0, s^2 k).

    h is the trend's basis (trend_features: a constant, or a full quadratic) and its
    coefficients b have a flat prior: they are estimated by generalised least squares,
    and their uncertainty is part of every predicted sd. So far from the data the model
    follows the trend fitted to all of it, no more sure of it than the data allow,
    and the GP term g adds what the trend can't express.
    """

    def __init__(self, x: np.ndarray, y: np.ndarray, noise: np.ndarray, hyper: Hyperparameters,
                 squares: np.ndarray | None = None, trend: str = "constant") -> None:
        self.x = np.asarray(x, dtype=float)
        squares = squared_differences(self.x, self.x) if squares is None else squares
        self.hyper = hyper
        self.trend = trend
        self.lengthscales = np.asarray(hyper.lengthscales, dtype=float)
        self.signal_var = hyper.signal_sd ** 2
        k = self.signal_var * matern52(squares, self.lengthscales) + np.diag(noise)
        self.chol = np.linalg.cholesky(k)
        self.chol_inv = np.linalg.inv(self.chol)
        features = trend_features(self.x, trend)
        self.whitened_h = self.chol_inv @ features                    # L^-1 H
        self.h_k_inv_h = self.whitened_h.T @ self.whitened_h          # H' K^-1 H
        self.h_k_inv_h_inv = np.linalg.pinv(self.h_k_inv_h)           # pinv: points in a line stay usable
        self.coefficients = self.h_k_inv_h_inv @ (self.whitened_h.T @ (self.chol_inv @ y))
        self.residual = y - features @ self.coefficients
        self.alpha = self.chol_inv.T @ (self.chol_inv @ self.residual)

    def log_marginal_likelihood(self) -> float:
        """The likelihood of the data with the trend's coefficients integrated out (REML)."""
        _, log_det_h = np.linalg.slogdet(self.h_k_inv_h)
        return float(-0.5 * self.residual @ self.alpha - np.sum(np.log(np.diag(self.chol)))
                     - 0.5 * log_det_h
                     - 0.5 * (len(self.residual) - len(self.coefficients)) * math.log(2 * math.pi))

    def _cross(self, points: np.ndarray) -> np.ndarray:
        points = np.atleast_2d(np.asarray(points, dtype=float))
        return self.signal_var * matern52(squared_differences(points, self.x), self.lengthscales)

    def predict_mean(self, points: np.ndarray) -> np.ndarray:
        """Posterior mean of f at each row of points."""
        return trend_features(points, self.trend) @ self.coefficients + self._cross(points) @ self.alpha

    def predict(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and standard deviation of f at each row of points."""
        features = trend_features(points, self.trend)
        cross = self._cross(points)
        mean = features @ self.coefficients + cross @ self.alpha
        v = self.chol_inv @ cross.T
        unexplained = features.T - self.whitened_h.T @ v        # h(x) - H' K^-1 k(x), one column a point
        level = np.sum(unexplained * (self.h_k_inv_h_inv @ unexplained), axis=0)
        var = np.maximum(self.signal_var - np.sum(v * v, axis=0) + level, 1e-12)
        return mean, np.sqrt(var)


def fit(x: np.ndarray, y: np.ndarray, noise: np.ndarray,
        start: Hyperparameters | None = None, trend: str = "constant") -> GaussianProcess:
    """The GP whose hyperparameters maximise the marginal likelihood, by coordinate search on grids.

    Each sweep tries every grid lengthscale for one dimension at a time, then every
    signal sd: SWEEPS sweeps from the grids' middles, or one from start.
    """
    x = np.asarray(x, dtype=float)
    dims = x.shape[1]
    sweeps = 1
    if start is None or len(start.lengthscales) != dims:
        start = Hyperparameters((float(LENGTHSCALES[len(LENGTHSCALES) // 2]),) * dims,
                                float(SIGNAL_SDS[len(SIGNAL_SDS) // 2]))
        sweeps = SWEEPS
    squares = squared_differences(x, x)
    best = GaussianProcess(x, y, noise, start, squares, trend)
    best_score = best.log_marginal_likelihood()
    for _ in range(sweeps):
        for dim in range(dims + 1):
            grid = SIGNAL_SDS if dim == dims else LENGTHSCALES
            for value in grid:
                ls = list(best.hyper.lengthscales)
                sd = best.hyper.signal_sd
                if dim == dims:
                    sd = float(value)
                else:
                    ls[dim] = float(value)
                hyper = Hyperparameters(tuple(ls), sd)
                if hyper == best.hyper:
                    continue
                candidate = GaussianProcess(x, y, noise, hyper, squares, trend)
                score = candidate.log_marginal_likelihood()
                if score > best_score + 1e-9:
                    best, best_score = candidate, score
    return best


def match_observation(wins: float, games: int) -> tuple[float, float]:
    """A match's result as a noisy observation of the logit win rate: (value, noise variance).

    The win rate is estimated as (wins + 0.5) / (games + 1), and the variance of its
    logit as 1 / (games * p (1 - p)) with p = (wins + 1) / (games + 2) (the delta method).
    """
    rate = (wins + 0.5) / (games + 1.0)
    p = (wins + 1.0) / (games + 2.0)
    return math.log(rate / (1.0 - rate)), 1.0 / (max(games, 1) * p * (1.0 - p))


def logistic(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))
