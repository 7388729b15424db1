"""What the tuners share: opponent and candidate settings, candidate players and their jobs, report heads."""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable
from typing import Any, TextIO

from ringmaster.competitions.base import Competition, PlayerCheck, Setup, handicap_needs
from ringmaster.competitions.confirmation import ConfirmationGames
from ringmaster.competitions.game_settings import (
    GAME_SETTINGS,
    check_game_settings,
    describe_game_settings,
    effective_game_settings,
    saved_game_settings,
)
from ringmaster.competitions.referee_settings import (
    describe_scoring,
    player_scoring_needs,
    referee_needs,
)
from ringmaster.competitions.state_changes import RESET_REMEDY, changed_since_state
from ringmaster.competitions.time_settings import check_player_clocks, player_time_control
from ringmaster.errors import (
    CallbackError,
    CompetitionError,
    ControlFileError,
    Interrupt,
    callback_error,
    defined_in_control_file,
    describe_user_exception,
    raised_in_control_file,
)
from ringmaster.game.job import GameJob, GameJobResult, PlayerSpec
from ringmaster.rules import get_rules_class
from ringmaster.settings import (
    Player,
    Setting,
    interpret_callable,
    interpret_colour,
    interpret_identifier,
    interpret_nonnegative_int,
    interpret_optional,
    load_settings,
)
from ringmaster.tuning.parameters import (
    convert_parameters,
    format_engine_parameters,
)

CANDIDATE_ENGINES_KEPT = 4
"""The most different names the state keeps for the candidates' engines: one program, normally."""

CANDIDATE_ENGINES_SHOWN = 3
"""The most of them a report lists, before 'and others'."""


def interpret_candidate_colour(value: Any) -> str:
    if isinstance(value, str) and value.lower() in ("r", "random"):
        return "random"
    return interpret_colour(value)


TUNER_SETTINGS = [
    Setting("candidate_colour", interpret_candidate_colour),
    Setting("opponent", interpret_identifier),
    Setting("make_candidate", interpret_callable),
    Setting("confirm_games", interpret_optional(interpret_nonnegative_int), default=0),
]


class Tuner(ConfirmationGames, Competition):
    """Base for the tuners: one family of candidates against one fixed opponent."""

    parameter_class: type = object
    event_name = ""
    """How the reports name the kind of event: 'MCTS' tuning event..."""

    def __init__(self, competition_code: str, base_directory: str = ".") -> None:
        super().__init__(competition_code, base_directory)
        self.rng = random.Random()
        # Void results per game id in this run (the core passes a run-wide count).
        self.error_counts: dict[str, int] = {}
        # What the candidates' engines said they are (name:version), each once, as first seen.
        self.candidate_engines: list[str] = []

    def count_error(self, game_id: str) -> int:
        """Note a void result; returns how many this game id had before."""
        previous = self.error_counts.get(game_id, 0)
        self.error_counts[game_id] = previous + 1
        return previous

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        result = super().control_file_globals()
        result["Parameter"] = cls.parameter_class
        return result

    @classmethod
    def known_settings(cls) -> set[str]:
        return super().known_settings() | {s.name for s in TUNER_SETTINGS} | {"parameters"}

    # Control file

    def load_tuner_settings(self, config: dict[str, Any], require_fractional_komi: bool) -> None:
        """The common and game settings, opponent, colour, make_candidate, confirm_games."""
        self.load_common_settings(config)
        self.game_settings = load_settings(GAME_SETTINGS, config)
        check_game_settings(self.game_settings)
        self.check_referee(self.game_settings)
        if self.game_settings["openings"] is not None:
            raise ControlFileError("'openings': the tuners play no openings (a playoff or an "
                                   "all-play-all does)", setting="openings")
        komi = self.game_settings["komi"]
        if (require_fractional_komi and get_rules_class(self.game_settings["game"]).usual_komi_is_fractional
                and komi == int(komi)):
            raise ControlFileError("'komi': must be fractional to prevent jigos", setting="komi")
        settings = load_settings(TUNER_SETTINGS, config)
        self.candidate_colour = settings["candidate_colour"]
        self.opponent = self.player(settings["opponent"], "'opponent'", setting="opponent")
        check_player_clocks(self.game_settings, (self.opponent,))
        self.candidate_maker: Callable[..., Any] = settings["make_candidate"]
        self.confirm_games: int = settings["confirm_games"] or 0
        self.confirm_games_given = config.get("confirm_games") is not None

    def _resume_settings(self) -> dict[str, Any]:
        """The settings a resume must keep: who the candidates play and with which colour."""
        return {"opponent": self.opponent.code, "candidate_colour": self.candidate_colour}

    def opponent_status(self) -> dict[str, Any]:
        """The state's record of who the candidates played and with which colour, and of what the
        candidates' engines said they are (left out while there is none: as an older state)."""
        status = self._resume_settings()
        if self.candidate_engines:
            status["candidate_engines"] = list(self.candidate_engines)
        return status

    def check_opponent_status(self, status: dict[str, Any]) -> None:
        """Refuse a resume whose opponent or candidate_colour changed: the games so far and the new
        ones would be mixed in every candidate's record. A state written before they were saved
        has neither, and is accepted (as an opening suite missing from an older state is).
        Takes back what the candidates' engines said they are (a state from before it was kept
        has none: the next game's result tells it)."""
        for setting, now in self._resume_settings().items():
            if setting in status and status[setting] != now:
                raise changed_since_state(f"'{setting}'", now, status[setting])
        engines = status.get("candidate_engines", [])
        if not isinstance(engines, list) or not all(isinstance(e, str) for e in engines):
            raise CompetitionError("status file is inconsistent with control file: its "
                                   f"'candidate_engines' is {reprlib.repr(engines)}, not a list of "
                                   f"names; {RESET_REMEDY}")
        self.candidate_engines = engines[:CANDIDATE_ENGINES_KEPT]

    def game_settings_by_key(self) -> dict[str, dict[str, Any]]:
        """The opponent's time control counts; a candidate's own (from make_candidate) isn't kept."""
        return {"": saved_game_settings(self.game_settings, (self.opponent,), self.referee)}

    def uses_clock(self) -> bool:
        return (player_time_control(self.game_settings, self.opponent) != "none"
                or self.game_settings["time_control"] != "none")

    def check_make_candidate(self, engine_parameters: tuple) -> None:
        """Raise ControlFileError if make_candidate fails for these parameters."""
        try:
            self.make_candidate("candidate", engine_parameters)
        except CallbackError as exc:
            if exc.line is not None:
                raise ControlFileError(str(exc), exc.line, setting="make_candidate", located=True) from None
            raise ControlFileError(f"'make_candidate': {exc}", setting="make_candidate") from None

    # Candidates

    def convert(self, optimiser_parameters: list[float]) -> tuple:
        """Engine parameters for optimiser parameters. Raises CallbackError if a scale fails."""
        return convert_parameters(self.parameter_specs, optimiser_parameters)

    def format_engine_parameters(self, engine_parameters: tuple) -> str:
        return format_engine_parameters(self.parameter_specs, engine_parameters)

    def format_optimiser_parameters(self, optimiser_parameters: list[float]) -> str:
        return self.format_engine_parameters(self.convert(optimiser_parameters))

    def candidate_call(self, engine_parameters: tuple) -> str:
        """'make_candidate(c=0.9, playouts=500)': the call for these parameters, for messages."""
        words = [f"{spec.code}={value:.6g}" if isinstance(value, float) else
                 f"{spec.code}={reprlib.repr(value)}"
                 for spec, value in zip(self.parameter_specs, engine_parameters)]
        return f"make_candidate({', '.join(words)})"

    def make_candidate(self, code: str, engine_parameters: tuple) -> PlayerSpec:
        """The candidate player for these engine parameters.

        Raises CallbackError naming the control file's line and the call.
        """
        # The call's text and the def's line are for the messages: made only for one.
        try:
            player = self.candidate_maker(*engine_parameters)
        except Interrupt:
            raise   # Ctrl-C or SIGTERM while it ran: the run is interrupted
        except BaseException as exc:  # noqa: BLE001 (user code may raise anything)
            raise callback_error(self.candidate_call(engine_parameters), describe_user_exception(exc),
                                 raised_in_control_file(exc)) from None
        if not isinstance(player, Player):
            raise callback_error(self.candidate_call(engine_parameters),
                                 f"returned {reprlib.repr(player)}, not a Player",
                                 defined_in_control_file(self.candidate_maker))
        try:
            spec = self.make_player_spec(code, player)
            check_player_clocks(self.game_settings, (spec,))
            return spec
        except ControlFileError as exc:
            definition = defined_in_control_file(self.candidate_maker)
            where = definition and (definition[0], exc.line or player.line or definition[1])
            raise callback_error(self.candidate_call(engine_parameters), str(exc), where) from None

    def choose_candidate_colour(self) -> str:
        if self.candidate_colour == "random":
            return self.rng.choice("bw")
        return self.candidate_colour

    def make_tuning_job(self, game_id: str, game_data: Any, candidate: PlayerSpec,
                        engine_parameters: tuple) -> GameJob:
        if self.choose_candidate_colour() == "b":
            player_b, player_w = candidate, self.opponent
        else:
            player_b, player_w = self.opponent, candidate
        return self.make_game_job(
            game_id, player_b, player_w, self.game_settings, game_data=game_data,
            sgf_note="Candidate parameters: " + self.format_engine_parameters(engine_parameters))

    def note_opponent(self, response: GameJobResult) -> None:
        """Note what a game's engines said they are: the opponent's (its description, else its
        name:version), and each candidate's name:version (else its description) not yet seen, up to
        CANDIDATE_ENGINES_KEPT. The candidates' are their names, not their descriptions: an engine
        that describes its settings would tell apart candidates of one program."""
        code = self.opponent.code
        description = (response.engine_descriptions.get(code)
                       or response.engine_names.get(code))
        if description:
            self.opponent_description = description
        for player in (response.game_result.player_b, response.game_result.player_w):
            if player == code:
                continue
            name = response.engine_names.get(player) or response.engine_descriptions.get(player)
            if name and name not in self.candidate_engines \
                    and len(self.candidate_engines) < CANDIDATE_ENGINES_KEPT:
                self.candidate_engines.append(name)

    def candidate_engines_text(self) -> str | None:
        """What the candidates' engines said they are, for the reports: 'ringmaster-mcts:1.0', or
        'a; b (they differ)'; None before any said."""
        engines = self.candidate_engines
        if not engines:
            return None
        if len(engines) == 1:
            return engines[0]
        shown = "; ".join(engines[:CANDIDATE_ENGINES_SHOWN])
        more = "; and others" if len(engines) > CANDIDATE_ENGINES_SHOWN else ""
        return f"{shown}{more} (the candidates' engines differ)"

    def candidate_won(self, response: GameJobResult) -> bool:
        """Whether the candidate beat the opponent in a game won by one of them."""
        return response.game_result.losing_player == self.opponent.code

    def candidate_score(self, response: GameJobResult) -> float | None:
        """The candidate's score in a game against the opponent: 1 a win, 0 a loss, ½ a jigo (a
        draw); None for a game with no result ('?'), which every tuner leaves out of its figures
        (as the reports do), though it was played: it is counted and kept, never replayed."""
        result = response.game_result
        if result.is_jigo:
            return 0.5
        if result.winning_player is None:
            return None
        return 1.0 if self.candidate_won(response) else 0.0

    def get_player_checks(self) -> list[PlayerCheck]:
        candidate = self.make_candidate("candidate", self.sample_engine_parameters())
        candidate_colours = {"b": "b", "w": "w", "random": "bw"}[self.candidate_colour]
        opponent_colours = "".join(c for c in "bw" if c not in candidate_colours or
                                   self.candidate_colour == "random")
        setup = Setup.of(self.game_settings)   # as its games: the game's own options too
        checks = [PlayerCheck(player, setup,
                              needs=handicap_needs(self.game_settings, as_black="b" in colours,
                                                   as_white="w" in colours)
                              + player_scoring_needs(self.game_settings, self.referee),
                              timed=player_time_control(self.game_settings, player) != "none")
                  for player, colours in ((candidate, candidate_colours),
                                          (self.opponent, opponent_colours))]
        if self.referee is not None:
            checks.append(PlayerCheck(self.referee, setup, needs=referee_needs(self.game_settings)))
        return checks

    def sample_engine_parameters(self) -> tuple:
        raise NotImplementedError

    def get_json_report(self) -> dict[str, Any]:
        report = super().get_json_report()
        sample = self.make_candidate("candidate", self.sample_engine_parameters())
        report["players"] = {self.opponent.code: list(self.opponent.command),
                             "candidate (e.g.)": list(sample.command)}
        report["engine_names"] = ({self.opponent.code: self.opponent_description}
                                  if self.opponent_description else {})
        candidates = self.candidate_engines_text()
        if candidates is not None:
            report["engine_names"]["candidate (e.g.)"] = candidates
        report["candidate_engines"] = list(self.candidate_engines)
        report["engine_descriptions"] = {}
        report["game_settings"] = effective_game_settings(self.game_settings)
        report["scoring"] = describe_scoring(self.game_settings, self.referee)
        report["player_time_controls"] = {
            code: p.time_control for code, p in ((self.opponent.code, self.opponent),
                                                 ("candidate (e.g.)", sample))
            if p.time_control is not None}
        return report

    def write_static_description(self, out: TextIO) -> None:
        """The report's head: the event, its description, and the game's settings."""
        out.write(f"{self.event_name} tuning event: {self.competition_code}\n")
        if self.description:
            out.write(self.description + "\n")
        out.writelines(line + "\n" for line in describe_game_settings(self.game_settings))

    def write_opponent_line(self, out: Any) -> None:
        """The engines: what the opponent and the candidates said they are."""
        if self.opponent_description:
            out.write(f"opponent ({self.opponent.code}): {self.opponent_description}\n")
        else:
            out.write(f"opponent: {self.opponent.code}\n")
        candidates = self.candidate_engines_text()
        if candidates is not None:
            out.write(f"candidates: {candidates}\n")
