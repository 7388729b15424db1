"""Game jobs: everything a worker needs to play one game, and what it sends back."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from ringmaster.game.clock import DEFAULT_TIME_MARGIN, TimeControl
from ringmaster.game.result import GameResult
from ringmaster.game.timekeeper import ClockUse


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
      time_control     -- the player's own time_control setting (time odds), in its
                          words ('absolute 30', 'none'); None: the game's
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
    time_control: str | None = None

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
                            fsyncs and its pathname returned, for the coordinator to
                            make durable before it counts the game (where the two
                            share a filesystem: not on a cluster)
      time_control_b, time_control_w -- each side's TimeControl, or None: not timed
      time_margin        -- seconds a move may overrun its clock before it loses on time
    """

    game_id: str
    player_b: PlayerSpec
    player_w: PlayerSpec
    board_size: int
    komi: float
    game_data: Any = None
    game: str = "go"
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
    time_control_b: TimeControl | None = None
    time_control_w: TimeControl | None = None
    time_margin: float = DEFAULT_TIME_MARGIN


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
      unsynced_record     -- the record's pathname, if the job left its fsyncs to
                             the coordinator (GameJob.coordinator_syncs_record)
      clock_use           -- {player code: ClockUse} for each timed side
    """

    game_id: str
    game_data: Any
    game_result: GameResult
    engine_names: dict[str, str] = field(default_factory=dict)
    engine_descriptions: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    moves: int = 0
    unsynced_record: str | None = None
    clock_use: dict[str, ClockUse] = field(default_factory=dict)


def engine_environment(spec: PlayerSpec, game_id: str, slot: int | None) -> dict[str, str]:
    """The environment an engine is started with: ours, its own extras, and the game id."""
    env = dict(os.environ)
    env.update(dict(spec.environ))
    env["RINGMASTER_GAME_ID"] = game_id
    env["GOMILL_GAME_ID"] = game_id
    for name in ("RINGMASTER_SLOT", "GOMILL_SLOT"):
        if slot is None:
            env.pop(name, None)
        else:
            env[name] = str(slot)
    return env
