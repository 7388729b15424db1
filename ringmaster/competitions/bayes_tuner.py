"""bayes_tuner: Bayesian optimisation; a Gaussian process over the logit win rate picks each match's point."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TextIO

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.continuous_tuner import ContinuousTuner
from ringmaster.competitions.scheduling import SimpleScheduler
from ringmaster.competitions.tuner import (
    Verdict,
    changed_since_state,
    continuous_edge_warnings,
    default_confirm_games,
    parameters_changed,
    selection_bias_warning,
)
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.settings import (
    Setting,
    interpret_bool,
    interpret_enum,
    interpret_float,
    interpret_optional,
    interpret_positive_int,
    load_settings,
)
from ringmaster.stats.win_rates import ELO_METHOD, elo_from_rate

if TYPE_CHECKING:
    from ringmaster.tuning.trust_region import TrustRegion

TARGET_POINTS = 150          # with number_of_games known, matches are sized to give about this many points
MIN_GAMES_PER_POINT = 4      # the binomial model takes a short match at its worth; 2-game matches
                             # at a few hundred games let one lucky pair draw the search away
UNLIMITED_GAMES_PER_POINT = 20
RANDOM_CANDIDATES = 500
LOCAL_CANDIDATES = 100
KG_ANSWERS = 200             # uniform points among the knowledge gradient's possible answers
KG_CHOICES = 150             # uniform points a lone match may go to (with head_to_head, only below
                             # LONE_NEAR_DIMENSIONS parameters); and the pairs' random directions
KG_SPREAD = 0.15             # sd of the choices near the current best (optimiser units)
LONE_NEAR_DIMENSIONS = 2     # head_to_head: with this many parameters or more, a match against the
                             # opponent is chosen only near the incumbent; in 1-D that gained nothing
                             # and widened the optimum's interval five times (issue 34)
ARGMAX_DRAWS = 200           # posterior draws for the optimum's location
ARGMAX_POINTS = 400          # uniform points they are drawn at (with the played and the best's neighbours)
OPTIMUM_QUANTILES = (0.025, 0.25, 0.5, 0.75, 0.975)   # of the draws' best points: 95%, the central half
OPTIMUM_NAMES = ("low", "low_50", "median", "high_50", "high")
SLICE_POINTS = 21
INCONSISTENT = "status file is inconsistent with control file"
TRENDS = ("constant", "quadratic")   # gaussian_process.TRENDS, named here so that settings need no numpy
ACQUISITIONS = ("knowledge_gradient", "ucb")
LOCAL_TREND = "constant"   # the trust region's local model: a quadratic fitted to the few dozen noisy
                           # matches near the box put its answer wrong (reports/continuous_tuners.md)
_FLATTERS = "the model's estimate where it is highest, from the games that chose the point, flatters it: by "
OPTIMISM = _FLATTERS + "2 to 5 win-rate points on the bench"   # reports/continuous_tuners.md, issue 34
OPTIMISM_WITH_PAIRS = _FLATTERS + "1 to 3 win-rate points on the bench"   # the same, head_to_head
LEVEL_EVERY = 4   # head_to_head: every 4th match after the design plays the opponent at the incumbent
LEVEL_NOTE = ("head-to-head matches measure differences: the model knows the win rate against the "
              f"opponent only from its matches against the opponent (every {LEVEL_EVERY}th match after "
              "the design is one, at the incumbent)")   # reports/continuous_tuners.md, issue 34
PAIR_RADII = (0.02, 0.25)  # a head-to-head match's two points lie this far either side of the incumbent
AXIS_RADII = 6             # head-to-head choices along each of the kernel's axes, at radii across PAIR_RADII
ANSWER_SMOOTHING = 1.0     # the answer's model has the fit's lengthscales times this (answer_smoothing):
                           # 2 gains on ridges, loses on Log1D and Rosenbrock (reports/continuous_tuners.md)
ANSWER_CAUTION = 2.0       # the answer maximises the model's mean less this many sds (answer_caution): in
                           # 4-D at 300 games it was drawn to sparse regions (reports/continuous_tuners.md)


def _interpret_nonnegative_float(value: Any) -> float:
    value = interpret_float(value)
    if value < 0.0:
        raise ValueError("must not be negative")
    return value


def _interpret_smoothing(value: Any) -> float:
    value = interpret_float(value)
    if value < 1.0:
        raise ValueError("must be at least 1 (1: the fitted model's own maximum)")
    return value


MAX_INITIAL_POINTS = 10_000
"""The most points the initial design may have: they are built at once, and the model's
fit costs the cube of its points."""

BAYES_SETTINGS = [
    Setting("number_of_games", interpret_optional(interpret_positive_int), default=None),
    Setting("games_per_point", interpret_optional(interpret_positive_int), default=None),
    Setting("initial_points", interpret_optional(interpret_positive_int), default=None),
    Setting("start_matches", interpret_optional(interpret_positive_int), default=None),
    Setting("acquisition", interpret_enum(*ACQUISITIONS), default="knowledge_gradient"),
    Setting("ucb_kappa", _interpret_nonnegative_float, default=1.96),
    Setting("refit_every", interpret_positive_int, default=10),
    Setting("trend", interpret_enum(*TRENDS), default="quadratic"),
    Setting("trust_region", interpret_bool, default=False),
    Setting("answer_smoothing", _interpret_smoothing, default=ANSWER_SMOOTHING),
    Setting("answer_caution", _interpret_nonnegative_float, default=ANSWER_CAUTION),
    Setting("head_to_head", interpret_optional(interpret_bool), default=None),
]


def default_games_per_point(number_of_games: int | None) -> int:
    """Even, at least MIN_GAMES_PER_POINT, and about TARGET_POINTS points over the run (fewer
    below TARGET_POINTS x MIN_GAMES_PER_POINT games)."""
    if number_of_games is None:
        return UNLIMITED_GAMES_PER_POINT
    size = max(MIN_GAMES_PER_POINT, round(number_of_games / TARGET_POINTS))
    return size + size % 2


def default_start_matches(acquisition: str) -> int:
    """Matches at the start in the initial design: 4 for the knowledge gradient (a model anchored
    at the user's setting searches better at a few hundred games); 1 for UCB, which the anchor
    misled (reports/continuous_tuners.md, issue 34)."""
    return 4 if acquisition == "knowledge_gradient" else 1


def latin_hypercube(count: int, dims: int, rng: random.Random) -> list[list[float]]:
    """count points in [0, 1]^dims, one in each of count equal slices of every dimension."""
    columns = []
    for _ in range(dims):
        column = [(i + rng.random()) / count for i in range(count)]
        rng.shuffle(column)
        columns.append(column)
    return [list(point) for point in zip(*columns)]


def pairs_either_side(centre: Any, steps: Any) -> tuple[Any, Any]:
    """(plus, minus): the points centre + step and centre - step for each row of steps (each
    coordinate at most 0.5), the pair moved inward together where one would leave [0, 1], so that
    it keeps its full length.

    Clipped point by point, a pair at an incumbent by an edge lost the part of its step beyond
    the edge and measured the slope over as little as half its length: on the bench's Flat4D at
    2,000 games, moving pairs inward whole cut bayes_tuner's mean regret by a fifth
    (reports/continuous_tuners.md, issue 34).
    """
    import numpy as np

    steps = np.asarray(steps, dtype=float)
    reach = np.abs(steps)
    middle = np.clip(np.asarray(centre, dtype=float), reach, 1.0 - reach)
    return np.clip(middle + steps, 0.0, 1.0), np.clip(middle - steps, 0.0, 1.0)   # against rounding


class BayesTuner(ContinuousTuner):
    """Gaussian-process Bayesian optimisation over matches. Game number g plays point g // games_per_point.

    Game ids are '<point>r<round>'; candidate codes 'p<point>'. The model: each match's
    wins are binomial with the logistic of f at its point (gaussian_process.GaussianProcess,
    Laplace's approximation), f a GP with a Matérn 5/2 kernel and a quadratic (or constant)
    trend. The initial design is start_matches matches at the start, then a Latin hypercube;
    after it, the next point
    maximises the knowledge gradient (or mean + ucb_kappa * sd with acquisition = 'ucb'),
    or with head_to_head each match is between two candidates either side of the incumbent
    (ids as before, candidate codes 'p<point>+' and 'p<point>-');
    the recommendation maximises the posterior mean less answer_caution posterior sds over the
    whole space (of the same model with its lengthscales times answer_smoothing, where that is
    above 1).
    Confirmation games (confirm_games; by default a tenth of number_of_games, at least 20) play
    the answer against the start, with ids 'c0', 'c1', ... and the candidate codes 'best' and
    'start'.
    """

    competition_type = "bayes_tuner"
    event_name = "Bayesian"
    status_format_version = 1
    confirms_against_start = True

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {s.name for s in BAYES_SETTINGS}

    def load_code(self) -> None:
        from ringmaster.tuning import gaussian_process  # noqa: F401 (the model: numpy)

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        self.load_continuous_settings(config)
        settings = load_settings(BAYES_SETTINGS, config)
        self.number_of_games: int | None = settings["number_of_games"]
        self.games_per_point_set = settings["games_per_point"] is not None
        self.games_per_point: int = (settings["games_per_point"]
                                     or default_games_per_point(self.number_of_games))
        dims = len(self.parameter_specs)
        self.initial_points: int = settings["initial_points"] or 4 + 3 * dims
        self.acquisition: str = settings["acquisition"]
        self.start_matches: int = settings["start_matches"] or default_start_matches(self.acquisition)
        if self.design_matches > MAX_INITIAL_POINTS:
            raise ControlFileError(
                f"'initial_points': {self.initial_points} (with {self.start_matches - 1} more matches at "
                f"the start) is more than the {MAX_INITIAL_POINTS} a design may have (each is a match "
                "the model fits)", setting="initial_points")
        if self.number_of_games is not None and \
                self.number_of_games < self.games_per_point * self.design_matches:
            raise ControlFileError(
                f"'number_of_games': {self.number_of_games} is fewer than the initial design's matches "
                f"({self.design_matches} x {self.games_per_point}); lower games_per_point, "
                "initial_points or start_matches", setting="number_of_games")
        self.ucb_kappa: float = settings["ucb_kappa"]
        self.refit_every: int = settings["refit_every"]
        self.trend: str = settings["trend"]
        self.trust_region: bool = settings["trust_region"]
        self.answer_smoothing: float = settings["answer_smoothing"]
        self.answer_caution: float = settings["answer_caution"]
        if self.trust_region and self.acquisition != "knowledge_gradient":
            raise ControlFileError("'trust_region': True needs acquisition = 'knowledge_gradient' "
                                   f"(not {self.acquisition!r})", setting="trust_region")
        pairs_possible = self.acquisition == "knowledge_gradient" and not self.trust_region
        self.head_to_head_set = settings["head_to_head"] is not None
        self.head_to_head: bool = (pairs_possible if settings["head_to_head"] is None
                                   else settings["head_to_head"])
        if self.head_to_head and not pairs_possible:
            raise ControlFileError("'head_to_head': True needs acquisition = 'knowledge_gradient' and "
                                   "trust_region = False", setting="head_to_head")
        self.check_make_candidate(self.sample_engine_parameters())
        if not self.confirm_games_given:   # the verdict rests on them, as ce_tuner's and spsa_tuner's
            self.confirm_games = default_confirm_games(self.number_of_games or 0)
        self._model_cache: tuple[Any, Any, bool] | None = None
        self._recommendation_cache = None
        self._argmax_cache: tuple[int, Any] | None = None

    # State

    def set_clean_status(self) -> None:
        self.points: list[dict[str, Any]] = []
        self.scheduler = SimpleScheduler()
        self.hyper: list[float] | None = None
        self.rotation: list[list[float]] | None = None
        self.fitted_at = 0
        self.fitted_trend = "constant"
        self.opponent_description: str | None = None
        self.region: TrustRegion | None = None
        self._model_cache = None
        self._recommendation_cache: tuple[int, Any] | None = None
        self._argmax_cache = None
        self.clean_confirmation()

    def get_status(self) -> dict[str, Any]:
        return {
            "games_per_point": self.games_per_point,
            "start_matches": self.start_matches,
            "codes": [spec.code for spec in self.parameter_specs],
            "points": self.points,
            "scheduler": self.scheduler.to_json(),
            "hyper": self.hyper,
            "rotation": self.rotation,
            "fitted_at": self.fitted_at,
            "fitted_trend": self.fitted_trend,
            "opponent_description": self.opponent_description,
            "trust_region": None if self.region is None else self.region.to_json(),
            "head_to_head": self.head_to_head,
            "confirmation": self.confirmation_to_json(),
            **self.opponent_status(),
            **self.scales_status(),
        }

    def set_status(self, status: dict[str, Any]) -> None:
        self.check_opponent_status(status)
        try:
            if status["games_per_point"] != self.games_per_point:
                if self.games_per_point_set:
                    raise changed_since_state("'games_per_point'", self.games_per_point,
                                              status["games_per_point"])
                self.games_per_point = int(status["games_per_point"])   # a default changed since
            # a run keeps its design; one started before start_matches played the start once
            self.start_matches = int(status.get("start_matches", 1))
            codes = [spec.code for spec in self.parameter_specs]
            if status["codes"] != codes:
                raise parameters_changed(codes, status["codes"])
            self.check_scales_status(status)
            self.points = [self._point_from_json(p) for p in status["points"]]
            self.scheduler = SimpleScheduler.from_json(status["scheduler"])
            self.hyper = status["hyper"]
            self.rotation = self._rotation_from_json(status.get("rotation"))
            self.fitted_at = int(status["fitted_at"])
            if "fitted_trend" not in status:
                self.trend = "constant"   # a run started before trends goes on with its own model
            self.fitted_trend = str(status.get("fitted_trend", "constant"))
            if self.fitted_trend not in TRENDS:
                raise ValueError("unknown trend")
            self.opponent_description = status["opponent_description"]
            if "head_to_head" not in status and not self.head_to_head_set:
                self.head_to_head = False   # a run started when pairs were off by default keeps them off
            # the setting may be switched between runs: off drops the box, on starts one
            from ringmaster.tuning.trust_region import TrustRegion
            region = status.get("trust_region")
            self.region = (TrustRegion.from_json(region, len(self.parameter_specs))
                           if self.trust_region and region is not None else None)
            self.clean_confirmation()
            self.confirmation_from_json(status["confirmation"])
        except (KeyError, ValueError, TypeError):
            raise CompetitionError(INCONSISTENT) from None
        self._model_cache = None
        self._recommendation_cache = None
        self._argmax_cache = None

    def _point_from_json(self, point: Any) -> dict[str, Any]:
        """A match from a state file: its point, and the other point where it was head to head."""
        dims = len(self.parameter_specs)
        found = {"x": [float(v) for v in point["x"]], "wins": float(point["wins"]),
                 "games": int(point["games"])}
        if "y" in point:
            found["y"] = [float(v) for v in point["y"]]
        if any(len(found[key]) != dims for key in ("x", "y") if key in found):
            raise ValueError("point's size")
        return found

    def _rotation_from_json(self, rotation: Any) -> list[list[float]] | None:
        """The kernel's rotation from a state file: None, or a square of numbers, a row a parameter."""
        if rotation is None:
            return None
        dims = len(self.parameter_specs)
        rows = [[float(v) for v in row] for row in rotation]
        if len(rows) != dims or any(len(row) != dims for row in rows):
            raise ValueError("rotation's shape")
        return rows

    # The model

    def results(self) -> int:
        return sum(p["games"] for p in self.points)

    def _observed(self) -> list[dict[str, Any]]:
        return [p for p in self.points if p["games"] > 0]

    def _observed_arrays(self) -> tuple[Any, Any, Any]:
        """(x, wins, games) of the matches with results, as numpy arrays (a row or entry a match)."""
        import numpy as np

        observed = self._observed()
        return (np.array([p["x"] for p in observed]), np.array([p["wins"] for p in observed]),
                np.array([p["games"] for p in observed], dtype=float))

    def _other_array(self, points: list[dict[str, Any]]) -> Any:
        """The head-to-head matches' other points, a row per match (NaN for a match against the
        opponent); None when no match was head to head."""
        import numpy as np

        if not any("y" in p for p in points):
            return None
        nan = [float("nan")] * len(self.parameter_specs)
        return np.array([p.get("y", nan) for p in points], dtype=float)

    def model(self, search: bool = False) -> Any:
        """The GP on the matches so far (None before any result), its hyperparameters refitted every
        refit_every matches with results. Only the search (search=True) keeps a refit, in the state,
        so that a report changes no game however often it asks (the screen redraws on the clock: a
        report's refit kept would move the search's schedule of refits), and a resumed run gives
        the same model."""

        from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters, fit

        observed = self._observed()
        if not observed:
            return None
        key = (len(observed), self.results())
        if self._model_cache is not None and self._model_cache[0] == key:
            _, gp, kept = self._model_cache
            if search and not kept:   # a report refitted on these very matches: the search's refit
                self._keep_fit(gp, len(observed))
                self._model_cache = (key, gp, True)
            return gp
        x, wins, games = self._observed_arrays()
        other = self._other_array(observed)
        start = None if self.hyper is None else Hyperparameters.from_lists(self.hyper, self.rotation)
        due = start is None or len(observed) >= self.fitted_at + self.refit_every \
            or self.trend != self.fitted_trend
        if due:
            gp = fit(x, wins, games, start, self.trend, other=other)
            if search:
                self._keep_fit(gp, len(observed))
        else:
            gp = GaussianProcess(x, wins, games, start, trend=self.trend, other=other)
        self._model_cache = (key, gp, search or not due)
        return gp

    def _keep_fit(self, gp: Any, observed: int) -> None:
        """Keep gp's hyperparameters in the state, fitted with observed matches."""
        self.hyper, self.rotation = gp.hyper.to_lists()
        self.fitted_trend = gp.trend
        self.fitted_at = observed

    def _candidates(self, rng: Any, around: Any, spread: float, count: int,
                    low: Any = 0.0, high: Any = 1.0) -> Any:
        """count uniform points in the box from low to high (the whole space by default),
        LOCAL_CANDIDATES normal ones (sd spread) around the rows of around, and around, all in it."""
        import numpy as np

        dims = len(self.parameter_specs)
        around = np.atleast_2d(np.asarray(around, dtype=float))
        centres = around[rng.integers(0, len(around), LOCAL_CANDIDATES)]
        local = np.clip(centres + rng.normal(0.0, spread, centres.shape), low, high)
        return np.concatenate([low + rng.random((count, dims)) * (high - low), local,
                               np.clip(around, low, high)])

    # The trust region (trust_region = True)

    def _local_model(self, region: TrustRegion, refit: bool) -> tuple[Any, Any, Any]:
        """(gp, low, side): a GP with a constant trend on the matches near the region's box, in
        coordinates that make the box the unit cube, so that its lengthscales can shrink to a peak
        the global model smooths over. Its hyperparameters are refitted every refit_every matches
        when refit (and kept in the region); otherwise the region's are used as they are."""
        import numpy as np

        from ringmaster.tuning import trust_region
        from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters, fit

        x, wins, games = self._observed_arrays()
        other = self._other_array(self._observed())   # head-to-head matches of an earlier run
        low, high = trust_region.box(region.centre, region.side)
        side = np.maximum(high - low, 1e-6)
        near = trust_region.local_points(x, low, high)
        local_x = (x[near] - low) / side
        local_other = None if other is None else (other[near] - low) / side
        start = None if region.local_hyper is None else \
            Hyperparameters.from_lists(region.local_hyper, region.local_rotation)
        if start is None or (refit and len(x) >= region.local_fitted_at + self.refit_every):
            gp = fit(local_x, wins[near], games[near], start, LOCAL_TREND, other=local_other)
            if refit:
                region.local_hyper, region.local_rotation = gp.hyper.to_lists()
                region.local_fitted_at = len(x)
        else:
            gp = GaussianProcess(local_x, wins[near], games[near], start, trend=LOCAL_TREND,
                                 other=local_other)
        return gp, low, side

    def _incumbent(self, local: Any, low: Any, side: Any) -> tuple[list[float], float]:
        """The match played in the box (anywhere, if none is) with the local model's highest mean,
        and that mean."""
        import numpy as np

        from ringmaster.tuning import trust_region

        x = self._observed_arrays()[0]
        candidates = x[trust_region.inside(x, low, low + side)]
        if len(candidates) == 0:
            candidates = x
        means = local.predict_mean((candidates - low) / side)
        best = int(np.argmax(means))
        return [float(v) for v in candidates[best]], float(means[best])

    def _trust_region_point(self, gp: Any, rng: Any) -> list[float]:
        """The knowledge gradient's choice inside the box, by the local model; the box first moved
        to the incumbent, its side counted a step (trust_region.step)."""
        import numpy as np

        from ringmaster.tuning import trust_region
        from ringmaster.tuning.gaussian_process import knowledge_gradient

        if self.region is None:
            x = self._observed_arrays()[0]
            self.region = trust_region.TrustRegion(
                centre=[float(v) for v in x[int(np.argmax(gp.predict_mean(x)))]])
        region = self.region
        self._recommendation_cache = self._argmax_cache = None   # the answer is the box's: it moves
        local, low, side = self._local_model(region, refit=True)
        incumbent, value = self._incumbent(local, low, side)
        trust_region.step(region, value)
        region.centre = incumbent
        local, low, side = self._local_model(region, refit=True)
        region.last_value = self._incumbent(local, low, side)[1]
        high = low + side
        pending = np.array([p["x"] for p in self.points if p["games"] == 0])
        if len(pending):   # counted as matches that went as the local model predicts, as in _next_point
            pending = pending[trust_region.local_points(pending, low, high, at_least=0)]
            if len(pending):
                local = self._with_pending(local, [{"x": row} for row in (pending - low) / side])
        scale = min(1.0, region.side)
        answers = self._candidates(rng, region.centre, 0.05 * scale, KG_ANSWERS, low, high)
        choices = self._candidates(rng, region.centre, KG_SPREAD * scale, KG_CHOICES, low, high)
        gain = knowledge_gradient(local, (choices - low) / side, (answers - low) / side,
                                  self.games_per_point)
        return [float(v) for v in choices[int(np.argmax(gain))]]

    def _trust_region_best(self, rng: Any) -> tuple[Any, Any, Any, Any]:
        """(point, local model, low, side): where the local model's mean is highest in the box,
        searched as _best_mean searches the whole space."""
        import numpy as np

        from ringmaster.tuning import trust_region

        region = self.region
        local, low, side = self._local_model(region, refit=False)
        high = low + side
        scale = min(1.0, region.side)
        x = self._observed_arrays()[0]
        around = x[trust_region.inside(x, low, high)]
        if len(around) == 0:
            around = np.atleast_2d(region.centre)
        candidates = self._candidates(rng, around, 0.05 * scale, RANDOM_CANDIDATES, low, high)
        for spread in (0.03, 0.01):
            best = candidates[int(np.argmax(local.predict_mean((candidates - low) / side)))]
            candidates = self._candidates(rng, best, spread * scale, 0, low, high)
        point = candidates[int(np.argmax(local.predict_mean((candidates - low) / side)))]
        return point, local, low, side

    def _best_mean(self, gp: Any, rng: Any, caution: float = 0.0) -> Any:
        """The candidate with the highest mean less caution sds: random points and the points
        played, then twice the neighbourhood of the best so far."""
        import numpy as np

        def score(points: Any) -> Any:
            if caution == 0.0:
                return gp.predict_mean(points)
            mean, sd = gp.predict(points)
            return mean - caution * sd

        played = np.array([p["x"] for p in self._observed()])
        candidates = self._candidates(rng, played, 0.05, RANDOM_CANDIDATES)
        for spread in (0.03, 0.01):
            best = candidates[int(np.argmax(score(candidates)))]
            candidates = self._candidates(rng, best, spread, 0)
        return candidates[int(np.argmax(score(candidates)))]

    def _answer_model(self, gp: Any) -> Any:
        """The model whose mean's maximum is the answer: gp with its lengthscales times
        answer_smoothing (gp itself at 1).

        The maximum of a fit to noisy matches is drawn to its luckiest bump (the winner's
        curse), and finding where a function peaks can want a wider window than fitting its
        values does: doubling the fitted lengthscales halved bayes_tuner's mean regret on
        IllCorrelated at 2,000 games, and raised it on Log1D and on Rosenbrock at 300 and 600
        (reports/continuous_tuners.md, issue 34), so it is off by default.
        """
        if self.answer_smoothing == 1.0:
            return gp
        from ringmaster.tuning.gaussian_process import GaussianProcess, Hyperparameters

        hyper = gp.hyper
        smoother = Hyperparameters(tuple(self.answer_smoothing * ls for ls in hyper.lengthscales),
                                   hyper.signal_sd, hyper.rotation)
        return GaussianProcess(gp.x, gp.wins, gp.games, smoother, trend=gp.trend, start=gp.mode,
                               other=gp.other)

    def recommendation(self) -> tuple[list[float], float, float] | None:
        """(point, mean, sd): the point where the answer's model (_answer_model) has its highest
        mean less answer_caution sds, with the fitted model's mean logit win rate there and its sd;
        None before any result.

        The caution keeps the answer off a maximum that only the model's guess between sparse
        matches puts there: with 4 parameters at 300 games, 2 sds cut bayes_tuner's mean regret
        on the bench's Quadratic4D by a quarter (reports/continuous_tuners.md, issue 34). The
        incumbent that head-to-head matches are played around is the mean's own maximum.

        The random draws are seeded by the number of results, so the answer is a
        function of the state.
        """
        import numpy as np

        gp = self.model()
        if gp is None:
            return None
        if self._recommendation_cache is not None and self._recommendation_cache[0] == self.results():
            return self._recommendation_cache[1]
        rng = np.random.default_rng(self.results())
        if self.region is None:
            point = self._best_mean(self._answer_model(gp), rng, self.answer_caution)
            mean, sd = gp.predict(point)
        else:
            point, local, low, side = self._trust_region_best(rng)
            mean, sd = local.predict((point - low) / side)
        found = ([float(v) for v in point], float(mean[0]), float(sd[0]))
        self._recommendation_cache = (self.results(), found)
        return found

    def recommended_parameters(self) -> list[float]:
        """The point the model thinks best (the start before any result)."""
        found = self.recommendation()
        return list(self.start) if found is None else found[0]

    @property
    def design_matches(self) -> int:
        """The initial design's matches: start_matches at the start, then initial_points - 1 others."""
        return self.start_matches + self.initial_points - 1

    def _design_point(self, index: int) -> list[float]:
        """The initial design's index-th match: start_matches at the start (the engine's setting the
        user knows, measured well enough to anchor the model), then a Latin hypercube."""
        if index < self.start_matches:
            return list(self.start)
        index -= self.start_matches - 1
        if not hasattr(self, "_design") or len(self._design) != self.initial_points - 1:
            self._design = latin_hypercube(self.initial_points - 1, len(self.parameter_specs),
                                           random.Random(1))
        return self._design[index - 1]

    def _with_pending(self, gp: Any, pending: list[dict[str, Any]]) -> Any:
        """gp with a match of games_per_point for each of pending (matches still being played) that
        went as gp predicts: the mean stays, the uncertainty there shrinks."""
        import numpy as np

        from ringmaster.tuning.gaussian_process import GaussianProcess

        pending_x = np.array([p["x"] for p in pending])
        predicted = gp.predict_mean(pending_x)
        pending_other = self._other_array(pending)
        if pending_other is not None:
            paired = ~np.isnan(pending_other).any(axis=1)
            predicted[paired] -= gp.predict_mean(pending_other[paired])
        rate = 1.0 / (1.0 + np.exp(-predicted))
        size = float(self.games_per_point)
        other = None
        if gp.other is not None or pending_other is not None:
            nan = np.full(pending_x.shape, np.nan)
            other = np.concatenate([np.full(gp.x.shape, np.nan) if gp.other is None else gp.other,
                                    nan if pending_other is None else pending_other])
        return GaussianProcess(np.concatenate([gp.x, pending_x]), np.concatenate([gp.wins, size * rate]),
                               np.concatenate([gp.games, np.full(len(pending_x), size)]),
                               gp.hyper, trend=gp.trend, other=other)

    def _with_matches_in_flight(self, gp: Any) -> Any:
        """gp with the matches still being played counted as if they went as predicted (_with_pending),
        so that parallel games spread."""
        pending = [p for p in self.points if p["games"] == 0]
        return self._with_pending(gp, pending) if pending else gp

    def _next_match(self) -> dict[str, Any]:
        """A new match: {"x": point} against the opponent, or with "y" the other point of a
        head-to-head match (x's wins counted)."""
        if len(self.points) < self.design_matches:
            return {"x": self._design_point(len(self.points))}
        if self.head_to_head:
            return self._next_pair()
        return {"x": self._next_point()}

    def _next_pair(self) -> dict[str, Any]:
        """A match after the design with head_to_head: whichever the knowledge gradient rates higher
        of the best head-to-head match, two points either side of the incumbent (the model's best
        mean; moved inward together at an edge, pairs_either_side), in random directions and along
        the kernel's axes, and the best match against the opponent; matches still being played
        count as if they went as predicted.

        A game between two candidates measures the difference of their strengths with about a
        quarter of the variance that two games against the opponent do, and a pair either side
        of the incumbent measures the slope there, as SPSA's pairs do. A match against the
        opponent still wins where the model must look beyond the pairs' reach (CLOP's
        IllCorrelated ridge); with LONE_NEAR_DIMENSIONS parameters or more it is chosen near the
        incumbent too (normal choices, sd KG_SPREAD), since chosen anywhere it went mostly to far
        corners the design had seen lose, where a logit's flat tail never rules out a rise
        (reports/continuous_tuners.md, issue 34). Every LEVEL_EVERY-th match after the design
        plays the opponent at the incumbent, since pairs say nothing of the level: without them the
        win rate's interval at the answer was 0.20 to 0.33 wide on the bench at 1,200 games, with
        them 0.11 to 0.12.
        """
        import numpy as np

        from ringmaster.tuning.gaussian_process import knowledge_gradient, knowledge_gradient_head_to_head

        rng = np.random.default_rng(self.rng.getrandbits(64))
        gp = self._with_matches_in_flight(self.model(search=True))
        best = self._best_mean(gp, rng)
        if (len(self.points) - self.design_matches) % LEVEL_EVERY == LEVEL_EVERY - 1:
            return {"x": [float(v) for v in best]}
        dims = len(self.parameter_specs)
        directions = rng.normal(size=(KG_CHOICES, dims))
        directions /= np.linalg.norm(directions, axis=1)[:, None]
        steps = directions * rng.uniform(*PAIR_RADII, (KG_CHOICES, 1))
        # and along the kernel's axes (a ridge across the parameters lies along one of them)
        axes = np.eye(dims) if gp.hyper.rotation is None else np.asarray(gp.hyper.rotation)
        radii = np.geomspace(*PAIR_RADII, AXIS_RADII)
        steps = np.concatenate([steps, (axes[:, None, :] * radii[None, :, None]).reshape(-1, dims)])
        plus, minus = pairs_either_side(best, steps)
        answers = self._candidates(rng, best, 0.05, KG_ANSWERS)
        gain = knowledge_gradient_head_to_head(gp, plus, minus, answers, self.games_per_point)
        chosen = int(np.argmax(gain))
        choices = self._candidates(rng, best, KG_SPREAD,
                                   0 if dims >= LONE_NEAR_DIMENSIONS else KG_CHOICES)
        alone = knowledge_gradient(gp, choices, answers, self.games_per_point)
        if alone.max() > gain[chosen]:
            return {"x": [float(v) for v in choices[int(np.argmax(alone))]]}
        return {"x": [float(v) for v in plus[chosen]], "y": [float(v) for v in minus[chosen]]}

    def _next_point(self) -> list[float]:
        """A new point after the design: the acquisition's maximum, points still being played counted
        as matches that went as the model predicts (so parallel games spread)."""
        import numpy as np

        from ringmaster.tuning.gaussian_process import knowledge_gradient

        gp = self.model(search=True)
        rng = np.random.default_rng(self.rng.getrandbits(64))
        if self.trust_region:
            return self._trust_region_point(gp, rng)
        gp = self._with_matches_in_flight(gp)
        best = self._best_mean(gp, rng)
        if self.acquisition == "ucb":
            candidates = self._candidates(rng, best, 0.05, RANDOM_CANDIDATES)
            mean, sd = gp.predict(candidates)
            return [float(v) for v in candidates[int(np.argmax(mean + self.ucb_kappa * sd))]]
        answers = self._candidates(rng, best, 0.05, KG_ANSWERS)
        choices = self._candidates(rng, best, KG_SPREAD, KG_CHOICES)
        gain = knowledge_gradient(gp, choices, answers, self.games_per_point)
        return [float(v) for v in choices[int(np.argmax(gain))]]

    def optimum_location(self) -> list[tuple[float, ...]] | None:
        """Where the optimum lies by the model: per parameter the OPTIMUM_QUANTILES (2.5%, 25%,
        50%, 75%, 97.5%), in optimiser units, of the argmax of ARGMAX_DRAWS joint posterior draws
        of f over ARGMAX_POINTS uniform points, the points played and the recommendation's
        neighbours. None before any result; seeded by the number of results.

        The central half is given beside the 95% interval: with two parameters the 95% interval
        spans most of the range at 1,200 games (uncertain points far from the answer top its peak
        in a few percent of draws), while the central half held the optimum about as often as it
        claims (reports/continuous_tuners.md, issue 34)."""
        import numpy as np

        from ringmaster.tuning.gaussian_process import posterior_samples

        found = self.recommendation()
        if found is None:
            return None
        if self._argmax_cache is not None and self._argmax_cache[0] == self.results():
            return self._argmax_cache[1]
        gp = self.model()
        rng = np.random.default_rng(self.results() + 1)
        points = self._candidates(rng, np.array([found[0]]), 0.05, ARGMAX_POINTS)
        points = np.concatenate([points, gp.x])
        draws = posterior_samples(gp, points, ARGMAX_DRAWS, rng)
        argmax = points[np.argmax(draws, axis=1)]
        quantiles = np.quantile(argmax, OPTIMUM_QUANTILES, axis=0)
        location = [tuple(float(q) for q in column) for column in quantiles.T]
        self._argmax_cache = (self.results(), location)
        return location

    # Games

    def tuning_games_due(self) -> bool:
        return self.number_of_games is None or self.scheduler.can_issue(self.number_of_games)

    def tuning_over(self) -> bool:
        return (self.number_of_games is not None
                and len(self.scheduler.fixed) >= self.number_of_games)

    def is_complete(self) -> bool:
        return self.tuning_over() and self.confirmation_complete()

    def games_played(self) -> int:
        return self.results() + self.confirm_played

    def get_game(self) -> GameJob | NoGameAvailable:
        if self.tuning_over():
            return self.next_confirmation_game(self.recommended_parameters())
        number = self.scheduler.issue(limit=self.number_of_games)
        if number is None:
            return NO_GAME
        index, round_number = divmod(number, self.games_per_point)
        if index == len(self.points):
            self.points.append({**self._next_match(), "wins": 0.0, "games": 0})
        point = self.points[index]
        engine_parameters = self.convert(point["x"])
        if "y" in point:
            return self._head_to_head_job(number, index, round_number, point)
        candidate = self.make_candidate(f"p{index}", engine_parameters)
        return self.make_tuning_job(f"{index}r{round_number}", [number, index], candidate,
                                    engine_parameters)

    def _head_to_head_job(self, number: int, index: int, round_number: int,
                          point: dict[str, Any]) -> GameJob:
        """A game of a head-to-head match: candidates p<index>+ (at x) and p<index>- (at y), colours
        swapped each round."""
        plus_parameters, minus_parameters = self.convert(point["x"]), self.convert(point["y"])
        plus = self.make_candidate(f"p{index}+", plus_parameters)
        minus = self.make_candidate(f"p{index}-", minus_parameters)
        black, white = (plus, minus) if round_number % 2 == 0 else (minus, plus)
        note = (f"Head to head: + {self.format_engine_parameters(plus_parameters)}; "
                f"- {self.format_engine_parameters(minus_parameters)}")
        return self.make_game_job(f"{index}r{round_number}", black, white, self.game_settings,
                                  game_data=[number, index], sgf_note=note)

    def retry_tuning_game(self, game_data: Any) -> None:
        self.scheduler.retry(game_data[0])

    def process_game_result(self, response: GameJobResult) -> str | None:
        self.seen_successful_game = True
        self.note_opponent(response)
        if self.is_confirmation(response.game_data):
            return self.process_confirmation_result(response)
        number, index = response.game_data
        if number in self.scheduler.fixed:
            return None   # already counted
        self.scheduler.fix(number)
        point = self.points[index]
        description = f"point {index} ({self.format_optimiser_parameters(point['x'])}) "
        if "y" in point:
            winner = response.game_result.winning_player
            score = {f"p{index}+": 1.0, f"p{index}-": 0.0}.get(winner, 0.5)   # a jigo or no result: half
            description += f"against ({self.format_optimiser_parameters(point['y'])}) "
        else:
            score = float(self.candidate_won(response))
        point["wins"] += score
        point["games"] += 1
        description += {1.0: "won", 0.0: "lost"}.get(score, "drew")
        self.log_history(description)
        return f"{description} {response.game_result.sgf_result}"

    # Reports

    def _rate_interval(self, mean: float, sd: float) -> tuple[float, float, float]:
        from ringmaster.tuning.gaussian_process import logistic
        return logistic(mean), logistic(mean - 1.96 * sd), logistic(mean + 1.96 * sd)

    def slices(self) -> list[dict[str, Any]]:
        """The model along each parameter through the recommended point: values, win rate, 95% band."""
        import numpy as np

        found = self.recommendation()
        if found is None:
            return []
        gp = self.model()
        result = []
        for j, spec in enumerate(self.parameter_specs):
            grid = [i / (SLICE_POINTS - 1) for i in range(SLICE_POINTS)]
            points = [list(found[0]) for _ in grid]
            for point, value in zip(points, grid):
                point[j] = value
            mean, sd = gp.predict(np.array(points))
            rows = [self._rate_interval(float(m), float(s)) for m, s in zip(mean, sd)]
            result.append({"code": spec.code, "optimiser_values": grid,
                           "engine_values": [self.convert(p)[j] for p in points],
                           "win_rate": [r[0] for r in rows], "low": [r[1] for r in rows],
                           "high": [r[2] for r in rows]})
        return result

    def verdict(self) -> Verdict | None:
        """The model's best point, recommended once it beat the start in confirmation games, as
        ce_tuner's and spsa_tuner's are: the model's own confidence doesn't tell a peak from a
        plateau (on a flat landscape its 95% interval at the answer passed any width bar, and
        its probability that the answer beats the start, taken at the point its games chose, was
        0.975 or more in 6 of 20 runs at 1,200 games: reports/tuner_verdicts.md). The
        model's win rate there is the uncertainty; a warning at an end of a range. None before
        any result."""
        found = self.recommendation()
        if found is None:
            return None
        rate, low, high = self._rate_interval(found[1], found[2])
        codes = [spec.code for spec in self.parameter_specs]
        settle = ("more confirmation games (confirm_games), or more games (number_of_games)"
                  if self.confirm_games > 0 else "confirmation games against the start (confirm_games)")
        return self.confirmation_verdict(
            self.format_optimiser_parameters(found[0]), self.tuning_over(), settle,
            f"the model's win rate there against the opponent is {rate:.3f}, 95% interval {low:.3f} "
            f"to {high:.3f} (the model's, flattered by the games that chose the point)",
            continuous_edge_warnings(codes, found[0]))

    def write_screen_report(self, out: TextIO) -> None:
        played = self.results()
        total = "" if self.number_of_games is None else f"/{self.number_of_games}"
        out.write(f"{played}{total} games played, {len(self._observed())} points "
                  f"({self.games_per_point} games each)\n")
        out.write(f"state: {self.stop_reason(played)}\n\n")
        found = self.recommendation()
        if found is None:
            out.write("No recommendation before the first result.\n")
        else:
            point, mean, sd = found
            rate, low, high = self._rate_interval(mean, sd)
            out.writelines(line + "\n" for line in self.verdict().lines())
            out.write(f"Recommended (the model's highest mean{self._answer_note()}): "
                      f"{self.format_optimiser_parameters(point)}\n")
            out.write(f"  model's win rate there {rate:.3f} [{low:.3f}, {high:.3f}]  "
                      f"Elo vs opponent {elo_from_rate(rate):+.0f} "
                      f"[{elo_from_rate(low):+.0f}, {elo_from_rate(high):+.0f}]\n")
            out.write(f"  {selection_bias_warning(self.confirm_games, self._optimism())}\n")
            level_note = self._level_note()
            if level_note:
                out.write(f"  ({level_note})\n")
            out.write(f"Where the optimum lies, by the model (the best points of {ARGMAX_DRAWS} posterior "
                      "draws: 95% of them, and the central half):\n")
            for row in self.optimum_intervals():
                out.write(f"  {row['shown_low']}  to  {row['shown_high']}  (median {row['shown_median']}; "
                          f"half {row['shown_low_50']}  to  {row['shown_high_50']})\n")
            self._write_slices(out)
        if self.confirm_games > 0:
            out.write("\n")
            self.write_confirmation_report(out)

    def _optimism(self) -> str:
        """How much the model's estimate at its answer flatters it on the bench: less once
        head-to-head matches are played, since a quarter of the matches are then played at the
        incumbent itself."""
        return OPTIMISM_WITH_PAIRS if self._level_note() else OPTIMISM

    def _level_note(self) -> str | None:
        """LEVEL_NOTE where head-to-head matches have been played (None otherwise)."""
        return LEVEL_NOTE if any("y" in p for p in self._observed()) else None

    def _smoothing_in_effect(self) -> float | None:
        """answer_smoothing where it shapes the answer; None in a trust region, whose answer is the
        local model's."""
        return None if self.region is not None else self.answer_smoothing

    def _caution_in_effect(self) -> float | None:
        """answer_caution where it shapes the answer; None in a trust region."""
        return None if self.region is not None else self.answer_caution

    def _answer_note(self) -> str:
        """How the answer was chosen, for the screen report: the caution and the smoothing in effect."""
        caution, smoothing = self._caution_in_effect(), self._smoothing_in_effect()
        note = "" if caution in (None, 0.0) else f" less {caution:g} sd"
        return note + ("" if smoothing in (None, 1.0) else f", its lengthscales x{smoothing:g}")

    def optimum_intervals(self) -> list[dict[str, Any]]:
        """optimum_location() per parameter in engine units: code, low, low_50, median, high_50, high
        (the 95% interval's ends, the central half's and the median; each also as the parameter's
        format shows it); [] before any result."""
        location = self.optimum_location()
        found = self.recommendation()
        if location is None or found is None:
            return []
        rows = []
        for j, (spec, quantiles) in enumerate(zip(self.parameter_specs, location)):
            row: dict[str, Any] = {"code": spec.code, "optimiser": list(quantiles)}
            for name, value in zip(OPTIMUM_NAMES, quantiles):
                point = list(found[0])
                point[j] = value
                row[name] = self.convert(point)[j]
                row[f"shown_{name}"] = spec.format % (row[name],)
            rows.append(row)
        return rows

    def _write_slices(self, out: TextIO) -> None:
        out.write("\nThe model along each parameter, the others at the recommendation "
                  "(win rate [95%]):\n")
        for s in self.slices():
            out.write(f"  {s['code']}:\n")
            for i in range(0, SLICE_POINTS, 4):
                value = self.parameter_specs[[p.code for p in self.parameter_specs].index(s["code"])]
                shown = value.format % (s["engine_values"][i],)
                out.write(f"    {shown:<24} {s['win_rate'][i]:.3f} [{s['low'][i]:.3f}, {s['high'][i]:.3f}]\n")

    def write_short_report(self, out: TextIO) -> None:
        self.write_static_description(out)
        self.write_screen_report(out)
        self.write_opponent_line(out)
        out.write("\n")

    def _point_json(self, point: dict[str, Any]) -> dict[str, Any]:
        """A match in the JSON report: its point, the other point where it was head to head (its wins
        are the first point's against the second), wins and games."""
        found = {"optimiser_parameters": point["x"],
                 "parameters": self.format_optimiser_parameters(point["x"])}
        if "y" in point:
            found.update({"against_optimiser_parameters": point["y"],
                          "against_parameters": self.format_optimiser_parameters(point["y"])})
        return {**found, "wins": point["wins"], "games": point["games"]}

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        found = self.recommendation()
        recommended = None
        if found is not None:
            rate, low, high = self._rate_interval(found[1], found[2])
            recommended = {"optimiser_parameters": found[0],
                           "parameters": self.format_optimiser_parameters(found[0]),
                           "answer_smoothing": self._smoothing_in_effect(),
                           "answer_caution": self._caution_in_effect(),
                           "optimism": self._optimism(), "level_note": self._level_note(),
                           "model_win_rate": rate, "model_win_rate_95": [low, high],
                           "elo": elo_from_rate(rate), "optimum_95": self.optimum_intervals()}
        played = self.results()
        gp = self.model()   # the model that gave the answer, refitted if due
        hyper, rotation = (None, None) if gp is None else gp.hyper.to_lists()
        report.update({
            "games_played": played,
            "number_of_games": self.number_of_games,
            "stop_reason": self.stop_reason(played),
            "games_per_point": self.games_per_point,
            "points": [self._point_json(p) for p in self.points],
            "head_to_head": self.head_to_head,
            "hyperparameters": hyper,
            "kernel_rotation": rotation,
            "recommended": recommended,
            "verdict": None if found is None else self.verdict().to_json(),
            "slices": self.slices(),
            "confirmation": self.confirmation_json(),
            "opponent": self.opponent.code,
            "opponent_description": self.opponent_description,
            "elo_method": ELO_METHOD,
        })
        return report
