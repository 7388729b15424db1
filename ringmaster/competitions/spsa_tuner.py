"""spsa_tuner: fishtest's SPSA over game pairs, each pair carrying its perturbation (late results count)."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TextIO

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.confirmation import default_confirm_games
from ringmaster.competitions.continuous_tuner import ContinuousTuner
from ringmaster.competitions.scheduling import SimpleScheduler
from ringmaster.competitions.state_changes import RESET_REMEDY, parameters_changed
from ringmaster.competitions.tuner_values import short_value
from ringmaster.competitions.verdict import Verdict, continuous_edge_warnings
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.settings import (
    Setting,
    interpret_bool,
    interpret_float,
    interpret_optional,
    interpret_positive_int,
    load_settings,
)
from ringmaster.stats.win_rates import ELO_METHOD
from ringmaster.tuning.parameters import apply_scale
from ringmaster.tuning.scales import stochastic_value
from ringmaster.tuning.spsa import (
    A_RATIO,
    ALPHA,
    GAMMA,
    Schedule,
    default_c_end,
    default_r_end,
    perturbed,
    updated,
)

OLD_DEFAULT_C_END = 0.05   # every parameter's default c_end before it depended on their number
# The answer is the mean of theta over this last fraction of the tuning games (suffix averaging):
# on CLOP's problems it lowered the mean regret or left it level within the intervals at every
# run length, by up to 78% (reports/continuous_tuners.md).
AVERAGE_LAST = 0.5


def _interpret_unit_interval(value: Any) -> float:
    value = interpret_float(value)
    if not 0.0 < value <= 1.0:
        raise ValueError("must be more than 0.0 and at most 1.0")
    return value


def _interpret_fraction(value: Any) -> float:
    value = interpret_float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError("must be from 0.0 to 1.0")
    return value


MAX_A_RATIO = 100.0
"""A (the schedule's stability constant) is a_ratio times the iterations: fishtest uses 0.1."""


def _interpret_a_ratio(value: Any) -> float:
    value = interpret_float(value)
    if not 0.0 <= value <= MAX_A_RATIO:
        raise ValueError(f"must be from 0 to {MAX_A_RATIO:g}")
    return value


SPSA_SETTINGS = [
    Setting("number_of_games", interpret_optional(interpret_positive_int), default=None),
    Setting("head_to_head", interpret_bool, default=True),
    Setting("a_ratio", _interpret_a_ratio, default=A_RATIO),
    Setting("alpha", _interpret_unit_interval, default=ALPHA),
    Setting("gamma", _interpret_unit_interval, default=GAMMA),
    Setting("average_last", _interpret_fraction, default=AVERAGE_LAST),
]

INCONSISTENT = "status file is inconsistent with control file"
TRAJECTORY_POINTS = 100
REPORT_ROWS = 10


def game_id(number: int) -> str:
    """Game number 2p is '<p>a', 2p + 1 is '<p>b': the two games of pair p."""
    return f"{number // 2}{'ab'[number % 2]}"


class SpsaTuner(ContinuousTuner):
    """SPSA over game pairs. Pair p (iteration p + 1) is games '<p>a' and '<p>b'.

    With head_to_head (the default, as fishtest) the two perturbed candidates,
    codes '#<p>+' and '#<p>-', play each other twice with colours swapped; otherwise
    each plays the opponent once, with the same colour. Confirmation games
    (confirm_games) have ids 'c0', 'c1', ... and the candidate code 'best'.
    """

    competition_type = "spsa_tuner"
    event_name = "SPSA"
    status_format_version = 1
    confirms_against_start = True

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {s.name for s in SPSA_SETTINGS}

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        self.load_continuous_settings(config)
        settings = load_settings(SPSA_SETTINGS, config)
        number = settings["number_of_games"]
        if number is None:
            raise ControlFileError("'number_of_games': required by spsa_tuner (its gains are planned "
                                   "for the run's length)", setting="number_of_games")
        if number < 2:
            raise ControlFileError("'number_of_games': must be at least 2 (one game pair)",
                                   setting="number_of_games")
        self.number_of_games = number - number % 2
        self.head_to_head: bool = settings["head_to_head"]
        iterations = self.number_of_games // 2
        self.average_last: float = settings["average_last"]
        # theta after each result beyond this many enters the answer's average
        self.average_after = round(self.number_of_games * (1.0 - self.average_last))
        self.schedule = Schedule(
            iterations=iterations,
            c_end=tuple(spec.c_end or default_c_end(len(self.parameter_specs))
                        for spec in self.parameter_specs),
            r_end=tuple(spec.r_end or default_r_end(iterations) for spec in self.parameter_specs),
            a_ratio=settings["a_ratio"], alpha=settings["alpha"], gamma=settings["gamma"])
        self.trajectory_period = max(1, self.number_of_games // TRAJECTORY_POINTS)
        self.check_make_candidate(self.sample_engine_parameters())
        if not self.confirm_games_given:   # SPSA has no measure of its own: test the answer by default
            self.confirm_games = default_confirm_games(self.number_of_games)

    # State

    def set_clean_status(self) -> None:
        self.theta: list[float] = list(self.start)
        self.scheduler = SimpleScheduler()
        self.pairs: dict[int, dict[str, Any]] = {}
        self.results = 0
        self.no_result_games = 0   # of those results: left out, moving nothing
        self.plus_score = 0.0
        self.trajectory: list[list[float]] = [[0, *self.theta]]
        # Sum of theta after each result beyond average_after, and how many; None: a run started
        # before the answer was an average, which keeps its final theta.
        self.theta_sum: list[float] | None = [0.0] * len(self.theta)
        self.averaged = 0
        self.opponent_description: str | None = None
        self.clean_confirmation()

    def get_status(self) -> dict[str, Any]:
        return {
            "iterations": self.schedule.iterations,
            "c_end": list(self.schedule.c_end),
            "codes": [spec.code for spec in self.parameter_specs],
            "theta": self.theta,
            "scheduler": self.scheduler.to_json(),
            "pairs": {str(p): record for p, record in self.pairs.items()},
            "results": self.results,
            # left out while there is none: as an older state
            **({"no_result_games": self.no_result_games} if self.no_result_games else {}),
            "plus_score": self.plus_score,
            "trajectory": self.trajectory,
            "theta_sum": self.theta_sum,
            "averaged": self.averaged,
            "opponent_description": self.opponent_description,
            "confirmation": self.confirmation_to_json(),
            **self.opponent_status(),
            **self.scales_status(),
        }

    def set_status(self, status: dict[str, Any]) -> None:
        self.check_opponent_status(status)
        try:
            if status["iterations"] != self.schedule.iterations:
                raise CompetitionError(
                    f"'number_of_games' makes {self.schedule.iterations} pairs in the control file but "
                    f"made {status['iterations']} for the games so far (the gains are planned for the "
                    f"run's length); put it back, or {RESET_REMEDY}")
            codes = [spec.code for spec in self.parameter_specs]
            if status["codes"] != codes:
                raise parameters_changed(codes, status["codes"])
            self.check_scales_status(status)
            if "c_end" not in status:   # a run started when the default c_end was always 0.05
                self.schedule = dataclasses.replace(self.schedule, c_end=tuple(
                    spec.c_end or OLD_DEFAULT_C_END for spec in self.parameter_specs))
            self.theta = [float(t) for t in status["theta"]]
            self.scheduler = SimpleScheduler.from_json(status["scheduler"])
            self.pairs = {int(p): record for p, record in status["pairs"].items()}
            self.results = int(status["results"])
            # A state from before games with no result were left out scored each as a loss
            # against the opponent (0 head to head), and keeps what they moved.
            self.no_result_games = int(status.get("no_result_games", 0))
            self.plus_score = float(status["plus_score"])
            self.trajectory = status["trajectory"]
            theta_sum = status.get("theta_sum")   # absent: a run whose answer is its final theta
            self.theta_sum = None if theta_sum is None else [float(t) for t in theta_sum]
            self.averaged = int(status.get("averaged", 0))
            if self.theta_sum is not None and len(self.theta_sum) != len(self.theta):
                raise ValueError("theta_sum")
            self.opponent_description = status["opponent_description"]
            self.clean_confirmation()
            self.confirmation_from_json(status["confirmation"])
        except (KeyError, ValueError, TypeError, AttributeError):
            raise CompetitionError(INCONSISTENT) from None

    # Games

    def tuning_over(self) -> bool:
        return len(self.scheduler.fixed) >= self.number_of_games

    def is_complete(self) -> bool:
        return self.tuning_over() and self.confirmation_complete()

    def games_played(self) -> int:
        return self.results + self.confirm_played

    def recommended_parameters(self) -> list[float]:
        """SPSA's answer (optimiser units): the mean of theta over the last average_last of the
        tuning games once any have been averaged, else the current theta."""
        if not self.theta_sum or not self.averaged:
            return list(self.theta)
        return [t / self.averaged for t in self.theta_sum]

    def answer_description(self) -> str:
        """How recommended_parameters was formed, for the reports."""
        if self.averaged:
            games = "games with a result" if self.no_result_games else "games"
            return (f"the mean of its points after each of the last {self.averaged} {games} "
                    f"(average_last {self.average_last:g})")
        if self.theta_sum is None:
            return "its current point (this run started before SPSA's answer was an average)"
        if self.average_after >= self.number_of_games:
            return "its current point (average_last is 0)"
        return (f"its current point, until the last {self.number_of_games - self.average_after} "
                f"games, whose points are averaged")

    def _new_pair(self, pair: int) -> dict[str, Any]:
        k = pair + 1
        c = self.schedule.c_k(k)
        flip = [self.rng.choice((-1, 1)) for _ in self.theta]
        plus_u = perturbed(self.theta, c, flip, +1)
        minus_u = perturbed(self.theta, c, flip, -1)
        record = {
            "k": k, "flip": flip, "c": c, "r": self.schedule.r_k(k),
            "plus_u": plus_u, "minus_u": minus_u,
            "plus": self._engine_values(plus_u), "minus": self._engine_values(minus_u),
            "colour": self.choose_candidate_colour(), "done": [False, False],
        }
        self.pairs[pair] = record
        return record

    def _engine_values(self, point: list[float]) -> list[Any]:
        """Engine parameters at a point, integer scales rounded at random (stochastic rounding)."""
        return [apply_scale(spec, functools.partial(stochastic_value, spec.convert, u=self.rng.random()), f)
                for spec, f in zip(self.parameter_specs, point)]

    def get_game(self) -> GameJob | NoGameAvailable:
        if self.tuning_over():
            return self.next_confirmation_game(self.recommended_parameters())
        number = self.scheduler.issue(limit=self.number_of_games)
        if number is None:
            return NO_GAME
        pair, slot = divmod(number, 2)
        record = self.pairs.get(pair) or self._new_pair(pair)
        plus = self.make_candidate(f"#{pair}+", tuple(record["plus"]))
        minus = self.make_candidate(f"#{pair}-", tuple(record["minus"]))
        note = (f"SPSA iteration {record['k']}: + {self.format_engine_parameters(tuple(record['plus']))}"
                f"; - {self.format_engine_parameters(tuple(record['minus']))}")
        if self.head_to_head:
            black, white = (plus, minus) if slot == 0 else (minus, plus)
        else:
            candidate = plus if slot == 0 else minus
            black, white = ((candidate, self.opponent) if record["colour"] == "b"
                            else (self.opponent, candidate))
        return self.make_game_job(game_id(number), black, white, self.game_settings,
                                  game_data=[number, pair], sgf_note=note)

    def retry_tuning_game(self, game_data: Any) -> None:
        self.scheduler.retry(game_data[0])

    def _score(self, response: GameJobResult, pair: int, slot: int) -> float | None:
        """This game's part of the + candidate's wins - losses (against the opponent: less the - one's),
        a jigo 0 (half a win, half a loss); None for a game with no result, which moves nothing."""
        result = response.game_result
        if result.is_unknown:
            return None
        if self.head_to_head:
            return {f"#{pair}+": 1.0, f"#{pair}-": -1.0}.get(result.winning_player, 0.0)
        won = 2 * self.candidate_score(response) - 1.0
        return won if slot == 0 else -won

    def process_game_result(self, response: GameJobResult) -> str | None:
        self.seen_successful_game = True
        self.note_opponent(response)
        if self.is_confirmation(response.game_data):
            return self.process_confirmation_result(response)
        number, pair = response.game_data
        record = self.pairs.get(pair)
        if number in self.scheduler.fixed or record is None or record["done"][number % 2]:
            return None   # already counted
        self.scheduler.fix(number)
        slot = number % 2
        score = self._score(response, pair, slot)
        record["done"][slot] = True
        if all(record["done"]):
            del self.pairs[pair]
        self.results += 1
        if score is None:   # played (not replayed), but in no figure: theta and its average stay
            self.no_result_games += 1
        else:
            self.theta = updated(self.theta, record["r"], record["c"], record["flip"], score)
            self.plus_score += score
            if self.theta_sum is not None and self.results > self.average_after:
                self.theta_sum = [s + t for s, t in zip(self.theta_sum, self.theta)]
                self.averaged += 1
        if self.results % self.trajectory_period == 0 or self.tuning_over():
            self.trajectory.append([self.results, *self.theta])
        outcome = "had no result; theta stays" if score is None else f"+ scored {score:+g}; now"
        description = (f"pair {pair} game {'ab'[slot]}: {outcome} "
                       f"{self.format_optimiser_parameters(self.theta)}")
        self.log_history(description)
        return f"{description} {response.game_result.sgf_result}"

    # Reports

    def _trajectory_rows(self) -> list[list[float]]:
        """At most REPORT_ROWS + 1 evenly spaced points of the trajectory, the last included."""
        points = self.trajectory
        if len(points) <= REPORT_ROWS + 1:
            return points
        step = (len(points) - 1) / REPORT_ROWS
        return [points[round(i * step)] for i in range(REPORT_ROWS)] + [points[-1]]

    def _engine_text(self, point: list[float]) -> str:
        return self.format_optimiser_parameters(point)

    def verdict(self) -> Verdict:
        """The answer, recommended once it beat the start in confirmation games; how far theta still
        wandered over the averaged games as the uncertainty; a warning at an end of a range."""
        answer = self.recommended_parameters()
        window = [point for games, *point in self.trajectory if games > self.average_after]
        wander = ""
        if len(window) >= 2:
            ends = [self.convert([min(column) for column in zip(*window)]),
                    self.convert([max(column) for column in zip(*window)])]
            wander = ("over the averaged games theta stayed within " + "; ".join(
                f"{spec.code} {low} to {high}" for spec, low, high
                in zip(self.parameter_specs, *(map(short_value, e) for e in ends)))
                + " (how far it still moved, not a confidence interval)")
        settle = ("more confirmation games (confirm_games), or a longer run (number_of_games)"
                  if self.confirm_games > 0 else "confirmation games against the start (confirm_games)")
        return self.confirmation_verdict(
            self.format_optimiser_parameters(answer), self.tuning_over(), settle, wander,
            continuous_edge_warnings([spec.code for spec in self.parameter_specs], answer))

    def write_screen_report(self, out: TextIO) -> None:
        s = self.schedule
        mode = ("perturbed candidates play each other, colours swapped" if self.head_to_head
                else "each perturbed candidate plays the opponent")
        unscored = f", {self.no_result_games} with no result, left out" if self.no_result_games else ""
        out.write(f"{self.results}/{self.number_of_games} games played ({mode}{unscored})\n")
        out.write(f"state: {self.stop_reason(self.results)}\n")
        out.write(f"A = {s.big_a:g}, alpha = {s.alpha:g}, gamma = {s.gamma:g}; "
                  f"c_end, r_end (optimiser units): "
                  + ", ".join(f"{spec.code} {c:.4g}, {r:.4g}" for spec, c, r
                              in zip(self.parameter_specs, s.c_end, s.r_end))
                  + "\n\n")
        out.writelines(line + "\n" for line in self.verdict().lines())
        out.write("\n")
        out.write(f"Answer: {self._engine_text(self.recommended_parameters())}\n")
        out.write(f"  (SPSA's answer is {self.answer_description()}; confirm_games measures it "
                  f"against the {self.confirm_against})\n")
        out.write(f"Parameters now: {self._engine_text(self.theta)}\n\n")
        out.write("Trajectory (games: parameters)\n")
        for games, *point in self._trajectory_rows():
            out.write(f"  {int(games):7d}: {self._engine_text(point)}\n")
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
        answer = self.recommended_parameters()
        answer_engine = self.convert(answer)
        report.update({
            "games_played": self.results,
            "no_result_games": self.no_result_games,
            "number_of_games": self.number_of_games,
            "stop_reason": self.stop_reason(self.results),
            "head_to_head": self.head_to_head,
            "schedule": {"A": self.schedule.big_a, "alpha": self.schedule.alpha,
                         "gamma": self.schedule.gamma, "iterations": self.schedule.iterations},
            "parameter_codes": [spec.code for spec in self.parameter_specs],
            "recommended": {"optimiser_parameters": answer,
                            "engine_parameters": list(answer_engine),
                            "parameters": self.format_engine_parameters(answer_engine),
                            "how": self.answer_description()},
            "current": {"optimiser_parameters": list(self.theta),
                        "parameters": self._engine_text(self.theta)},
            "trajectory": [{"games": int(games), "optimiser_parameters": point,
                            "engine_parameters": list(self.convert(point))}
                           for games, *point in self.trajectory],
            "confirmation": self.confirmation_json(),
            "verdict": self.verdict().to_json(),
            "opponent": self.opponent.code,
            "opponent_description": self.opponent_description,
            "elo_method": ELO_METHOD,
        })
        return report

