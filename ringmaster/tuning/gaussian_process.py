"""A numpy Gaussian process for match results: binomial games (Laplace), Matérn 5/2 kernel, a trend."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

LENGTHSCALES = np.geomspace(0.05, 2.0, 9)     # optimiser units: the unit cube is 1 wide
SIGNAL_SDS = np.geomspace(0.1, 4.0, 9)        # logit units (0.1 is about 2.5 win-rate points at 50%)
LENGTHSCALE_PRIOR = (0.6, 0.5)                # log-normal: median, sd of the log (optimiser units)
SIGNAL_PRIOR = (1.0, 1.0)
LEVEL_SD = 1.0            # prior sd of the constant term of the trend (logit)
TREND_SD = 5.0            # prior sd of each linear and quadratic coefficient (logit, z = x - 0.5)
NEWTON_ITERATIONS = 50
NEWTON_TOLERANCE = 1e-9
TRENDS = ("constant", "quadratic")


def scaled_squared_distances(a: np.ndarray, b: np.ndarray, lengthscales: np.ndarray) -> np.ndarray:
    """(len(a), len(b)): sum over dimensions of ((a_i - b_j) / lengthscale)^2, by |a|^2 + |b|^2 - 2 a.b
    (one matrix product, where the differences' array would be dims times larger), at least 0."""
    a = np.atleast_2d(a) / lengthscales
    b = np.atleast_2d(b) / lengthscales
    r2 = np.sum(a * a, axis=1)[:, None] + np.sum(b * b, axis=1)[None, :] - 2.0 * (a @ b.T)
    return np.maximum(r2, 0.0)


def matern52(a: np.ndarray, b: np.ndarray, lengthscales: np.ndarray) -> np.ndarray:
    """The Matérn 5/2 correlation between each row of a and each row of b, lengthscales per dimension."""
    r = np.sqrt(5.0 * scaled_squared_distances(a, b, np.asarray(lengthscales, dtype=float)))
    return (1.0 + r + r * r / 3.0) * np.exp(-r)


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


def trend_prior_sds(dims: int, trend: str) -> np.ndarray:
    """The prior sd of each trend coefficient: LEVEL_SD for the constant, TREND_SD for the others."""
    sds = np.full(trend_size(dims, trend), TREND_SD)
    sds[0] = LEVEL_SD
    return sds


@dataclass(frozen=True)
class Hyperparameters:
    """The kernel's lengthscales (one per axis of the rotated coordinates), signal sd, and rotation:
    the rows of an orthogonal matrix whose axes the lengthscales follow (None: the parameters' own)."""

    lengthscales: tuple[float, ...]
    signal_sd: float
    rotation: tuple[tuple[float, ...], ...] | None = None

    @classmethod
    def from_lists(cls, values: list[float], rotation: list[list[float]] | None) -> Hyperparameters:
        """From the state file's form (to_lists): lengthscales then signal sd, and the rotation's rows."""
        return cls(tuple(values[:-1]), values[-1],
                   None if rotation is None else tuple(tuple(row) for row in rotation))

    def to_lists(self) -> tuple[list[float], list[list[float]] | None]:
        """The state file's form: [lengthscales..., signal sd], and the rotation's rows (or None)."""
        return ([*self.lengthscales, self.signal_sd],
                None if self.rotation is None else [list(row) for row in self.rotation])


def rotated(x: np.ndarray, hyper: Hyperparameters) -> np.ndarray:
    """The rows of x in the kernel's coordinates: x itself, or x times the rotation's transpose."""
    if hyper.rotation is None:
        return x
    return x @ np.asarray(hyper.rotation).T


def prior_covariance(a: np.ndarray, b: np.ndarray, hyper: Hyperparameters, trend: str) -> np.ndarray:
    """Cov(f(a_i), f(b_j)) under the prior: the trend with independent normal coefficients plus
    signal_sd^2 times the Matérn correlation."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    sds = trend_prior_sds(a.shape[1], trend)
    trend_part = (trend_features(a, trend) * sds ** 2) @ trend_features(b, trend).T
    return hyper.signal_sd ** 2 * matern52(rotated(a, hyper), rotated(b, hyper),
                                           np.asarray(hyper.lengthscales)) + trend_part


def prior_variance(points: np.ndarray, hyper: Hyperparameters, trend: str) -> np.ndarray:
    """Var f(p) under the prior at each row of points."""
    points = np.atleast_2d(points)
    features = trend_features(points, trend)
    sds = trend_prior_sds(points.shape[1], trend)
    return hyper.signal_sd ** 2 + np.sum((features * sds) ** 2, axis=1)


def logistic(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value))


def log_likelihood(f: np.ndarray, wins: np.ndarray, games: np.ndarray) -> float:
    """log P(wins | f) for binomial games with win probability logistic(f), without the binomial
    coefficients (they don't depend on f)."""
    return float(np.sum(-wins * np.logaddexp(0.0, -f) - (games - wins) * np.logaddexp(0.0, f)))


def laplace_mode(k: np.ndarray, wins: np.ndarray, games: np.ndarray,
                 start: np.ndarray | None = None) -> np.ndarray:
    """The f maximising log P(wins | f) - f' K^-1 f / 2: Newton's method (Rasmussen and Williams,
    algorithm 3.1, for binomial counts) from start (a guess near the mode), halving a step that
    would lower the objective."""
    size = len(wins)
    f = np.zeros(size) if start is None else np.asarray(start, dtype=float)
    a = np.zeros(size)
    objective = -np.inf
    for _ in range(NEWTON_ITERATIONS):
        rate = 1.0 / (1.0 + np.exp(-f))
        w = games * rate * (1.0 - rate)
        root_w = np.sqrt(w)
        b = w * f + wins - games * rate
        system = np.eye(size) + root_w[:, None] * k * root_w[None, :]
        newton_a = b - root_w * np.linalg.solve(system, root_w * (k @ b))
        step = 1.0
        while True:
            trial_a = a + step * (newton_a - a)
            trial_f = k @ trial_a
            trial = -0.5 * trial_a @ trial_f + log_likelihood(trial_f, wins, games)
            if trial >= objective - 1e-12 or step < 1e-3:
                break
            step *= 0.5
        gain = trial - objective
        a, f, objective = trial_a, trial_f, trial
        if gain < NEWTON_TOLERANCE:
            break
    return f


TRIANGULAR_BLOCK = 64   # lower_triangular_inverse inverts blocks this small with np.linalg.inv


def lower_triangular_inverse(lower: np.ndarray) -> np.ndarray:
    """The inverse of a lower triangular matrix by halves, [[A, 0], [C, D]]^-1 = [[A^-1, 0],
    [-D^-1 C A^-1, D^-1]], in matrix products: numpy has no triangular solve, and np.linalg.inv's
    general LU took 3 to 10 times as long (0.25 s against 0.024 s at 1,000 matches, one thread)."""
    size = len(lower)
    if size <= TRIANGULAR_BLOCK:
        return np.linalg.inv(lower)
    half = size // 2
    top = lower_triangular_inverse(lower[:half, :half])
    bottom = lower_triangular_inverse(lower[half:, half:])
    inverse = np.zeros_like(lower)
    inverse[:half, :half] = top
    inverse[half:, half:] = bottom
    inverse[half:, :half] = -bottom @ (lower[half:, :half] @ top)
    return inverse


class GaussianProcess:
    """The posterior of f after binomial games: wins_i ~ Binomial(games_i, logistic(f(x_i))), or, for a
    match played head to head between x_i and other_i, logistic(f(x_i) - f(other_i)).

    f's prior is a trend (a constant, or a full quadratic in z = x - 0.5) with independent
    normal coefficients (trend_prior_sds), plus a Gaussian process with a Matérn 5/2
    kernel, a lengthscale per dimension and signal_sd. The posterior is Laplace's
    approximation: a normal distribution at the posterior mode of f at the points played,
    with the curvature of the log likelihood there (Rasmussen and Williams, section 3.4).
    A point with no games is allowed, and fractional wins (a pending match's expected
    result) too.

    Head-to-head matches (other, a row per match, NaN where the match was against the
    opponent) observe the difference g = f(x) - f(other): the latent variables are each
    match's g, whose prior covariance is the same linear map applied to f's (the trend's
    constant cancels), so Laplace's approximation is unchanged in them (as in Chu and
    Ghahramani's preference learning with Gaussian processes, 2005).
    """

    def __init__(self, x: np.ndarray, wins: np.ndarray, games: np.ndarray, hyper: Hyperparameters,
                 trend: str = "constant", start: np.ndarray | None = None,
                 other: np.ndarray | None = None) -> None:
        self.x = np.atleast_2d(np.asarray(x, dtype=float))
        self.wins = np.asarray(wins, dtype=float)
        self.games = np.asarray(games, dtype=float)
        self.hyper = hyper
        self.trend = trend
        self.other = None if other is None else np.atleast_2d(np.asarray(other, dtype=float))
        self.paired = None if self.other is None else ~np.isnan(self.other).any(axis=1)
        if self.paired is not None and not self.paired.any():
            self.other = self.paired = None
        # each match's second point, x itself where it was against the opponent (masked out by paired)
        self._second = None if self.paired is None else np.where(self.paired[:, None], self.other, self.x)
        k = self._match_covariance() + 1e-9 * np.eye(len(self.x))
        self.mode = laplace_mode(k, self.wins, self.games, start)
        rate = 1.0 / (1.0 + np.exp(-self.mode))
        self.gradient = self.wins - self.games * rate                 # = K^-1 mode at the mode
        self.root_w = np.sqrt(self.games * rate * (1.0 - rate))
        chol = np.linalg.cholesky(np.eye(len(self.x)) + self.root_w[:, None] * k * self.root_w[None, :])
        self._chol = chol
        self._chol_inv: np.ndarray | None = None
        self._log_det = float(np.sum(np.log(np.diag(chol))))
        self._k = k

    @property
    def chol_inv(self) -> np.ndarray:
        """The inverse of the Cholesky factor of I + W^1/2 K W^1/2, computed when a prediction first
        needs it: the fit's search solves about 100 models for their marginal likelihood alone."""
        if self._chol_inv is None:
            self._chol_inv = lower_triangular_inverse(self._chol)
        return self._chol_inv

    def _match_covariance(self) -> np.ndarray:
        """The prior covariance of the matches' latent values: f(x_i), or f(x_i) - f(other_i)."""
        k = prior_covariance(self.x, self.x, self.hyper, self.trend)
        if self.paired is None:
            return k
        mask = self.paired.astype(float)
        cross = prior_covariance(self.x, self._second, self.hyper, self.trend) * mask[None, :]
        both = prior_covariance(self._second, self._second, self.hyper, self.trend) * np.outer(mask, mask)
        return k - cross - cross.T + both

    def _cross(self, points: np.ndarray) -> np.ndarray:
        """Cov(f(points_j), each match's latent value): (len(points), matches)."""
        cross = prior_covariance(points, self.x, self.hyper, self.trend)
        if self.paired is None:
            return cross
        return cross - prior_covariance(points, self._second, self.hyper, self.trend) * self.paired[None, :]

    def log_marginal_likelihood(self) -> float:
        """Laplace's approximation of log P(wins | hyperparameters), binomial coefficients left out."""
        return -0.5 * float(self.gradient @ self.mode) \
            + log_likelihood(self.mode, self.wins, self.games) - self._log_det

    def predict_mean(self, points: np.ndarray) -> np.ndarray:
        """Posterior mean of f at each row of points."""
        return self._cross(points) @ self.gradient

    def _whitened(self, points: np.ndarray) -> np.ndarray:
        return self.chol_inv @ (self.root_w[:, None] * self._cross(points).T)

    def predict(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and standard deviation of f at each row of points."""
        points = np.atleast_2d(np.asarray(points, dtype=float))
        v = self._whitened(points)
        var = prior_variance(points, self.hyper, self.trend) - np.sum(v * v, axis=0)
        return self.predict_mean(points), np.sqrt(np.maximum(var, 1e-12))

    def covariance(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Posterior covariance of f between each row of a and each row of b."""
        a, b = np.atleast_2d(np.asarray(a, dtype=float)), np.atleast_2d(np.asarray(b, dtype=float))
        return prior_covariance(a, b, self.hyper, self.trend) - self._whitened(a).T @ self._whitened(b)


HESSIAN_STEP = 0.05    # the step of the central differences that find the kernel's axes (optimiser units)


def mean_hessian(gp: GaussianProcess, centre: np.ndarray, step: float = HESSIAN_STEP) -> np.ndarray:
    """The Hessian of the posterior mean at centre, by central differences:
    (m(c + h e_i + h e_j) - m(c + h e_i - h e_j) - m(c - h e_i + h e_j) + m(c - h e_i - h e_j)) / 4h²."""
    dims = len(centre)
    shifts = np.eye(dims) * step
    signs = ((1, 1), (1, -1), (-1, 1), (-1, -1))
    points = [centre + si * shifts[i] + sj * shifts[j]
              for i in range(dims) for j in range(dims) for si, sj in signs]
    values = gp.predict_mean(np.array(points)).reshape(dims, dims, 4)
    hessian = (values[..., 0] - values[..., 1] - values[..., 2] + values[..., 3]) / (4.0 * step * step)
    return (hessian + hessian.T) / 2.0


def principal_axes(gp: GaussianProcess) -> tuple[tuple[float, ...], ...] | None:
    """The rotation onto the eigenvectors of the posterior mean's Hessian at the best point played
    (so that a ridge across the parameters' axes lies along one of the kernel's); None in one
    dimension."""
    if gp.x.shape[1] < 2:
        return None
    best = gp.x[int(np.argmax(gp.predict_mean(gp.x)))]
    centre = np.clip(best, HESSIAN_STEP, 1.0 - HESSIAN_STEP)
    _, vectors = np.linalg.eigh(mean_hessian(gp, centre))
    return tuple(tuple(float(v) for v in row) for row in vectors.T)


def log_prior(hyper: Hyperparameters) -> float:
    """The hyperparameters' log-normal prior density (up to a constant): lengthscales near 0.3 of the
    range, so that a few noisy early matches don't make a parameter look irrelevant, and signal near 1."""
    median, spread = LENGTHSCALE_PRIOR
    total = sum(-0.5 * ((math.log(ls) - math.log(median)) / spread) ** 2 for ls in hyper.lengthscales)
    median, spread = SIGNAL_PRIOR
    return total - 0.5 * ((math.log(hyper.signal_sd) - math.log(median)) / spread) ** 2


def objective(gp: GaussianProcess) -> float:
    """What fit maximises: the log marginal likelihood plus the hyperparameters' log prior."""
    return gp.log_marginal_likelihood() + log_prior(gp.hyper)


def _candidates(best: Hyperparameters, dim: int, values: np.ndarray) -> list[Hyperparameters]:
    """best with its dim-th hyperparameter (the signal sd after the lengthscales) set to each value."""
    found = []
    for value in values:
        lengthscales = list(best.lengthscales)
        signal = best.signal_sd
        if dim == len(lengthscales):
            signal = float(value)
        else:
            lengthscales[dim] = float(value)
        found.append(Hyperparameters(tuple(lengthscales), signal, best.rotation))
    return found


def fit(x: np.ndarray, wins: np.ndarray, games: np.ndarray, start: Hyperparameters | None = None,
        trend: str = "constant", other: np.ndarray | None = None) -> GaussianProcess:
    """The GP whose hyperparameters maximise the marginal likelihood times their prior.

    Coordinate search: from start (one sweep) or the grids' middles (two sweeps), every grid
    value of one hyperparameter at a time, the others held. Then, in two or more dimensions,
    the same search (two sweeps) with the kernel turned onto the principal axes of the first
    fit's mean at the best point played; the better of the two is kept, and with two
    parameters its rotation is searched by the marginal likelihood (_fit_rotation). A turned
    kernel fits a ridge across the parameters (CLOP's IllCorrelated) with one short lengthscale,
    where the parameters' own axes need two. other: as GaussianProcess's (head-to-head matches).

    The GP returned is solved afresh from the hyperparameters found, as a caller that keeps only
    them (a resumed run) solves it: the search warm-starts each candidate's mode, which can
    differ from a fresh solve in the last digits.
    """
    plain = None if start is None else Hyperparameters(start.lengthscales, start.signal_sd)
    chosen = best = _fit_axes(x, wins, games, plain, trend, other=other)
    axes = principal_axes(best)
    if axes is not None:
        turned = _fit_axes(x, wins, games, Hyperparameters(best.hyper.lengthscales, best.hyper.signal_sd,
                                                           axes), trend, sweeps=2, other=other)
        if objective(turned) > objective(best) + 1e-9:
            chosen = turned
        if x.shape[1] <= ROTATION_SEARCH_DIMENSIONS:
            chosen = _fit_rotation(x, wins, games, chosen, trend, other)
    return GaussianProcess(x, wins, games, chosen.hyper, trend, other=other)


ROTATION_SEARCH_DIMENSIONS = 2   # the turn is searched with this many parameters at most: with 4, its
                                 # 6 planes fitted noise on a round bowl (Quadratic4D at 1,200 games:
                                 # 0.0095 -> 0.0124 on fresh seeds; reports/continuous_tuners.md)
ROTATION_TURNS = 12                                # turns of k * 180° / 12 tried in each plane
ROTATION_REFINEMENTS = (math.pi / 24, math.pi / 48)   # then these either side of the best


def turned_in_plane(rotation: tuple[tuple[float, ...], ...] | None, dims: int, i: int, j: int,
                    angle: float) -> tuple[tuple[float, ...], ...]:
    """rotation (None: the parameters' own axes) with its axes i and j turned by angle in their
    plane: r_i' = cos r_i + sin r_j, r_j' = -sin r_i + cos r_j (still orthonormal)."""
    rows = np.eye(dims) if rotation is None else np.array(rotation, dtype=float)
    c, s = math.cos(angle), math.sin(angle)
    rows[i], rows[j] = c * rows[i] + s * rows[j], -s * rows[i] + c * rows[j]
    return tuple(tuple(float(v) for v in row) for row in rows)


def _fit_rotation(x: np.ndarray, wins: np.ndarray, games: np.ndarray, gp: GaussianProcess,
                  trend: str, other: np.ndarray | None) -> GaussianProcess:
    """fit's search over the kernel's rotation by the marginal likelihood, from gp's: in each
    plane of two of its axes, every turn by k * 180° / ROTATION_TURNS, then ROTATION_REFINEMENTS
    either side of the best, the lengthscales and signal sd held; then one sweep of those at the
    rotation found. gp itself where nothing scores higher.

    The principal axes come from the mean of a fit on the parameters' own axes, which
    blurs a narrow ridge across them: on CLOP's IllCorrelated at 300 games the long axis
    was off the ridge by a median 7° and up to 38° (reports/continuous_tuners.md, issue 34).
    """
    dims = x.shape[1]
    best, score = gp, objective(gp)

    def turns(rotation: tuple[tuple[float, ...], ...] | None, i: int, j: int,
              angles: list[float]) -> list[Hyperparameters]:
        return [Hyperparameters(gp.hyper.lengthscales, gp.hyper.signal_sd,
                                turned_in_plane(rotation, dims, i, j, angle)) for angle in angles]

    for i in range(dims):
        for j in range(i + 1, dims):
            coarse = [k * math.pi / ROTATION_TURNS for k in range(1, ROTATION_TURNS)]
            best, score = _climb(x, wins, games, trend, other, best, score,
                                 turns(best.hyper.rotation, i, j, coarse))
            for step in ROTATION_REFINEMENTS:
                best, score = _climb(x, wins, games, trend, other, best, score,
                                     turns(best.hyper.rotation, i, j, [-step, step]))
    if best is gp:
        return gp
    again = _fit_axes(x, wins, games, best.hyper, trend, other=other)
    return again if objective(again) > score + 1e-9 else best


def _fit_axes(x: np.ndarray, wins: np.ndarray, games: np.ndarray, start: Hyperparameters | None,
              trend: str, sweeps: int = 1, other: np.ndarray | None = None) -> GaussianProcess:
    """fit's coordinate search over the lengthscales and signal sd, the rotation held."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    dims = x.shape[1]
    if start is None or len(start.lengthscales) != dims:
        start = Hyperparameters((float(LENGTHSCALES[len(LENGTHSCALES) // 2]),) * dims,
                                float(SIGNAL_SDS[len(SIGNAL_SDS) // 2]))
        sweeps = 2
    best = GaussianProcess(x, wins, games, start, trend, other=other)
    score = objective(best)
    for _ in range(sweeps):
        for dim in range(dims + 1):
            best, score = _climb(x, wins, games, trend, other, best, score,
                                 _candidates(best.hyper, dim, SIGNAL_SDS if dim == dims else LENGTHSCALES))
    return best


def _climb(x: np.ndarray, wins: np.ndarray, games: np.ndarray, trend: str, other: np.ndarray | None,
           best: GaussianProcess, score: float,
           hypers: list[Hyperparameters]) -> tuple[GaussianProcess, float]:
    """The fit searches' step: each of hypers in turn, solved from the best mode so far, replaces
    best (whose objective is score) where it scores higher; the best and its score."""
    for hyper in hypers:
        if hyper == best.hyper:
            continue
        candidate = GaussianProcess(x, wins, games, hyper, trend, start=best.mode, other=other)
        candidate_score = objective(candidate)
        if candidate_score > score + 1e-9:
            best, score = candidate, candidate_score
    return best, score


GAUSS_HERMITE_NODES = 20
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(GAUSS_HERMITE_NODES)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def knowledge_gradient(gp: GaussianProcess, choices: np.ndarray, answers: np.ndarray,
                       games: int) -> np.ndarray:
    """For each row of choices, the expected rise of the best posterior mean over answers if a
    match of games were played there (Frazier, Powell and Dayanik's knowledge gradient).

    The match's result is taken as a normal observation of f with the binomial variance
    1 / (games p (1 - p)), p the predicted win rate; after it, the mean at each answer a
    moves by Cov(f(a), f(x)) / sqrt(Var f(x) + noise) times a standard normal Z. The
    expectation over Z is by Gauss-Hermite quadrature.
    """
    mean_a = gp.predict_mean(answers)
    mean_x, sd_x = gp.predict(choices)
    rate = 1.0 / (1.0 + np.exp(-mean_x))
    noise = 1.0 / (games * rate * (1.0 - rate))
    moves = gp.covariance(choices, answers) / np.sqrt(sd_x ** 2 + noise)[:, None]
    return expected_best(mean_a, moves) - float(np.max(mean_a))


def knowledge_gradient_head_to_head(gp: GaussianProcess, plus: np.ndarray, minus: np.ndarray,
                                    answers: np.ndarray, games: int) -> np.ndarray:
    """knowledge_gradient for matches played between plus_i and minus_i (rows): the match observes
    g = f(plus_i) - f(minus_i), with the binomial variance 1 / (games q (1 - q)), q = logistic of
    g's predicted mean; the mean at each answer moves by Cov(f(a), g) / sqrt(Var g + noise) Z."""
    plus, minus = np.atleast_2d(plus), np.atleast_2d(minus)
    mean_a = gp.predict_mean(answers)
    difference = gp.predict_mean(plus) - gp.predict_mean(minus)
    whitened_plus, whitened_minus = gp._whitened(plus), gp._whitened(minus)
    whitened_answers = gp._whitened(answers)
    prior = (prior_variance(plus, gp.hyper, gp.trend) + prior_variance(minus, gp.hyper, gp.trend)
             - 2.0 * np.diag(prior_covariance(plus, minus, gp.hyper, gp.trend)))
    var = prior - np.sum((whitened_plus - whitened_minus) ** 2, axis=0)
    rate = 1.0 / (1.0 + np.exp(-difference))
    noise = 1.0 / (games * rate * (1.0 - rate))
    # gp.covariance(plus, answers) - gp.covariance(minus, answers), the whitened points shared
    plus_answers = prior_covariance(plus, answers, gp.hyper, gp.trend) - whitened_plus.T @ whitened_answers
    minus_answers = prior_covariance(minus, answers, gp.hyper, gp.trend) - whitened_minus.T @ whitened_answers
    moves = (plus_answers - minus_answers) / np.sqrt(np.maximum(var, 1e-12) + noise)[:, None]
    return expected_best(mean_a, moves) - float(np.max(mean_a))


def expected_best(means: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """E max_a (means_a + moves_ia Z), Z standard normal, for each row i of moves (quadrature)."""
    total = np.zeros(len(moves))
    for node, weight in zip(_NODES, _WEIGHTS):
        total += weight * np.max(means[None, :] + moves * node, axis=1)
    return total


def posterior_samples(gp: GaussianProcess, points: np.ndarray, count: int,
                      rng: np.random.Generator) -> np.ndarray:
    """count joint draws of f at the rows of points from the posterior: shape (count, len(points))."""
    points = np.atleast_2d(np.asarray(points, dtype=float))
    cov = gp.covariance(points, points)
    values, vectors = np.linalg.eigh((cov + cov.T) / 2.0)
    root = vectors * np.sqrt(np.maximum(values, 0.0))
    return gp.predict_mean(points)[None, :] + rng.standard_normal((count, len(points))) @ root.T
