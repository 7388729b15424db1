"""What the tuners share: opponent and candidate settings, candidate players, jobs, confirmation games."""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

from ringmaster.competitions.base import Competition, PlayerCheck, Setup, handicap_needs
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
from ringmaster.competitions.scheduling import SimpleScheduler
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
from ringmaster.stats.win_rates import format_elo, likelihood_of_superiority, wilson_interval
from ringmaster.tuning.parameters import (
    convert_parameters,
    format_engine_parameters,
)

CONFIRM_PREFIX = "c"
CONFIRM_PLAYER_CODE = "best"
START_PLAYER_CODE = "start"

CONFIRM_LOS_BAR = 0.975
"""ce_tuner, spsa_tuner and bayes_tuner recommend their answer once it beat the start in
confirmation games with this likelihood of superiority, and the 95% interval of its score
against the start lies above even: their searches have no measure of their own that tells an
answer on a peak from one on a plateau (reports/ has the simulations). 0.975 one-sided is what a
two-sided 95% interval above 0 asks; at 0.95, 'Use' stood beside an Elo interval reaching below
0 (reports/tuner_verdicts.md)."""

CANDIDATE_ENGINES_KEPT = 4
"""The most different names the state keeps for the candidates' engines: one program, normally."""

CANDIDATE_ENGINES_SHOWN = 3
"""The most of them a report lists, before 'and others'."""

EDGE_SHARE = 0.05
"""A continuous tuner's answer this close to an end of a parameter's range (a share of it) is warned:
the best value may lie beyond."""


@dataclass
class Verdict:
    """A tuner's headline, only as strong as its evidence.

    It recommends its answer ('Use ...') only when its own confidence measure
    passes a stated bar; otherwise it says there is no clear winner yet, with the
    leading candidates and what would settle it.
    """

    answer: str                 # the parameters it would use: 'c: 0.029'
    settled: bool               # the confidence measure passes the bar
    tuning_over: bool
    evidence: str               # the measure, now: 'better than every other ... with probability 0.31'
    bar: str                    # 'a recommendation needs 0.95'
    leaders: list[str] = field(default_factory=list)
    settle: str = ""            # what would settle it
    uncertainty: str = ""       # how far the answer may be off
    warnings: list[str] = field(default_factory=list)
    evidence_complete: bool = True   # False while games the bar rests on are still to come

    def headline(self) -> str:
        if not self.settled:
            return "No clear winner yet"
        if self.tuning_over and self.evidence_complete:
            return f"Use {self.answer}"
        return f"Clearly leading so far: {self.answer}"

    def lines(self) -> list[str]:
        """The text report's verdict: the headline, then indented details."""
        lines = [f"Verdict: {self.headline()}"]
        if not self.settled:
            lines.append(f"  leading: {'; '.join(self.leaders) if self.leaders else self.answer}")
        lines.append(f"  evidence: {self.evidence} ({self.bar})")
        if self.uncertainty:
            lines.append(f"  uncertainty: {self.uncertainty}")
        if not self.settled and self.settle:
            lines.append(f"  what would settle it: {self.settle}")
        lines += [f"  {warning}" for warning in self.warnings]
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"headline": self.headline(), "answer": self.answer, "settled": self.settled,
                "tuning_over": self.tuning_over, "evidence_complete": self.evidence_complete,
                "evidence": self.evidence, "bar": self.bar,
                "leaders": self.leaders, "settle": self.settle, "uncertainty": self.uncertainty,
                "warnings": self.warnings}


def edge_warning(code: str, end: str) -> str:
    """The warning for an answer at the low or high end of a parameter's range."""
    word, beyond = ("lowest", "below") if end == "low" else ("highest", "above")
    return (f"warning: {code} lies at the {word} end of its range: the best value may be {beyond} "
            f"it; widen the range of {code} and tune again")


def continuous_edge_warnings(codes: list[str], point: list[float]) -> list[str]:
    """Warnings for each coordinate of a point (0 to 1 across each range) within EDGE_SHARE of an end."""
    warnings = []
    for code, x in zip(codes, point):
        if x <= EDGE_SHARE:
            warnings.append(edge_warning(code, "low"))
        elif x >= 1.0 - EDGE_SHARE:
            warnings.append(edge_warning(code, "high"))
    return warnings

def selection_bias_warning(confirm_games: int,
                           what: str = "the tuning games chose this candidate, so its own record flatters it"
                           ) -> str:
    """The caution shown under a record (or a model's estimate) the selection itself produced."""
    advice = ("the confirmation games below are a fair test" if confirm_games > 0
              else "set confirm_games for an unbiased figure")
    return f"({what}; {advice})"


def default_confirm_games(tuning_games: int) -> int:
    """The continuous tuners' confirm_games when the control file sets none: a tenth of the
    tuning games, at least 20, even (so that each side has each colour as often)."""
    games = max(20, round(tuning_games / 10))
    return games + games % 2


RESET_REMEDY = "start afresh with `ringmaster reset`"


def changed_since_state(what: str, now: Any, before: Any) -> CompetitionError:
    """The refusal of a resume whose control file changed what the games so far were played with:
    "'opponent' is opp2 in the control file but was opp for the games so far; put it back, or ..."."""
    return CompetitionError(f"{what} is {now} in the control file but was {before} for the games so "
                            f"far; put it back, or {RESET_REMEDY}")


def shown_apart(now: list[Any], before: list[Any]) -> tuple[list[str], list[str]]:
    """Engine values for a refusal: short (short_value), or exact (repr) where the short ones would
    read the same."""
    show = short_value if [short_value(v) for v in now] != [short_value(v) for v in before] else repr
    return [show(v) for v in now], [show(v) for v in before]


def parameters_changed(codes: list[str], before: list[str] | int) -> CompetitionError:
    """The refusal of a resume whose parameter list changed: before is the codes the state holds, or
    (a state that holds none) how many parameters it had."""
    now = ", ".join(codes)
    if isinstance(before, int):
        what = (f"the control file has {len(codes)} parameters ({now}) but the games so far had "
                f"{before}")
    else:
        what = (f"the parameters are {now} in the control file but were {', '.join(before)} for the "
                f"games so far")
    return CompetitionError(f"{what}; put them back, or {RESET_REMEDY}")


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


def plain_value(value: Any) -> Any:
    """A JSON number or string for an engine parameter value."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return value


def short_value(value: Any) -> str:
    """An engine parameter value, short: '0.0291', '12', 'on'."""
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def describe_record(won: float, games: int) -> str:
    """'12/20 0.600 [0.387, 0.781]': wins, games, win rate and its 95% interval."""
    if games == 0:
        return "0/0 games"
    low, high = wilson_interval(won, games)
    won_s = f"{won:g}"
    return f"{won_s}/{games} {won / games:.3f} [{low:.3f}, {high:.3f}]"


class Tuner(Competition):
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
        """A jigo or a game with no result counts as a loss."""
        return response.game_result.losing_player == self.opponent.code

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

    # Confirmation games: the chosen candidate plays fresh games once tuning is over, against the
    # opponent, or (confirms_against_start: the continuous tuners) against the start of the search.

    confirms_against_start = False

    def start_parameters(self) -> list[float]:
        """Where the search started (optimiser parameters): what confirmation games test the answer
        against when confirms_against_start."""
        raise NotImplementedError

    def state_plays_start(self, confirmation: dict[str, Any] | None) -> bool:
        """Whether a state's confirmation games (its 'confirmation'; None where it kept none) test the
        answer against the start, with some played or (this control file's confirm_games) to play:
        then a changed start would play them, or report them, against another."""
        if confirmation is None:
            return self.confirms_against_start and self.confirm_games > 0
        # 'against' as confirmation_from_json reads it
        return confirmation.get("against", "opponent") == "start" and (
            self.confirm_games > 0 or confirmation["played"] > 0)

    def clean_confirmation(self) -> None:
        self.confirm_parameters: list[float] | None = None
        self.confirm_label = ""
        self.confirm_scheduler = SimpleScheduler()
        self.confirm_won = 0       # outright wins
        self.confirm_jigos = 0
        self.confirm_unknown = 0   # games with no result (not void: those are replayed)
        self.confirm_played = 0    # every confirmation game with a response, these included
        self.confirm_against = "start" if self.confirms_against_start else "opponent"

    def confirmation_to_json(self) -> dict[str, Any]:
        return {"parameters": self.confirm_parameters, "label": self.confirm_label,
                "scheduler": self.confirm_scheduler.to_json(),
                "won": self.confirm_won, "jigos": self.confirm_jigos, "unknown": self.confirm_unknown,
                "played": self.confirm_played, "against": self.confirm_against}

    def confirmation_from_json(self, data: dict[str, Any]) -> None:
        self.confirm_parameters = data["parameters"]
        self.confirm_label = data["label"]
        self.confirm_scheduler = SimpleScheduler.from_json(data["scheduler"])
        self.confirm_won = data["won"]
        self.confirm_jigos = data.get("jigos", 0)       # a state from before they were kept apart
        self.confirm_unknown = data.get("unknown", 0)   # counted them as losses
        self.confirm_played = data["played"]
        # A run from before confirmation against the start goes on against the opponent, with the
        # confirm_games it had (0 unless the control file sets it): ce_tuner's and spsa_tuner's
        # before they had 'against', bayes_tuner's before it confirmed against the start.
        self.confirm_against = data.get("against", "opponent")
        if self.confirm_against != ("start" if self.confirms_against_start else "opponent") \
                and not self.confirm_games_given:
            self.confirm_games = 0
        if self.confirm_against not in ("start", "opponent"):
            raise ValueError("confirmation against")

    def start_confirmation(self, optimiser_parameters: list[float], label: str) -> None:
        self.confirm_parameters = list(optimiser_parameters)
        self.confirm_label = label

    def confirmation_complete(self) -> bool:
        return self.confirm_games <= 0 or self.confirm_played >= self.confirm_games

    def get_confirmation_game(self) -> GameJob | None:
        """The next confirmation game, or None if none is due now."""
        if self.confirm_parameters is None:
            return None
        s = self.confirm_scheduler
        if not s.can_issue(self.confirm_games):
            return None
        number = s.issue(self.confirm_games)
        engine_parameters = self.convert(self.confirm_parameters)
        candidate = self.make_candidate(CONFIRM_PLAYER_CODE, engine_parameters)
        game_id, game_data = f"{CONFIRM_PREFIX}{number}", ["confirm", number]
        if self.confirm_against == "opponent":
            return self.make_tuning_job(game_id, game_data, candidate, engine_parameters)
        start_parameters = self.convert(self.start_parameters())
        start = self.make_candidate(START_PLAYER_CODE, start_parameters)
        black, white = (candidate, start) if number % 2 == 0 else (start, candidate)
        return self.make_game_job(
            game_id, black, white, self.game_settings, game_data=game_data,
            sgf_note=(f"Confirmation: the answer, {self.format_engine_parameters(engine_parameters)}, "
                      f"against the start, {self.format_engine_parameters(start_parameters)}"))

    @staticmethod
    def is_confirmation(game_data: Any) -> bool:
        return isinstance(game_data, (list, tuple)) and len(game_data) == 2 \
            and game_data[0] == "confirm"

    def process_confirmation_error(self, job: GameJob, halt: bool) -> tuple[bool, bool]:
        """A void confirmation game is replayed once (by this tuner: it is issued again)."""
        stop = halt or self.count_error(job.game_id) > 0
        if not stop:
            self.confirm_scheduler.retry(job.game_data[1])
        return stop, False

    def process_confirmation_result(self, response: GameJobResult) -> str:
        number = response.game_data[1]
        self.confirm_scheduler.fix(number)
        result = response.game_result
        if result.sgf_result == "0":
            outcome = "drew"
            self.confirm_jigos += 1
        elif result.winning_player is None:
            outcome = "had no result"
            self.confirm_unknown += 1
        else:
            won = (result.winning_player == CONFIRM_PLAYER_CODE if self.confirm_against == "start"
                   else self.candidate_won(response))
            outcome = "won" if won else "lost"
            self.confirm_won += int(won)
        self.confirm_played += 1
        self.log_history(f"confirm {self.confirm_label} {outcome}")
        return f"confirmation {self.confirm_label} {outcome} {result.sgf_result}"

    def confirmation_score(self) -> tuple[float, int]:
        """(the answer's score, games with a result) in confirmation games: a jigo counts half."""
        return self.confirm_won + self.confirm_jigos / 2, self.confirm_played - self.confirm_unknown

    def confirmation_los(self) -> float | None:
        """The likelihood that the answer is stronger than what it played in confirmation games
        (jigos left out, as cutechess's LOS leaves draws out)."""
        _, scored = self.confirmation_score()
        return likelihood_of_superiority(self.confirm_won, scored - self.confirm_won - self.confirm_jigos)

    def confirmation_verdict(self, answer: str, tuning_over: bool, settle: str, uncertainty: str = "",
                             warnings: list[str] | None = None) -> Verdict:
        """The verdict of a tuner whose bar is its answer beating the start in confirmation games."""
        start = self.format_optimiser_parameters(self.start_parameters())
        los = self.confirmation_los() if self.confirm_against == "start" else None
        if self.confirm_games <= 0:
            evidence = "none: no confirmation games (confirm_games is 0) test the answer against the start"
        elif self.confirm_against != "start":
            evidence = ("none that compares: this run's confirmation games play the opponent (it started "
                        "before they played the start)")
        elif los is None:
            evidence = (f"not yet: {self.confirm_games} confirmation games against the start "
                        f"({start}) once tuning ends")
        else:
            score, scored = self.confirmation_score()
            evidence = (f"the answer beat the start ({start}) in {score:g} of {scored} confirmation games"
                        + (" with a result" if self.confirm_unknown else "")
                        + (" (a jigo counts half)" if self.confirm_jigos else "") + f": LOS {los:.3f}")
            if not self.confirmation_complete():
                evidence += f" ({self.confirm_played} of {self.confirm_games} played)"
        # 'Use' only once every confirmation game is in: the ones to come may overturn it. The
        # interval too, since LOS leaves jigos out and the interval of the score counts them half.
        above = los is not None and wilson_interval(*self.confirmation_score())[0] > 0.5
        return Verdict(answer, los is not None and los >= CONFIRM_LOS_BAR and above, tuning_over,
                       evidence, f"a recommendation needs LOS {CONFIRM_LOS_BAR:g} over the start, and "
                       "the 95% interval of its score above even",
                       [answer], settle, uncertainty, warnings or [],
                       evidence_complete=self.confirmation_complete())

    def write_confirmation_report(self, out: Any) -> None:
        if self.confirm_games <= 0:
            return
        against = " against the start" if self.confirm_against == "start" else ""
        if self.confirm_parameters is None:
            out.write(f"confirmation: {self.confirm_games} fresh games for the best candidate{against} "
                      "once tuning ends\n")
            return
        out.write(f"confirmation games ({self.confirm_played}/{self.confirm_games}) for "
                  f"{self.confirm_label}{against}:\n")
        score, scored = self.confirmation_score()
        if scored:
            out.write(f"  record {describe_record(score, scored)}  "
                      f"Elo vs {'start' if against else 'opponent'} {format_elo(score, scored)}"
                      + (f"  ({self.confirm_unknown} with no result)" if self.confirm_unknown else "")
                      + "\n")
        elif self.confirm_played:
            out.write(f"  {self.confirm_played} with no result\n")

    def confirmation_json(self) -> dict[str, Any] | None:
        if self.confirm_games <= 0:
            return None
        result: dict[str, Any] = {"games_wanted": self.confirm_games,
                                  "candidate": self.confirm_label,
                                  "optimiser_parameters": self.confirm_parameters,
                                  "parameter_values": None, "won": self.confirm_won,
                                  "jigos": self.confirm_jigos, "unknown": self.confirm_unknown,
                                  "played": self.confirm_played, "against": self.confirm_against}
        if self.confirm_against == "start":
            result["start"] = self.format_optimiser_parameters(self.start_parameters())
        if self.confirm_parameters is not None:
            result["parameter_values"] = [plain_value(v) for v in self.convert(self.confirm_parameters)]
        score, scored = self.confirmation_score()
        if scored:
            low, high = wilson_interval(score, scored)
            result["win_rate"] = score / scored
            result["win_rate_95"] = [low, high]
            result["los"] = self.confirmation_los()
        return result

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
