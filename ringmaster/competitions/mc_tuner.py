"""mc_tuner: a Monte Carlo (UCB, or UCT with max_depth > 1) bandit over a grid of candidate parameters."""

from __future__ import annotations

from typing import Any, TextIO

from ringmaster.competitions.base import NO_GAME, NoGameAvailable
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game_jobs import GameJob, GameJobResult
from ringmaster.scheduling import SimpleScheduler
from ringmaster.settings import (
    Setting,
    interpret_float,
    interpret_int,
    interpret_nonnegative_int,
    interpret_optional,
    interpret_positive_int,
    interpret_sequence_of,
    load_settings,
)
from ringmaster.stats import format_elo, wilson_interval
from ringmaster.tuning.confidence import probability_best
from ringmaster.tuning.parameters import (
    MC_PARAMETER_SETTINGS,
    McParameter,
    load_parameters,
    mc_parameter_spec,
)
from ringmaster.tuning.scales import SCALE_GLOBALS
from ringmaster.tuning.tree import Node, Path, Tree, in_flight_rule
from ringmaster.tuning.tuner_base import Tuner, describe_record, selection_bias_warning


def _interpret_probability(value: Any) -> float:
    value = interpret_float(value)
    if not 0.0 < value < 1.0:
        raise ValueError("must be between 0.0 and 1.0 (exclusive)")
    return value


def _interpret_in_flight(value: Any) -> bool | str:
    if isinstance(value, bool):
        return value
    in_flight_rule(value)
    return value


MC_SETTINGS = [
    Setting("number_of_games", interpret_optional(interpret_nonnegative_int), default=None),
    Setting("exploration_coefficient", interpret_float),
    Setting("initial_visits", interpret_positive_int),
    Setting("initial_wins", interpret_positive_int),
    Setting("max_depth", interpret_positive_int, default=1),
    Setting("summary_spec", interpret_sequence_of(interpret_int), default=[30]),
    Setting("log_tree_to_history_period", interpret_optional(interpret_positive_int),
            default=None),
    Setting("number_of_running_simulations_to_show", interpret_positive_int, default=12),
    # Beyond Gomill
    Setting("count_games_in_flight", _interpret_in_flight, default=True),
    Setting("stop_when_confident", interpret_optional(_interpret_probability), default=None),
]

INCONSISTENT = "status file is inconsistent with control file"


class McTuner(Tuner):
    """The Monte Carlo tuner. Game ids are '0', '1', ...; candidate codes '#0', '#1', ...

    Confirmation games (confirm_games) have ids 'c0', 'c1', ... and the candidate code 'best'.
    """

    competition_type = "mc_tuner"
    status_format_version = 1
    parameter_class = McParameter

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        return {**super().control_file_globals(), **SCALE_GLOBALS}

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {s.name for s in MC_SETTINGS}

    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        self.load_tuner_settings(config, require_fractional_komi=True)
        self.parameter_specs = load_parameters(
            config.get("parameters"), McParameter, MC_PARAMETER_SETTINGS, mc_parameter_spec)
        settings = load_settings(MC_SETTINGS, config)
        if settings["initial_wins"] > settings["initial_visits"]:
            raise ControlFileError("'initial_wins': must not be more than initial_visits",
                                   setting="initial_wins")
        self.number_of_games = settings["number_of_games"]
        self.summary_spec = settings["summary_spec"]
        self.log_tree_to_history_period = settings["log_tree_to_history_period"]
        self.number_of_running_simulations_to_show = \
            settings["number_of_running_simulations_to_show"]
        self.stop_when_confident = settings["stop_when_confident"]
        self.tree = Tree(splits=[spec.split for spec in self.parameter_specs],  # type: ignore[misc]
                         max_depth=settings["max_depth"],
                         exploration_coefficient=settings["exploration_coefficient"],
                         initial_visits=settings["initial_visits"],
                         initial_wins=settings["initial_wins"],
                         count_in_flight=settings["count_games_in_flight"])
        self.check_make_candidate(self.sample_engine_parameters())
        self.outstanding: dict[int, Path] = {}
        self.halt_on_next_failure = True
        self.confident = False

    def sample_engine_parameters(self) -> tuple:
        return self.convert(self.tree.parameters_for_path((0,)))

    # State

    def set_clean_status(self) -> None:
        self.scheduler = SimpleScheduler()
        self.tree.root = self.tree.new_node()
        self.tree.expand(self.tree.root)
        self.opponent_description: str | None = None
        self.outstanding = {}
        self.confident = False
        self.clean_confirmation()

    def _check_values(self) -> list[list[str]]:
        last = self.tree.branching_factor - 1
        return [[repr(v) for v in self.convert(self.tree.parameters_for_path((i,)))]
                for i in (0, last)]

    def get_status(self) -> dict[str, Any]:
        return {
            "scheduler": self.scheduler.to_json(),
            "tree": self.tree.root.to_json(),
            "opponent_description": self.opponent_description,
            "splits": self.tree.splits,
            "check_values": self._check_values(),
            "confirmation": self.confirmation_to_json(),
        }

    def set_status(self, status: dict[str, Any]) -> None:
        try:
            if status["splits"] != self.tree.splits:
                raise ValueError("splits changed")
            self.tree.set_root(Node.from_json(status["tree"]))
            if status["check_values"] != self._check_values():
                raise ValueError("scaled parameters changed")
            self.scheduler = SimpleScheduler.from_json(status["scheduler"])
            self.opponent_description = status["opponent_description"]
            self.clean_confirmation()
            self.confirmation_from_json(status["confirmation"])
        except (KeyError, ValueError, TypeError):
            raise CompetitionError(INCONSISTENT) from None
        self.scheduler.rollback()
        self.tree.clear_in_flight()
        self.outstanding = {}
        self.confident = self._is_confident()

    # Choosing games

    def tuning_games_due(self) -> bool:
        """True if the tuning phase still wants games started."""
        if self.confirm_parameters is not None or self.confident:
            return False
        if self.number_of_games is None:
            return True
        return self.tree.root.games + len(self.outstanding) < self.number_of_games

    def tuning_over(self) -> bool:
        return not self.tuning_games_due() and not self.outstanding

    def is_complete(self) -> bool:
        return self.tuning_over() and self.confirmation_complete()

    def get_game(self) -> GameJob | NoGameAvailable:
        if self.tuning_games_due():
            return self._get_tuning_game()
        if self.outstanding or self.confirm_games <= 0:
            return NO_GAME
        if self.confirm_parameters is None:
            best = self.tree.best_path()
            self.start_confirmation(self.tree.parameters_for_path(best), self.describe_path(best))
        job = self.get_confirmation_game()
        return NO_GAME if job is None else job

    def _get_tuning_game(self) -> GameJob:
        number = self.scheduler.issue()
        path = self.tree.select(self.rng)
        self.tree.start_game(path)
        self.outstanding[number] = path
        engine_parameters = self.convert(self.tree.parameters_for_path(path))
        try:
            candidate = self.make_candidate(f"#{number}", engine_parameters)
        except CompetitionError:
            self._abandon(number)
            raise
        return self.make_tuning_job(str(number), [number, list(path)], candidate,
                                    engine_parameters)

    def _abandon(self, number: int) -> None:
        path = self.outstanding.pop(number, None)
        if path is not None:
            self.tree.abandon_game(path)
        self.scheduler.forget(number)

    # Results

    def process_game_result(self, response: GameJobResult) -> str | None:
        self.halt_on_next_failure = False
        self.note_opponent(response)
        if self.is_confirmation(response.game_data):
            return self.process_confirmation_result(response)
        number, path_list = response.game_data
        path = tuple(path_list)
        self.outstanding.pop(number, None)
        self.scheduler.fix(number)
        won = self.candidate_won(response)
        self.tree.record_result(path, won)
        description = f"{self.describe_path(path)} {'won' if won else 'lost'}"
        self.log_history(description)
        period = self.log_tree_to_history_period
        if period is not None and self.tree.root.games % period == 0:
            self.log_history(self.describe_tree())
        if self.stop_when_confident is not None and not self.confident:
            self.confident = self._is_confident()
            if self.confident:
                self.log_history(f"stopping: best candidate is better than every other with "
                                 f"probability {self.best_probability():.3f}")
        return f"{description} {response.game_result.sgf_result}"

    def process_game_error(self, job: GameJob, previous_error_count: int) -> tuple[bool, bool]:
        """Tuning games: halt if the run's first result or two in a row are void, else drop it.

        Confirmation games: replayed once (issued again by this tuner, so retry is
        always False); halt on a second failure or before any success in this run.
        """
        if self.is_confirmation(job.game_data):
            return self.process_confirmation_error(job, self.halt_on_next_failure)
        self._abandon(job.game_data[0])
        stop = self.halt_on_next_failure
        self.halt_on_next_failure = True
        return stop, False

    # Statistics

    def best_probability(self) -> float:
        """P(the best candidate is better than each of its siblings), multiplied down the best path."""
        probability = 1.0
        node = self.tree.root
        for index in self.tree.best_path():
            assert node.children is not None
            records = [(child.won, child.games) for child in node.children]
            probability *= probability_best(records, index)
            node = node.children[index]
        return probability

    def _is_confident(self) -> bool:
        return (self.stop_when_confident is not None
                and self.best_probability() >= self.stop_when_confident)

    # Descriptions

    def describe_path(self, path: Path) -> str:
        """'lv: 1; sd: 25 [(1,0)]'."""
        parameters = self.format_optimiser_parameters(self.tree.parameters_for_path(path))
        return f"{parameters} [{self.tree.describe_path(path)}]"

    def _node_line(self, path: Path, node: Node, summary: bool) -> str:
        parameters = self.format_optimiser_parameters(self.tree.parameters_for_path(path))
        if summary:
            line = (f"{self.tree.describe_path(path)} {parameters:<40} "
                    f"{node.value:.3f} {node.games:3d}")
            if node.games:
                low, high = wilson_interval(node.won, node.games)
                line += f"  [{low:.3f}, {high:.3f}]"
            return line
        return (f"{self.tree.describe_path(path[-1:])} {parameters} "
                f"{node.value:.3f} {node.games:3d}")

    def describe_tree(self) -> str:
        """The history file's tree dump: the first generation, and the second under expanded nodes."""
        root = self.tree.root
        rate = f"{root.won / root.games:.3f}" if root.games else "--"
        lines = [f"{root.count_nodes()} nodes", f"Win rate {root.won}/{root.games} = {rate}"]
        for i, node in enumerate(root.children or ()):
            lines.append("  " + self._node_line((i,), node, summary=False))
            for j, child in enumerate(node.children or ()):
                lines.append("    " + self._node_line((i, j), child, summary=False))
        return "\n".join(lines)

    def write_summary(self, out: TextIO) -> None:
        for depth, count in enumerate(self.summary_spec, start=1):
            out.write(f"most visited at depth {depth}\n")
            generation = self.tree.generations(depth)
            shown = sorted(generation, key=lambda item: (-item[1].visits, item[0]))[:max(count, 0)]
            out.writelines(self._node_line(path, node, summary=True) + "\n"
                           for path, node in sorted(shown, key=lambda item: item[0]))
            out.write("\n")

    def _write_main_report(self, out: TextIO) -> None:
        played = self.tree.root.games
        if self.number_of_games is None:
            out.write(f"{played} games played\n")
        else:
            out.write(f"{played}/{self.number_of_games} games played\n")
        if self.confident:
            out.write(f"stopped early: the best candidate is better than every other with "
                      f"probability >= {self.stop_when_confident}\n")
        out.write("\n")
        best = self.tree.best_path()
        node = self.tree.node_for_path(best)
        out.write(f"Best parameters: {self.describe_path(best)}\n")
        if node.games:
            out.write(f"  record {describe_record(node.won, node.games)}  "
                      f"Elo vs opponent {format_elo(node.won, node.games)}\n")
            out.write(f"  probability it is better than every other candidate: "
                      f"{self.best_probability():.3f}\n")
            out.write(f"  {selection_bias_warning(self.confirm_games)}\n")
        out.write("\n")
        self.write_summary(out)
        if self.confirm_games > 0:
            self.write_confirmation_report(out)
            out.write("\n")

    def write_static_description(self, out: TextIO) -> None:
        out.write(f"MCTS tuning event: {self.competition_code}\n")
        if self.description:
            out.write(self.description + "\n")
        out.write(f"board size: {self.game_settings['board_size']}\n")
        out.write(f"komi: {self.game_settings['komi']}\n")

    def write_screen_report(self, out: TextIO) -> None:
        self._write_main_report(out)
        if self.outstanding:
            out.write("In progress:\n")
            shown = sorted(self.outstanding.items())[:self.number_of_running_simulations_to_show]
            out.writelines(f"game {number}: {self.describe_path(path)}\n" for number, path in shown)

    def write_short_report(self, out: TextIO) -> None:
        self.write_static_description(out)
        self._write_main_report(out)
        self.write_opponent_line(out)
        out.write("\n")

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        best = self.tree.best_path()
        node = self.tree.node_for_path(best)

        def candidate(path: Path, n: Node) -> dict[str, Any]:
            low, high = wilson_interval(n.won, n.games)
            return {"path": list(path), "coordinates": self.tree.describe_path(path),
                    "parameters": self.format_optimiser_parameters(
                        self.tree.parameters_for_path(path)),
                    "optimiser_parameters": self.tree.parameters_for_path(path),
                    "games": n.games, "wins": n.won, "value": n.value,
                    "win_rate_95": [low, high] if n.games else None}

        report.update({
            "games_played": self.tree.root.games,
            "number_of_games": self.number_of_games,
            "stopped_confident": self.confident,
            "best": {**candidate(best, node),
                     "probability_best": self.best_probability(),
                     "elo": format_elo(node.won, node.games) if node.games else None},
            "candidates": [candidate(p, n) for d in range(1, len(self.summary_spec) + 1)
                           for p, n in self.tree.generations(d)],
            "confirmation": self.confirmation_json(),
            "opponent": self.opponent.code,
            "opponent_description": self.opponent_description,
        })
        return report
