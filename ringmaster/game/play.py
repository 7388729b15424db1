"""Play one game job end to end: start the engines, set up, referee, score, record, clean up."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Protocol

from ringmaster import reaper
from ringmaster.errors import JobFailed
from ringmaster.game.adjudication import Adjudicator
from ringmaster.game.engines import (
    ChannelFactory,
    EngineDescription,
    GameEngines,
    subprocess_channel,
)
from ringmaster.game.job import GameJob, GameJobResult
from ringmaster.game.opening import play_opening
from ringmaster.game.pig_referee import Dice, PigReferee, dice_seed
from ringmaster.game.records import (
    EngineNames,
    PlayedGame,
    record_pathname,
    write_game_record,
    write_pig_record,
)
from ringmaster.game.referee import Referee
from ringmaster.game.referee_engine import RefereeEngine
from ringmaster.game.result import GameResult
from ringmaster.game.scoring import EnginePlayer
from ringmaster.game.timekeeper import GameClock
from ringmaster.gtp.channel import GtpChannelError
from ringmaster.gtp.controller import BadGtpResponse, GtpController
from ringmaster.rules import get_rules, get_rules_class
from ringmaster.rules.base import Colour, Rules
from ringmaster.rules.pig import PigRules
from ringmaster.rules.symmetry import fingerprint


class RefereedGame(Protocol):
    """What a referee reports of a finished game (GameRecord, PigGame)."""

    moves: list
    winning_colour: Colour | None
    sgf_result: str
    detail: str | None
    is_forfeit: bool
    late_errors: list[str]
    is_adjudicated: bool
    warnings: list[str]


class GameReferee(Protocol):
    """How one game of a kind is refereed and recorded, once its engines are set up."""

    record_extension: str

    def prepare(self, controllers: dict[Colour, GtpController],
                referee_engine: RefereeEngine | None = None) -> None:
        """After the set-up commands: what comes before the first move (Go's handicap, an
        opening), told to the referee engine too if there is one.

        Raises JobFailed, GtpChannelError or BadGtpResponse if the game can't start.
        """

    def play(self, controllers: dict[Colour, GtpController], clock: GameClock | None = None,
             referee_engine: RefereeEngine | None = None) -> RefereedGame:
        """Play the game to its end (an engine's failure forfeits it), timed by clock if given."""

    def fingerprint(self, game: RefereedGame) -> str | None:
        """The game's fingerprint (rules.symmetry), for finding duplicate games; None if it has
        none."""

    def write_record(self, game: RefereedGame | None, result: GameResult | None,
                     engines: dict[Colour, EngineNames], durable: bool,
                     void_reason: str | None = None) -> str | None:
        """Write the game's record (a void game's: game and result None); returns its pathname."""


def game_clock(job: GameJob) -> GameClock | None:
    """The job's clock, or None if neither side is timed."""
    controls = {"b": job.time_control_b, "w": job.time_control_w}
    if controls["b"] is None and controls["w"] is None:
        return None
    return GameClock(controls, {"b": job.player_b.code, "w": job.player_w.code}, job.time_margin)


def _place_handicap(controllers: dict[str, GtpController], rules: Rules,
                    job: GameJob) -> list[tuple[int, int]]:
    """Place handicap stones on both engines and our board. Raises JobFailed if refused."""
    stones = job.handicap
    if job.handicap_style == "fixed":
        expected = sorted(rules.fixed_handicap_points(stones))
        for colour in ("b", "w"):
            response = controllers[colour].do_command("fixed_handicap", str(stones))
            try:
                given = sorted(rules.parse_move(v) for v in response.split())
            except (ValueError, TypeError):
                given = None
            if given != expected:
                raise JobFailed(f"bad response from fixed_handicap command to "
                                f"{controllers[colour].name}: {response[:100]}")
        points = expected
    else:
        response = controllers["b"].do_command("place_free_handicap", str(stones))
        try:
            points = [rules.parse_move(v) for v in response.split()]
        except ValueError:
            points = []
        if len(points) != stones or None in points or len(set(points)) != stones:
            raise JobFailed(f"invalid response from place_free_handicap command to "
                            f"{controllers['b'].name}: {response[:100]}")
        controllers["w"].do_command("set_free_handicap",
                                    *[rules.format_move(p) for p in points])
    rules.set_handicap(points)
    return points


class BoardGameReferee:
    """Go and Othello: the handicap, then the Referee on the game's Rules; an SGF record."""

    record_extension = ".sgf"

    def __init__(self, job: GameJob) -> None:
        self.job = job
        self.rules = get_rules(job.game, job.board_size)
        self.start = [(colour, (r, c)) for r, row in enumerate(self.rules.board_rows())
                      for c, colour in enumerate(row) if colour is not None]
        self.handicap_points: list = []
        self.setup_points: list = []      # the opening's set-up stones (no handicap compensation)
        self.opening_moves: list = []

    def prepare(self, controllers: dict[Colour, GtpController],
                referee_engine: RefereeEngine | None = None) -> None:
        tell = None if referee_engine is None else referee_engine.tell
        if self.job.handicap:
            self.handicap_points = _place_handicap(controllers, self.rules, self.job)
            for point in self.handicap_points:
                if tell is not None:
                    tell("b", self.rules.format_move(point))
        opening = self.job.opening
        if opening is not None:
            self.opening_moves = play_opening(controllers, self.rules, opening, tell)
            self.setup_points = list(opening.setup)

    def play(self, controllers: dict[Colour, GtpController], clock: GameClock | None = None,
             referee_engine: RefereeEngine | None = None) -> RefereedGame:
        job, rules = self.job, self.rules
        specs = {"b": job.player_b, "w": job.player_w}
        players = {c: EnginePlayer(specs[c].code, controllers[c], specs[c].allow_claim,
                                   specs[c].is_reliable_scorer) for c in ("b", "w")}
        adjudicator = None
        if job.adjudication is not None and referee_engine is not None:
            adjudicator = Adjudicator(job.adjudication, referee_engine)
        referee = Referee(rules, players, komi=job.komi, move_limit=job.move_limit,
                          use_internal_scorer=job.use_internal_scorer,
                          handicap_stones=len(self.handicap_points),
                          handicap_compensation=job.internal_scorer_handicap_compensation,
                          clock=clock, referee_engine=referee_engine, adjudicator=adjudicator,
                          opening=self.opening_moves)
        if job.opening is not None:
            first = job.opening.first_player(rules.first_player())
        else:
            first = "w" if self.handicap_points else rules.first_player()
        return referee.play(first)

    def fingerprint(self, game: RefereedGame) -> str | None:
        stones = self.start + [("b", p) for p in self.handicap_points + self.setup_points]
        return fingerprint(self.job.board_size, stones,
                           [(colour, move) for colour, move, _ in game.moves])

    def write_record(self, game: RefereedGame | None, result: GameResult | None,
                     engines: dict[Colour, EngineNames], durable: bool,
                     void_reason: str | None = None) -> str | None:
        if game is None:
            return write_game_record(self.job, PlayedGame(void_reason=void_reason))
        return write_game_record(self.job, PlayedGame(
            moves=game.moves, result=result, notes=game.notes,  # type: ignore[attr-defined]
            late_errors=game.late_errors, engines=engines,
            handicap_points=self.handicap_points + self.setup_points,
            clock_marks=game.clock_marks), durable=durable)  # type: ignore[attr-defined]


class PigGameReferee:
    """Pig: the PigReferee throws dice seeded from the game's id; a JSON record."""

    record_extension = ".json"

    def __init__(self, job: GameJob) -> None:
        self.job = job
        self.seed = dice_seed(job)
        self.rules = PigRules.from_options(dict(job.rules_options))

    def prepare(self, controllers: dict[Colour, GtpController],
                referee_engine: RefereeEngine | None = None) -> None:
        pass

    def play(self, controllers: dict[Colour, GtpController], clock: GameClock | None = None,
             referee_engine: RefereeEngine | None = None) -> RefereedGame:
        # The control file refuses a time control, a referee and openings for Pig.
        codes = {"b": self.job.player_b.code, "w": self.job.player_w.code}
        return PigReferee(self.rules, controllers, codes, Dice(self.seed)).play()

    def fingerprint(self, game: RefereedGame) -> str | None:
        return None

    def write_record(self, game: RefereedGame | None, result: GameResult | None,
                     engines: dict[Colour, EngineNames], durable: bool,
                     void_reason: str | None = None) -> str | None:
        names = {c: engines[c].short or "" for c in engines}
        return write_pig_record(self.job, self.seed, result, names, durable=durable, game=game,
                                rules=self.rules if game is not None else None,
                                void_reason=void_reason)


REFEREES: dict[str, type[BoardGameReferee] | type[PigGameReferee]] = {
    "go": BoardGameReferee,
    "othello": BoardGameReferee,
    "pig": PigGameReferee,
}
"""The referee of each game (rules.GAMES): how it is played and recorded."""


def play_game_job(job: GameJob, factory: ChannelFactory = subprocess_channel,
                  keep_engines: bool = True) -> GameJobResult:
    """Play a game job, starting its engines through factory, and write its record.

    keep_engines false: no engine is kept for the worker's next game, whatever
    the players' reuse (see GameEngines). Raises JobFailed (a void game, whose
    record goes to the job's void directory) if the game can't start, or if an
    engine's failure reaches here (the referee should have made it a forfeit).
    """
    if job.service_token is not None:   # this worker's sweeps spare the run's services
        reaper.accept_service_token(job.service_token)
    referee = REFEREES[job.game](job)
    try:
        return _play(job, factory, referee, keep_engines)
    except JobFailed as exc:
        referee.write_record(None, None, {}, durable=True, void_reason=str(exc))
        raise
    except (GtpChannelError, BadGtpResponse) as exc:   # an engine's failure not caught nearer:
        reason = f"aborting game due to error: {exc}"   # its fault, never our bug
        referee.write_record(None, None, {}, durable=True, void_reason=reason)
        raise JobFailed(reason) from None


def _play(job: GameJob, factory: ChannelFactory, referee: GameReferee,
          keep_engines: bool) -> GameJobResult:
    setup = get_rules_class(job.game).setup_commands(job.board_size, job.komi, job.rules_options)
    clock = game_clock(job)
    with ExitStack() as stack:
        engines = GameEngines(job, factory, stack, keep_engines)
        referee_engine = None
        if job.referee is not None:
            referee_engine = RefereeEngine(engines.launch_referee, setup)
            stack.callback(referee_engine.abandon)
        try:
            # After the set-up, in the same write: each engine told its clock its own way.
            answers = engines.start(setup, None if clock is None else clock.settings_commands)
            if clock is not None:
                for colour, responses in answers.items():
                    clock.note_failures(colour, engines.controllers[colour], responses)
            referee.prepare(engines.controllers, referee_engine)
        except (GtpChannelError, BadGtpResponse) as exc:
            raise JobFailed(f"aborting game due to error: {exc}") from None
        game = referee.play(engines.controllers, clock, referee_engine)
        descriptions = engines.descriptions
        cpu_times = engines.finish(not game.is_forfeit and not game.late_errors, game.late_errors)
        if referee_engine is not None:
            closing = referee_engine.close()
            if closing is not None:
                game.late_errors.append(closing)
    return _finish(job, game, referee, descriptions, cpu_times, clock)


def _finish(job: GameJob, game: RefereedGame, referee: GameReferee,
            descriptions: dict[str, EngineDescription],
            cpu_times: dict[str, float | None], clock: GameClock | None = None) -> GameJobResult:
    specs = {"b": job.player_b, "w": job.player_w}
    codes = {c: specs[c].code for c in ("b", "w")}
    result = GameResult(
        game_id=job.game_id, player_b=codes["b"], player_w=codes["w"],
        winning_colour=game.winning_colour, sgf_result=game.sgf_result,
        detail=game.detail, is_forfeit=game.is_forfeit,
        cpu_times={codes[c]: cpu_times[c] for c in ("b", "w")},
        is_adjudicated=game.is_adjudicated)
    warnings = []
    if game.is_forfeit:
        warnings.append(f"game {job.game_id}: {game.detail}")
    warnings += [f"game {job.game_id}: late error: {e}" for e in game.late_errors]
    warnings += [f"game {job.game_id}: {w}" for w in game.warnings]
    if clock is not None:
        warnings += [f"game {job.game_id}: {w}" for w in clock.warnings]
    # The fsyncs are left to the coordinator where it can do them: at -j N they
    # held this game's worker (and its next game) until the disk answered.
    engines = {c: EngineNames(descriptions[c].short, descriptions[c].long) for c in ("b", "w")}
    pathname = referee.write_record(game, result, engines, durable=not job.coordinator_syncs_record)
    attempt = pathname if job.commit_record else None
    return GameJobResult(
        game_id=job.game_id, game_data=job.game_data, game_result=result,
        engine_names={codes[c]: descriptions[c].short or "" for c in ("b", "w")},
        engine_descriptions={codes[c]: descriptions[c].long or "" for c in ("b", "w")},
        warnings=warnings, moves=len(game.moves),
        record=record_pathname(job, True, referee.record_extension) if attempt else pathname,
        record_attempt=attempt, record_synced=not job.coordinator_syncs_record,
        clock_use={} if clock is None else {codes[c]: use for c, use in clock.use.items()},
        fingerprint=referee.fingerprint(game),
        opening=None if job.opening is None else job.opening.name)
