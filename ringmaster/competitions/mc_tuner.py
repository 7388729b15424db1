"""mc_tuner: a Monte Carlo (UCB, or UCT with max_depth > 1) bandit over a grid of candidate parameters."""

from __future__ import annotations

import ast
import hashlib
from typing import Any

from ringmaster.competitions.base import NO_GAME, NoGameAvailable, PlayerCheck
from ringmaster.competitions.mc_tuner_reports import McTunerReports
from ringmaster.competitions.scheduling import SimpleScheduler
from ringmaster.competitions.state_changes import (
    RESET_REMEDY,
    changed_since_state,
    parameters_changed,
    shown_apart,
    tree_shape_changed,
)
from ringmaster.competitions.tuner import Tuner
from ringmaster.competitions.tuner_values import describe_record
from ringmaster.competitions.verdict import Verdict, edge_warning
from ringmaster.errors import CompetitionError, ControlFileError
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.settings import (
    Setting,
    interpret_float,
    interpret_nonnegative_int,
    interpret_optional,
    interpret_positive_int,
    interpret_sequence_of,
    load_settings,
)
from ringmaster.tuning.confidence import probability_best
from ringmaster.tuning.parameters import (
    MC_PARAMETER_SETTINGS,
    McParameter,
    first_level_twins,
    load_parameters,
    mc_parameter_spec,
    twins_refusal,
)
from ringmaster.tuning.scales import EXPLICIT, SCALE_GLOBALS, is_categorical
from ringmaster.tuning.tree import Node, Path, Tree, generations, in_flight_rule, parameters_for_path


def _interpret_confidence_bar(value: Any) -> float:
    """stop_when_confident: more than 0.5, so that only one candidate can meet it. The events 'candidate
    i beats every other' are disjoint, so their probabilities sum to at most 1: a bar above 0.5 is met by
    at most one candidate, one at or below it by two at once (0.1 stopped a run after one game)."""
    value = interpret_float(value)
    if not 0.5 < value < 1.0:
        raise ValueError(f"{value:g}: must be more than 0.5 (a bar at or below 0.5 can be met by two "
                         "candidates at once) and less than 1.0")
    return value


def _interpret_summary_spec(value: Any) -> list[int]:
    """summary_spec: how many candidates to describe at each depth; at least one level, at least one
    candidate at each (0, or [], leaves the table without a row)."""
    counts = interpret_sequence_of(interpret_positive_int)(value)
    if not counts:
        raise ValueError("empty list: give how many candidates to describe at each depth, e.g. [30]")
    return counts


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
    Setting("summary_spec", _interpret_summary_spec, default=[30]),
    Setting("log_tree_to_history_period", interpret_optional(interpret_positive_int),
            default=None),
    Setting("number_of_running_simulations_to_show", interpret_positive_int, default=12),
    # Beyond Gomill
    Setting("count_games_in_flight", _interpret_in_flight, default=True),
    Setting("stop_when_confident", interpret_optional(_interpret_confidence_bar), default=None),
]

INCONSISTENT = "status file is inconsistent with control file"
CONFIDENCE_BAR = 0.95
"""The probability that the leader beats every other candidate that a recommendation needs (unless
stop_when_confident sets another)."""
LEADERS = 3


def _probe_repr(scale: Any, f: float) -> str:
    """repr(scale(f)) for the state's record, or the error the scale raises there."""
    try:
        return repr(scale(f))
    except Exception as exc:  # noqa: BLE001 (user code may raise anything)
        return f"error: {type(exc).__name__}"


def _digest(values: list[str]) -> str:
    """A short digest of a list of values' reprs."""
    return hashlib.sha256("\n".join(values).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _from_repr(text: str) -> Any:
    """The value a state's repr of an engine parameter stands for (a number or a string), or the
    text itself where it is no literal: what a refusal shows (0.0296, not 0.029575152732566275)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


class McTuner(McTunerReports, Tuner):
    """The Monte Carlo tuner. Game ids are '0', '1', ...; candidate codes '#0', '#1', ...

    Confirmation games (confirm_games) have ids 'c0', 'c1', ... and the candidate code 'best'.
    """

    competition_type = "mc_tuner"
    event_name = "MCTS"
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
                         count_in_flight=settings["count_games_in_flight"],
                         scales=[spec.convert for spec in self.parameter_specs])
        # A first-level split whose integer scale makes twins: refused for a new event; an older
        # ringmaster's event with one carries on (twin_warnings).
        self.first_level_twins = {i: twins for i, spec in enumerate(self.parameter_specs)
                                  if (twins := first_level_twins(spec)) is not None}
        self.new_event_refusals = [
            ControlFileError(twins_refusal(self.parameter_specs[i], *twins), self.parameter_specs[i].line,
                             setting="parameters") for i, twins in self.first_level_twins.items()]
        self.check_make_candidate(self.sample_engine_parameters())
        self._reprs: dict[Path, tuple[str, ...]] = {}
        self._record: tuple[int, list[list[str]]] | None = None
        self._best_probability: tuple[tuple, float] | None = None   # (its records, the probability)
        self.outstanding: dict[int, Path] = {}
        self.halt_on_next_failure = True
        self.confident = False

    def get_player_checks(self) -> list[PlayerCheck]:
        """The tuner's checks; refused, as a fresh run is, for what a new event may not have
        (new_event_refusals: none once a state is loaded)."""
        self.refuse_new_event()
        return super().get_player_checks()

    def sample_engine_parameters(self) -> tuple:
        return self.convert(self.tree.parameters_for_path((0,)))

    # State

    def set_clean_status(self) -> None:
        """Start a new event. Raises ControlFileError if its control file is one only an event
        already under way may keep (new_event_refusals)."""
        self.refuse_new_event()
        self.scheduler = SimpleScheduler()
        self.tree.reset()
        self._reprs = {}
        self._record = None
        self.opponent_description: str | None = None
        self.outstanding = {}
        self.confident = False
        self.no_result_games = 0
        self.clean_confirmation()

    def _check_values(self) -> list[list[str]]:
        last = self.tree.branching_factor - 1
        return [[repr(v) for v in self.convert(self.tree.parameters_for_path((i,)))]
                for i in (0, last)]

    def _candidate_reprs(self, path: Path) -> tuple[str, ...]:
        """repr of each engine parameter of the candidate at path (a scale's error where it fails: an
        untried candidate's scale need not work), remembered while the tree keeps its shape."""
        if path not in self._reprs:
            point = self.tree.parameters_for_path(path)
            self._reprs[path] = tuple(_probe_repr(spec.convert, f)
                                      for spec, f in zip(self.parameter_specs, point))
        return self._reprs[path]

    def candidate_values(self) -> list[list[str]]:
        """The state's record of what each candidate the tree holds plays with: for each parameter, a
        digest at each depth of its values at that depth's candidates in order. How the tree splits
        below the first level, and so which values a candidate has, hangs on each scale's values, so
        a changed scale may give recorded games to other candidates with the same ends."""
        if self._record is None or self._record[0] != self.tree.changes:   # else no node has moved
            depths = [[self._candidate_reprs(path) for path, _ in self.tree.generations(depth)]
                      for depth in range(1, self.tree.height() + 1)]
            self._record = (self.tree.changes, self._digests(depths))
        return [list(levels) for levels in self._record[1]]

    def _digests(self, depths: list[list[tuple[str, ...]]]) -> list[list[str]]:
        """For each parameter, a digest at each depth of its values there (depths: the reprs of each
        depth's candidates' values, in order)."""
        return [[_digest([values[i] for values in level]) for level in depths]
                for i in range(len(self.parameter_specs))]

    def _refit_refusal(self, root: Node, status: dict[str, Any]) -> CompetitionError:
        """The refusal of a state whose tree fits no shape the control file's scales give: it names the
        parameters whose changed splitting would make it fit (Tree.refits), a scale's doing. Where
        the state keeps its candidates' values, only a change under which every other parameter's
        values are as recorded is named, if any is."""
        refits = self.tree.refits(root)
        recorded = status.get("candidate_values")
        if recorded is not None:
            refits = [(chosen, levels) for chosen, levels in refits
                      if self._others_as_recorded(chosen, root, levels, recorded)] or refits
        if not refits:
            return CompetitionError(INCONSISTENT)
        codes = [self.parameter_specs[i].code for i in sorted({i for chosen, _ in refits for i in chosen})]
        return tree_shape_changed(codes, either=len(refits) > 1)

    def _others_as_recorded(self, changed: tuple[int, ...], root: Node, levels: list[list[int]],
                            recorded: Any) -> bool:
        """Whether the values of the candidates of root, split by levels, are as recorded (the state's
        candidate_values) for every parameter but the changed ones."""
        depths = []
        for depth in range(1, len(levels) + 1):
            points = [parameters_for_path(self.tree.splits, path, levels)
                      for path, _ in generations(root, depth)]
            depths.append([tuple(_probe_repr(spec.convert, f) for spec, f in zip(self.parameter_specs, point))
                           for point in points])
        digests = self._digests(depths)
        try:
            return all(list(recorded[i]) == digests[i] for i in range(len(digests)) if i not in changed)
        except (TypeError, IndexError, KeyError):
            return False

    def _check_candidate_values(self, status: dict[str, Any]) -> None:
        """Refuse a state whose candidates the control file's scales give other values, naming the
        parameter and the depth. A state written before the record was kept is accepted."""
        recorded = status.get("candidate_values")
        if recorded is None:
            return
        current = self.candidate_values()
        if len(recorded) != len(current) or any(len(old) != len(new) for old, new in zip(recorded, current)):
            raise ValueError("candidate_values")   # not this tree's: inconsistent
        for i, (spec, old, new) in enumerate(zip(self.parameter_specs, recorded, current)):
            if list(old) == new:
                continue
            depth = next(d for d, (a, b) in enumerate(zip(old, new), 1) if a != b)
            values = [self._candidate_reprs(path)[i] for path, _ in self.tree.generations(depth)]
            shown = ", ".join(values[:8]) + (", ..." if len(values) > 8 else "")
            raise changed_since_state(f"parameter {spec.code}: 'scale' (its values at the tree's "
                                      f"{len(values)} candidates at depth {depth})", shown, "different")

    def get_status(self) -> dict[str, Any]:
        return {
            "scheduler": self.scheduler.to_json(),
            "tree": self.tree.root.to_json(),
            "opponent_description": self.opponent_description,
            "codes": [spec.code for spec in self.parameter_specs],
            "splits": self.tree.splits,
            "check_values": self._check_values(),
            "candidate_values": self.candidate_values(),
            "confirmation": self.confirmation_to_json(),
            # left out while there is none: as an older state
            **({"no_result_games": self.no_result_games} if self.no_result_games else {}),
            **self.opponent_status(),
        }

    def _check_parameters(self, status: dict[str, Any]) -> None:
        """Refuse a state whose parameters, splits or scales differ from the control file's, naming
        what differs (the state holds each parameter's first and last candidate values)."""
        codes = [spec.code for spec in self.parameter_specs]
        splits = status["splits"]
        before = status.get("codes")   # absent: a state written before the codes were kept
        if before is not None and before != codes:
            raise parameters_changed(codes, before)
        if not isinstance(splits, list) or len(splits) != len(codes):
            raise parameters_changed(codes, len(splits))
        for spec, old, new in zip(self.parameter_specs, splits, self.tree.splits):
            if old != new:
                raise changed_since_state(f"parameter {spec.code}: 'split'", new, old)
        values = self._check_values()
        old_values = status["check_values"]
        for i, spec in enumerate(self.parameter_specs):
            old_ends = [old_values[0][i], old_values[1][i]]
            new_ends = [values[0][i], values[1][i]]
            if old_ends != new_ends:
                now, was = shown_apart([_from_repr(r) for r in new_ends], [_from_repr(r) for r in old_ends])
                raise changed_since_state(f"parameter {spec.code}: 'scale' (its first and last candidates)",
                                          " to ".join(now), " to ".join(was))

    def set_status(self, status: dict[str, Any]) -> None:
        self.check_opponent_status(status)
        try:
            self._check_parameters(status)
            root = Node.from_json(status["tree"])
            try:
                self.tree.set_root(root)
            except ValueError:
                raise self._refit_refusal(root, status) from None
            self._reprs = {}
            self._record = None
            self._check_candidate_values(status)
            self.scheduler = SimpleScheduler.from_json(status["scheduler"])
            self.opponent_description = status["opponent_description"]
            # Tuning games with no result, played but in no candidate's record; a state from
            # before they were left out counted each as a loss, in the tree, and keeps it so.
            self.no_result_games = int(status.get("no_result_games", 0))
            self.clean_confirmation()
            self.confirmation_from_json(status["confirmation"])
        except (KeyError, ValueError, TypeError):
            raise CompetitionError(INCONSISTENT) from None
        self.new_event_refusals = []   # the event is under way: it carries on as it began
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
        return self.tuning_games_played() + len(self.outstanding) < self.number_of_games

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
            best = self._confirmation_path()
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
        score = self.candidate_score(response)
        if score is None:   # played, but in no record: counted among the tuning games only
            self.tree.abandon_game(path)
            self.no_result_games += 1
        else:
            self.tree.record_result(path, score)
        outcome = {None: "had no result", 1.0: "won", 0.0: "lost"}.get(score, "drew")
        description = f"{self.describe_path(path)} {outcome}"
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

    def _confirmation_path(self) -> Path:
        """The recommended candidate; if tuning ended before every candidate played, the most-played."""
        best = self.tree.best_path()
        if best:
            return best
        children = self.tree.root.children or []
        return (max(range(len(children)), key=lambda i: (children[i].games, children[i].won, -i)),)

    def confirmation_note(self) -> str:
        """Why the confirmation games are for a candidate that doesn't lead: tuning ended with none
        leading, so they went to the most-played one (_confirmation_path)."""
        if self.confirm_parameters is None or self.tree.best_path():
            return ""
        if not self.tree.root.games:
            return "the first candidate, as no tuning game had a result"
        return "the most-played candidate, as no candidate leads"

    def best_probability(self) -> float:
        """P(the recommended candidate is better than each of its siblings), multiplied down its path.

        0.0 while there is no recommended candidate.
        """
        best = self.tree.best_path()
        if not best:
            return 0.0
        levels = []
        node = self.tree.root
        for index in best:
            assert node.children is not None
            levels.append((tuple((child.won, child.games) for child in node.children), index))
            node = node.children[index]
        key = tuple(levels)
        if self._best_probability is None or self._best_probability[0] != key:
            # Integrated anew only when a record on the path changes: not on a redraw of the screen
            probability = 1.0
            for records, index in levels:
                probability *= probability_best(list(records), index)
            self._best_probability = (key, probability)
        return self._best_probability[1]

    def _is_confident(self) -> bool:
        return (self.stop_when_confident is not None
                and self.best_probability() >= self.stop_when_confident)

    def stop_reason(self) -> str:
        """Why the event stopped, or what it is waiting for."""
        if self.confident:
            return (f"stopped early: the recommended candidate beats every other with probability "
                    f"{self.best_probability():.3f} >= stop_when_confident {self.stop_when_confident:g}")
        if self.number_of_games is not None and self.tuning_games_played() >= self.number_of_games:
            return f"stopped: number_of_games ({self.number_of_games}) played"
        return "running"

    def twin_warnings(self) -> list[str]:
        """A warning where the tree, resumed from an older ringmaster's state, has twins: a first level
        whose integer scale gives two candidates one value, or a shape that split an EXPLICIT list or an
        integer scale again once its values were used up."""
        warnings = [f"warning: parameter {spec.code}: the first level splits its integer scale into "
                    f"{spec.split}, though it has only {values} different values at their centres (an "
                    f"older ringmaster allowed it), so candidates that differ only in it may be twins "
                    f"sharing the games of one; {RESET_REMEDY} with split={largest} for a tree without them"
                    for spec, (values, largest) in ((self.parameter_specs[i], twins)
                                                    for i, twins in self.first_level_twins.items())]
        if self.tree.shape == "twin-free":
            return warnings
        twinned = [self.parameter_specs[i] for i in self.tree.twinned()]
        groups = []
        for kind, specs in (("EXPLICIT list", [s for s in twinned if isinstance(s.convert, EXPLICIT)]),
                            ("integer scale", [s for s in twinned if not isinstance(s.convert, EXPLICIT)])):
            if specs:
                groups.append(f"the {kind}{'s' if len(specs) > 1 else ''} of "
                              f"{', '.join(spec.code for spec in specs)}")
        them = "it" if len(twinned) == 1 else "them"
        return warnings + [
            f"warning: this run's tree keeps the shape an older ringmaster gave it, which splits "
            f"{' and '.join(groups)} again once the values are used up, so candidates below "
            f"the first level that differ only in {them} may be twins sharing the games of one; "
            f"{RESET_REMEDY} for a tree without them"]

    def edge_warnings(self, path: Path) -> list[str]:
        """A warning for each end of a parameter's range the candidate's cell touches (a list
        of choices, such as EXPLICIT(['light', 'heavy']), has no ends to widen)."""
        return [edge_warning(self.parameter_specs[i].code, end)
                for i, end in self.tree.edges_touched(path)
                if not is_categorical(self.parameter_specs[i].convert)]

    def verdict(self) -> Verdict:
        """Use the leader only once it is better than every other with probability >= the bar;
        else the first-level candidates with the most games lead."""
        best = self.tree.best_path()
        bar = self.stop_when_confident if self.stop_when_confident is not None else CONFIDENCE_BAR
        children = self.tree.root.children or []
        order = sorted(range(len(children)), key=lambda i: (-children[i].games, -children[i].won, i))
        leaders = [f"{self.describe_path((i,))} {describe_record(children[i].won, children[i].games)}"
                   for i in order[:LEADERS] if children[i].games]
        evidence = (f"the leader is better than every other candidate with probability "
                    f"{self.best_probability():.3f}" if best else
                    "the most-played candidate doesn't yet look better than an untried one"
                    if self.tree.root.games else "no tuning game has a result yet")
        if not best and self.confirm_parameters is not None:
            score, scored = self.confirmation_score()
            evidence += (f"; the confirmation games are for {self.confirm_label}, "
                         f"{self.confirmation_note()}"
                         + (f": it scored {score:g} of {scored} against the opponent, which doesn't "
                            f"compare it with the other candidates" if scored else ""))
        settle = "more tuning games (a larger number_of_games" + (
            ")" if self.stop_when_confident is not None else
            f"; stop_when_confident = {CONFIDENCE_BAR:g} stops once one is clear)") + (
            "" if self.confirm_games > 0 else ", then confirm_games for a fair measure of the winner")
        answer = self.format_optimiser_parameters(self.tree.parameters_for_path(self._confirmation_path()))
        settled = bool(best) and self.best_probability() >= bar
        return Verdict(answer, settled, self.tuning_over(), evidence, f"a recommendation needs {bar:g}" + (
                           ", its stop_when_confident" if self.stop_when_confident is not None else ""),
                       leaders, settle,
                       warnings=self.twin_warnings() + (self.edge_warnings(best) if best else []))

    def tuning_games_played(self) -> int:
        """The tuning games played: those in the tree, and those with no result (in no record)."""
        return self.tree.root.games + self.no_result_games

    def games_played(self) -> int:
        return self.tuning_games_played() + self.confirm_played

    def games_wanted(self) -> int | None:
        played = self.tuning_games_played()
        if self.confident or (self.number_of_games is not None and played >= self.number_of_games):
            return played + self.confirm_games
        if self.number_of_games is None:
            return None
        return self.number_of_games + self.confirm_games
