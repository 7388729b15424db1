"""What spsa_tuner and bayes_tuner share: Parameters on mc_tuner's scales, void games, confirmation."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.competitions.tuner import Tuner
from ringmaster.errors import ControlFileError
from ringmaster.game.job import GameJob
from ringmaster.tuning.parameters import (
    CONTINUOUS_PARAMETER_SETTINGS,
    ContinuousParameter,
    continuous_parameter_spec,
    load_parameters,
)
from ringmaster.tuning.scales import SCALE_GLOBALS

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

    def sample_engine_parameters(self) -> tuple:
        return self.convert(self.start)

    def start_parameters(self) -> list[float]:
        return list(self.start)

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
