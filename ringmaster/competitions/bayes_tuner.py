"""bayes_tuner: Bayesian optimisation; a Gaussian process over the logit win rate picks each match's point."""

from __future__ import annotations

import copy
import random
from typing import TYPE_CHECKING, Any, TextIO

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.bayes_matches import latin_hypercube, next_pair, next_point
from ringmaster.competitions.bayes_model import answer_model, best_mean, observed_matches, with_pending
from ringmaster.competitions.bayes_reports import (
    answer_note,
    level_note,
    optimism,
    optimum_intervals,
    optimum_location,
    point_json,
    rate_interval,
    recommended_json,
    slices,
    write_answer,
    write_optimum,
    write_slices,
)
from ringmaster.competitions.bayes_settings import (
    BAYES_SETTINGS,
    MAX_INITIAL_POINTS,
    TARGET_POINTS,
    TRENDS,
    default_games_per_point,
    default_start_matches,
    refit_due,
)
from ringmaster.competitions.bayes_trust_region import first_region, trust_region_best, trust_region_point
from ringmaster.competitions.confirmation import default_confirm_games
from ringmaster.competitions.continuous_tuner import ContinuousTuner
from ringmaster.competitions.scheduling import SimpleScheduler
from ringmaster.competitions.state_changes import changed_since_state, parameters_changed
from ringmaster.competitions.verdict import Verdict, continuous_edge_warnings, selection_bias_warning
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.settings import load_settings
from ringmaster.state.encoding import EncodedArray, EncodedList, EncodedOnce
from ringmaster.stats.win_rates import ELO_METHOD

if TYPE_CHECKING:
    from ringmaster.tuning.trust_region import TrustRegion

# what bench/, reports/ and tests import from here, as before the settings, the choice of matches
# and the reports had modules of their own
__all__ = ["BayesTuner", "TARGET_POINTS", "default_games_per_point", "latin_hypercube"]

INCONSISTENT = "status file is inconsistent with control file"



def match_games(point: dict[str, Any]) -> int:
    """A match's games played: those with a result, in its record, and those without."""
    return point["games"] + point.get("no_result", 0)


class FinishedMatch(EncodedOnce):
    """A match all of whose games are in (its record changes no more), as the state saves it."""

    def __init__(self, point: dict[str, Any]) -> None:
        self.point = point

    def to_json(self) -> dict[str, Any]:
        return self.point


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
        from ringmaster.tuning.blas_threads import import_numpy_with_one_blas_thread

        import_numpy_with_one_blas_thread()   # before any engine starts: the environment is changed
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
        self._slices_cache: tuple[int, list[dict[str, Any]]] | None = None

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
        self._slices_cache = None
        self._forget_saved_points()
        self.clean_confirmation()

    def _forget_saved_points(self) -> None:
        self._finished: list[FinishedMatch] = []
        self._finished_json = EncodedList()

    def _points_status(self) -> tuple[EncodedArray, list[dict[str, Any]]]:
        """The matches for the state: those finished at the start of points, as an array that the
        journal extends (state/journal.py), and the others whole. The state is saved after each
        result: with every match in its journal line, a save was 16.7 KB at 250 matches and 65 KB
        at 1,000 (2 parameters)."""
        finished, points = self._finished, self.points
        if len(finished) > len(points) or (finished and finished[-1].point is not points[len(finished) - 1]):
            self._forget_saved_points()   # points replaced (a test's, a state's): encode them afresh
            finished = self._finished
        while len(finished) < len(points) and match_games(points[len(finished)]) >= self.games_per_point:
            finished.append(FinishedMatch(points[len(finished)]))
        return self._finished_json.encode(finished), points[len(finished):]

    def get_status(self) -> dict[str, Any]:
        finished, unfinished = self._points_status()
        return {
            "games_per_point": self.games_per_point,
            "start_matches": self.start_matches,
            "codes": [spec.code for spec in self.parameter_specs],
            "points": finished,
            "open_points": unfinished,
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
            # a state saved before open_points (2026-11-29) has every match in points
            self.points = [self._point_from_json(p)
                           for p in [*status["points"], *status.get("open_points", [])]]
            self._forget_saved_points()
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
        self._slices_cache = None

    def _point_from_json(self, point: Any) -> dict[str, Any]:
        """A match from a state file: its point, and the other point where it was head to head."""
        dims = len(self.parameter_specs)
        found = {"x": [float(v) for v in point["x"]], "wins": float(point["wins"]),
                 "games": int(point["games"])}
        if "no_result" in point:   # a state from before they were left out has none: they counted
            found["no_result"] = int(point["no_result"])   # half a win, as its games and wins keep
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
        """The tuning games played: with a result (a match's 'games') or without ('no_result')."""
        return sum(match_games(p) for p in self.points)

    def no_result_games(self) -> int:
        """The tuning games played with no result: in no match's record."""
        return sum(p.get("no_result", 0) for p in self.points)

    def _observed(self) -> list[dict[str, Any]]:
        return [p for p in self.points if p["games"] > 0]

    def _played(self) -> Any:
        """The points of the matches with results, a row each (numpy)."""
        return observed_matches(self.points).x

    def model(self, search: bool = False) -> Any:
        """The GP on the matches so far (None before any result), its hyperparameters refitted every
        refit_every matches with results (less often past GEOMETRIC_REFITS_FROM: refit_due). Only the
        search (search=True) keeps a refit, in the state, so that a report changes no game however
        often it asks (the screen redraws on the clock: a report's refit kept would move the search's
        schedule of refits), and a resumed run gives the same model."""

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
        x, wins, games, other = observed_matches(self.points)
        start = None if self.hyper is None else Hyperparameters.from_lists(self.hyper, self.rotation)
        due = start is None or refit_due(len(observed), self.fitted_at, self.refit_every) \
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

    def recommendation(self) -> tuple[list[float], float, float] | None:
        """(point, mean, sd): the point where the answer's model (bayes_model.answer_model) has its
        highest mean less answer_caution sds, with the fitted model's mean logit win rate there and
        its sd (in a trust region, the local model's highest mean: trust_region_best); None before
        any result.

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
            point = best_mean(answer_model(gp, self.answer_smoothing), self._played(), rng,
                              self.answer_caution)
            mean, sd = gp.predict(point)
        else:
            point, local, low, side = trust_region_best(self.region, observed_matches(self.points), rng,
                                                        self.refit_every)
            mean, sd = local.predict((point - low) / side)
        found = ([float(v) for v in point], float(mean[0]), float(sd[0]))
        self._recommendation_cache = (self.results(), found)
        return found

    def recommended_parameters(self) -> list[float]:
        """The point the model thinks best (the start before any result)."""
        found = self.recommendation()
        return list(self.start) if found is None else found[0]

    def optimum_location(self) -> list[tuple[float, ...]] | None:
        """Where the optimum lies by the model (bayes_reports.optimum_location), around the
        recommendation; None before any result; seeded by the number of results."""
        found = self.recommendation()
        if found is None:
            return None
        if self._argmax_cache is not None and self._argmax_cache[0] == self.results():
            return self._argmax_cache[1]
        location = optimum_location(self.model(), found[0], self.results())
        self._argmax_cache = (self.results(), location)
        return location

    # The choice of matches (bayes_matches, bayes_trust_region)

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

    def _with_matches_in_flight(self, gp: Any) -> Any:
        """gp with the matches still being played counted as if they went as predicted
        (bayes_model.with_pending), so that parallel games spread."""
        pending = [p for p in self.points if match_games(p) == 0]
        return with_pending(gp, pending, self.games_per_point) if pending else gp

    def _next_match(self) -> dict[str, Any]:
        """A new match: {"x": point} against the opponent, or with "y" the other point of a
        head-to-head match (x's wins counted)."""
        if len(self.points) < self.design_matches:
            return {"x": self._design_point(len(self.points))}
        if self.head_to_head:
            return self._next_pair()
        return {"x": self._next_point()}

    def _next_pair(self) -> dict[str, Any]:
        """A match after the design with head_to_head: bayes_matches.next_pair's, matches still being
        played counted as if they went as predicted."""
        import numpy as np

        rng = np.random.default_rng(self.rng.getrandbits(64))
        gp = self._with_matches_in_flight(self.model(search=True))
        return next_pair(gp, self._played(), rng, len(self.points) - self.design_matches,
                         self.games_per_point)

    def _next_point(self) -> list[float]:
        """A new point after the design against the opponent: the acquisition's maximum
        (bayes_matches.next_point), or in a trust region the knowledge gradient's inside the box."""
        import numpy as np

        gp = self.model(search=True)
        rng = np.random.default_rng(self.rng.getrandbits(64))
        if self.trust_region:
            return self._trust_region_point(gp, rng)
        return next_point(self._with_matches_in_flight(gp), self._played(), rng, self.acquisition,
                          self.ucb_kappa, self.games_per_point)

    def _trust_region_point(self, gp: Any, rng: Any) -> list[float]:
        """bayes_trust_region.trust_region_point's choice, the box started around the best played
        point where there is none yet."""
        import numpy as np

        observed = observed_matches(self.points)
        if self.region is None:
            self.region = first_region(gp, observed.x)
        self._recommendation_cache = self._argmax_cache = None   # the answer is the box's: it moves
        pending = np.array([p["x"] for p in self.points if match_games(p) == 0])
        return trust_region_point(self.region, observed, pending, rng, self.refit_every,
                                  self.games_per_point)


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
            if index >= self.design_matches and self.model() is None:
                # Every design game is in flight (-j above the design's games) and none has a
                # result: the model that chooses the next match has nothing yet. Wait for one.
                self.scheduler.retry(number)
                return NO_GAME
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
        result = response.game_result
        score: float | None
        if "y" in point:
            description += f"against ({self.format_optimiser_parameters(point['y'])}) "
            score = None if result.is_unknown else {f"p{index}+": 1.0, f"p{index}-": 0.0}.get(
                result.winning_player, 0.5)   # a jigo: half
        else:
            score = self.candidate_score(response)
        if score is None:   # played (not replayed), but in no match's record: the model never sees it
            point["no_result"] = point.get("no_result", 0) + 1
        else:
            point["wins"] += score
            point["games"] += 1
        description += {None: "had no result", 1.0: "won", 0.0: "lost"}.get(score, "drew")
        self.log_history(description)
        return f"{description} {response.game_result.sgf_result}"


    # The verdict and the reports (bayes_reports)

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
        rate, low, high = rate_interval(found[1], found[2])
        codes = [spec.code for spec in self.parameter_specs]
        settle = ("more confirmation games (confirm_games), or more games (number_of_games)"
                  if self.confirm_games > 0 else "confirmation games against the start (confirm_games)")
        return self.confirmation_verdict(
            self.format_optimiser_parameters(found[0]), self.tuning_over(), settle,
            f"the model's win rate there against the opponent is {rate:.3f}, 95% interval {low:.3f} "
            f"to {high:.3f} (the model's, flattered by the games that chose the point)",
            continuous_edge_warnings(codes, found[0]))

    def slices(self) -> list[dict[str, Any]]:
        """The model along each parameter through the recommended point: values, win rate, 95% band.
        Computed once per number of results, as the recommendation is: the screen redraws on the clock."""
        found = self.recommendation()
        if found is None:
            return []
        if self._slices_cache is None or self._slices_cache[0] != self.results():
            self._slices_cache = (self.results(),
                                  slices(self.model(), found[0], self.parameter_specs, self.convert))
        return copy.deepcopy(self._slices_cache[1])

    def optimum_intervals(self) -> list[dict[str, Any]]:
        """optimum_location() per parameter in engine units (bayes_reports.optimum_intervals); []
        before any result."""
        location = self.optimum_location()
        found = self.recommendation()
        if location is None or found is None:
            return []
        return optimum_intervals(location, found[0], self.parameter_specs, self.convert)

    def _smoothing_in_effect(self) -> float | None:
        """answer_smoothing where it shapes the answer; None in a trust region, whose answer is the
        local model's."""
        return None if self.region is not None else self.answer_smoothing

    def _caution_in_effect(self) -> float | None:
        """answer_caution where it shapes the answer; None in a trust region."""
        return None if self.region is not None else self.answer_caution

    def write_screen_report(self, out: TextIO) -> None:
        played = self.results()
        total = "" if self.number_of_games is None else f"/{self.number_of_games}"
        unscored = self.no_result_games()
        out.write(f"{played}{total} games played, {len(self._observed())} points "
                  f"({self.games_per_point} games each)"
                  + (f"; {unscored} with no result, left out" if unscored else "") + "\n")
        out.write(f"state: {self.stop_reason(played)}\n\n")
        found = self.recommendation()
        if found is None:
            out.write("No recommendation before the first result.\n")
        else:
            point, mean, sd = found
            out.writelines(line + "\n" for line in self.verdict().lines())
            level = level_note(self._observed())
            write_answer(out, self.format_optimiser_parameters(point), mean, sd,
                         answer_note(self._caution_in_effect(), self._smoothing_in_effect()),
                         selection_bias_warning(self.confirm_games, optimism(level)), level)
            write_optimum(out, self.optimum_intervals())
            write_slices(out, self.slices(), self.parameter_specs)
        if self.confirm_games > 0:
            out.write("\n")
            self.write_confirmation_report(out)

    def write_short_report(self, out: TextIO) -> None:
        self.write_static_description(out)
        self.write_screen_report(out)
        self.write_opponent_line(out)
        out.write("\n")

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        found = self.recommendation()
        recommended = None
        if found is not None:
            recommended = recommended_json(found, self.format_optimiser_parameters(found[0]),
                                           self._smoothing_in_effect(), self._caution_in_effect(),
                                           level_note(self._observed()), self.optimum_intervals())
        played = self.results()
        gp = self.model()   # the model that gave the answer, refitted if due
        hyper, rotation = (None, None) if gp is None else gp.hyper.to_lists()
        report.update({
            "games_played": played,
            "no_result_games": self.no_result_games(),
            "number_of_games": self.number_of_games,
            "stop_reason": self.stop_reason(played),
            "games_per_point": self.games_per_point,
            "points": [point_json(p, self.format_optimiser_parameters) for p in self.points],
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
