"""What spsa_tuner and bayes_tuner share: Parameters on mc_tuner's scales (kept in the state), void games,
confirmation."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.state_changes import changed_since_state, shown_apart
from ringmaster.competitions.tuner import Tuner
from ringmaster.competitions.tuner_values import plain_value
from ringmaster.errors import ControlFileError
from ringmaster.game.job import GameJob
from ringmaster.tuning.parameters import (
    CONTINUOUS_PARAMETER_SETTINGS,
    ContinuousParameter,
    ParameterSpec,
    continuous_parameter_spec,
    load_parameters,
)
from ringmaster.tuning.scales import EXPLICIT, SCALE_GLOBALS

# Where the state records each scale's engine values: its ends, and its middle (LINEAR and LOG with the
# same ends differ there). An EXPLICIT scale's whole list is recorded besides.
SCALE_PROBES = (0.0, 0.5, 1.0)


def _probe(spec: ParameterSpec, f: float) -> Any:
    """The scale's engine value at f for the state (plain_value), or the error it raises (a callable
    scale need not work at 0.5, where the search may never go)."""
    try:
        return plain_value(spec.convert(f))
    except Exception as exc:  # noqa: BLE001 (user code may raise anything)
        return f"error: {type(exc).__name__}"


def scale_record(spec: ParameterSpec) -> list[Any]:
    """What the state keeps of a parameter's scale: its engine values at SCALE_PROBES, then an
    EXPLICIT scale's values (a value added to the list moves every division, not the probes)."""
    record = [_probe(spec, f) for f in SCALE_PROBES]
    if isinstance(spec.convert, EXPLICIT):
        record += [plain_value(v) for v in spec.convert.values]
    return record


def describe_scale_record(values: list[str]) -> str:
    """'0 to 2, 1 at the middle' (a scale_record shown), or an EXPLICIT scale's '[1, 2, 3]'."""
    if len(values) > len(SCALE_PROBES):
        return "[" + ", ".join(values[len(SCALE_PROBES):]) + "]"
    low, middle, high = values
    return f"{low} to {high}, {middle} at the middle"


# mc_tuner settings a continuous tuner has no use for: refused with the reason, not ignored.
UNSUPPORTED = {
    "stop_when_confident": "stops when one grid candidate is confidently the best; a continuous "
                           "tuner has no such candidate (use number_of_games, then confirm_games)",
}


# mc_tuner settings accepted without a warning and unused, so that its control files switch over.
MC_TUNER_ONLY = {"exploration_coefficient", "initial_visits", "initial_wins", "max_depth", "summary_spec",
                 "log_tree_to_history_period", "number_of_running_simulations_to_show",
                 "count_games_in_flight"}


class ContinuousTuner(Tuner):
    """Base for tuners over [0, 1]^d mapped to engine parameters by each Parameter's scale."""

    parameter_class = ContinuousParameter

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        return {**super().control_file_globals(), **SCALE_GLOBALS}

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | set(UNSUPPORTED) | MC_TUNER_ONLY

    def load_continuous_settings(self, config: dict[str, Any]) -> None:
        """Tuner settings and parameters; candidate_colour is 'random' by default. Raises ControlFileError."""
        if config.get("candidate_colour") is None:
            config = {**config, "candidate_colour": "random"}
        self.load_tuner_settings(config, require_fractional_komi=True)
        for name, reason in UNSUPPORTED.items():
            if config.get(name) is not None:
                raise ControlFileError(f"'{name}': not supported by {self.competition_type}: {reason}",
                                       setting=name)
        self.parameter_specs = load_parameters(config.get("parameters"), ContinuousParameter,
                                               CONTINUOUS_PARAMETER_SETTINGS, continuous_parameter_spec)
        self.start = [spec.start for spec in self.parameter_specs]
        self.seen_successful_game = False
        for item in config["parameters"]:
            if item.settings.get("split") is not None:
                self.control_file_warnings.append((item.line, (
                    f"parameter {item.settings['code']}: 'split' has no effect on "
                    f"{self.competition_type}, which searches the whole range (it is accepted so that "
                    f"an mc_tuner control file works unchanged)")))

    def sample_engine_parameters(self) -> tuple:
        return self.convert(self.start)

    def start_parameters(self) -> list[float]:
        return list(self.start)

    def scales_status(self) -> dict[str, Any]:
        """The state's record of what maps its points (optimiser units, 0 to 1) to engine values: each
        scale's record (scale_record) and the start (optimiser units)."""
        return {"scales": [scale_record(spec) for spec in self.parameter_specs], "start": list(self.start)}

    def check_scales_status(self, status: dict[str, Any]) -> None:
        """Refuse a resume whose scales changed: every point the state holds would be played at other
        engine values. Where confirmation games play the start (spsa_tuner, bayes_tuner), with some to
        play or played (state_plays_start), a changed start is refused too. A state written before these
        were kept has neither, and is accepted. Call once the parameter codes are known to match."""
        scales = status.get("scales")
        if scales is not None:
            for spec, old in zip(self.parameter_specs, scales, strict=True):
                new = scale_record(spec)
                if list(old) != new:
                    now, before = map(describe_scale_record, shown_apart(new, list(old)))
                    raise changed_since_state(f"parameter {spec.code}: 'scale'", now, before)
        start = status.get("start")
        if start is not None and self.state_plays_start(status.get("confirmation")):
            for spec, old, new in zip(self.parameter_specs, start, self.start, strict=True):
                if float(old) != new:
                    [now], [before] = shown_apart([spec.convert(new)], [spec.convert(float(old))])
                    raise changed_since_state(f"parameter {spec.code}: 'start'", now, before)

    def games_wanted(self) -> int | None:
        number = getattr(self, "number_of_games", None)
        return None if number is None else number + self.confirm_games

    def stop_reason(self, played: int) -> str:
        """Why tuning stopped, given the tuning games played, or 'running'."""
        number = getattr(self, "number_of_games", None)
        if number is not None and played >= number:
            return f"stopped: number_of_games ({number}) played"
        return "running"

    # Void games: replayed once under the same id (issued again by the tuner).

    def process_game_error(self, job: GameJob, previous_error_count: int) -> tuple[bool, bool]:
        """Halt if no game has succeeded in this run; else replay it once, halting on a second failure."""
        if self.is_confirmation(job.game_data):
            return self.process_confirmation_error(job, not self.seen_successful_game)
        stop = not self.seen_successful_game or self.count_error(job.game_id) > 0
        if not stop:
            self.retry_tuning_game(job.game_data)
        return stop, False

    def retry_tuning_game(self, game_data: Any) -> None:
        raise NotImplementedError

    def next_confirmation_game(self, recommended: list[float]) -> GameJob | NoGameAvailable:
        """Once tuning is over: the next confirmation game of the recommended point, or NO_GAME."""
        if self.confirm_games <= 0:
            return NO_GAME
        if self.confirm_parameters is None:
            self.start_confirmation(recommended, self.format_optimiser_parameters(recommended))
        job = self.get_confirmation_game()
        return NO_GAME if job is None else job
