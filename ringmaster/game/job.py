"""Game jobs: everything a worker needs to play one game, and what it sends back."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ringmaster.default_game import DEFAULT_GAME
from ringmaster.game.adjudication import Adjudication
from ringmaster.game.clock import DEFAULT_TIME_MARGIN, TimeControl
from ringmaster.game.opening import Opening
from ringmaster.game.result import GameResult
from ringmaster.game.timekeeper import ClockUse
from ringmaster.gtp.launch import SERVICE_TOKEN_VARIABLE


@dataclass(frozen=True)
class PlayerSpec:
    """How to start and talk to one engine (built from a control file's Player).

    Public attributes:
      code             -- the player's code in the control file
      command          -- argv, resolved (no shell is used)
      cwd, environ     -- working directory (None: ours) and extra environment
      startup_gtp_commands -- [(command, [args])] sent before each game
      gtp_aliases      -- {command: command actually sent}
      timeout          -- seconds allowed for any one response (None: no limit)
      reuse            -- keep the engine for the worker's next game with this player
      shared_services  -- it may start a shared service that outlives its game
                          (it is given the run's service token: gtp/launch.py)
      time_control     -- the player's own time_control setting (time odds), in its
                          words ('absolute 30', 'none'); None: the game's
      missing_hint     -- what to tell the user if the program can't be started (how to
                          get it, or the variable naming it); None: our own advice
      gtp_ids          -- send each command with an id ('7 genmove b'); False for an
                          engine that can't take them (gtp.channel)
    """

    code: str
    command: tuple[str, ...]
    cwd: str | None = None
    environ: tuple[tuple[str, str], ...] = ()
    startup_gtp_commands: tuple[tuple[str, tuple[str, ...]], ...] = ()
    gtp_aliases: tuple[tuple[str, str], ...] = ()
    is_reliable_scorer: bool = True
    allow_claim: bool = False
    discard_stderr: bool = False
    sgf_player_name_from_gtp: bool = True
    timeout: float | None = None
    reuse: bool = False
    shared_services: bool = False
    time_control: str | None = None
    missing_hint: str | None = None
    gtp_ids: bool = True

    def with_code(self, code: str) -> PlayerSpec:
        return PlayerSpec(**{**self.__dict__, "code": code})


@dataclass
class GameJob:
    """One game to play: plain, picklable data, with no open files or processes.

    The job loop hands it to a play function (game.play.play_game_job).

    Public attributes:
      game_id, game_data -- the competition's id and its own data for this game
      player_b, player_w -- PlayerSpecs
      game, board_size, komi, handicap, handicap_style, move_limit
      rules_options      -- the game's own settings (Pig: pig_target, pig_max_turns)
      use_internal_scorer, internal_scorer_handicap_compensation
      sgf_dirname        -- where to write the game's record (None: don't)
      void_sgf_dirname   -- where to write a void game's record (None: don't)
      sgf_event, sgf_game_name, sgf_note -- text for the SGF root
      gtp_log_pathname   -- transcript file, or None
      stderr_pathname    -- engines' stderr is appended here, or None to discard
      coordinator_syncs_record -- the played game's record is written without its
                            fsyncs, for the coordinator to make durable before it
                            counts the game (where the two share a filesystem: not on
                            a cluster)
      service_token      -- the run's token for shared services (gtp/launch.py), or None
      commit_record      -- the played game's record is written under a name of this
                            attempt's own (records.attempt_pathname), returned in the
                            result, for the coordinator to rename into place when it
                            counts the game: a replay or an orphaned attempt can never
                            replace a counted game's record
      time_control_b, time_control_w -- each side's TimeControl, or None: not timed
      time_margin        -- seconds a move may overrun its clock before it loses on time
      opening            -- the Opening played before the first genmove, or None
      referee            -- the referee engine's PlayerSpec (code 'referee'), or None
      adjudication       -- when the referee engine's score ends the game (Adjudication), or None
    """

    game_id: str
    player_b: PlayerSpec
    player_w: PlayerSpec
    board_size: int
    komi: float
    game_data: Any = None
    game: str = DEFAULT_GAME
    handicap: int | None = None
    handicap_style: str = "fixed"
    move_limit: int = 1000
    use_internal_scorer: bool = False
    internal_scorer_handicap_compensation: str = "full"
    sgf_dirname: str | None = None
    void_sgf_dirname: str | None = None
    sgf_event: str | None = None
    sgf_game_name: str | None = None
    sgf_note: str | None = None
    gtp_log_pathname: str | None = None
    stderr_pathname: str | None = None
    slot: int | None = None
    rules_options: dict[str, Any] = field(default_factory=dict)
    coordinator_syncs_record: bool = False
    commit_record: bool = False
    service_token: str | None = None
    time_control_b: TimeControl | None = None
    time_control_w: TimeControl | None = None
    time_margin: float = DEFAULT_TIME_MARGIN
    opening: Opening | None = None
    referee: PlayerSpec | None = None
    adjudication: Adjudication | None = None


@dataclass
class GameJobResult:
    """What a finished game job reports back to the competition.

    Public attributes:
      game_id, game_data  -- as in the job
      game_result         -- GameResult
      engine_names        -- {player code: 'name:version'}
      engine_descriptions -- {player code: longer description}
      warnings            -- messages for the user (forfeits, late errors)
      moves               -- number of moves played (passes included)
      record              -- the played game's record's pathname, or None
      record_attempt      -- where this attempt wrote it, to be renamed to record by
                             the coordinator (GameJob.commit_record), or None
      record_synced       -- whether the worker made the record durable (its fsyncs)
      clock_use           -- {player code: ClockUse} for each timed side
      fingerprint         -- the game's moves from its start, hashed the same under the
                             board's symmetries (rules.symmetry), or None (Pig)
      opening             -- the name of the opening it started from, or None
    """

    game_id: str
    game_data: Any
    game_result: GameResult
    engine_names: dict[str, str] = field(default_factory=dict)
    engine_descriptions: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    moves: int = 0
    record: str | None = None
    record_attempt: str | None = None
    record_synced: bool = True
    clock_use: dict[str, ClockUse] = field(default_factory=dict)
    fingerprint: str | None = None
    opening: str | None = None


def engine_environment(spec: PlayerSpec, game_id: str, slot: int | None,
                       service_token: str | None = None) -> dict[str, str]:
    """The environment an engine is started with: ours, its own extras, the game id, and
    the run's service token if the player may start shared services (gtp/launch.py)."""
    env = dict(os.environ)
    env.update(dict(spec.environ))
    env.pop(SERVICE_TOKEN_VARIABLE, None)   # from ours or its extras: never a token it forged
    if spec.shared_services and service_token:
        env[SERVICE_TOKEN_VARIABLE] = service_token
    env["RINGMASTER_GAME_ID"] = game_id
    env["GOMILL_GAME_ID"] = game_id
    for name in ("RINGMASTER_SLOT", "GOMILL_SLOT"):
        if slot is None:
            env.pop(name, None)
        else:
            env[name] = str(slot)
    return env
