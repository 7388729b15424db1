"""The interface every competition type offers the ringmaster, and what they all share."""

from __future__ import annotations

import os
import re
import shlex
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, TextIO

from ringmaster.competitions.game_settings import GAME_SETTINGS, rules_options
from ringmaster.competitions.openings import Openings
from ringmaster.competitions.referee_settings import (
    REFEREE_CODE,
    adjudication_of,
    check_referee_settings,
)
from ringmaster.competitions.time_settings import player_time_control
from ringmaster.default_game import DEFAULT_GAME, game_of
from ringmaster.errors import ControlFileError
from ringmaster.files import decodable
from ringmaster.game.clock import DEFAULT_TIME_MARGIN, canonical_time_control, parse_time_control
from ringmaster.game.job import GameJob, GameJobResult, PlayerSpec
from ringmaster.settings import (
    Player,
    Setting,
    interpret_any,
    interpret_bool,
    interpret_identifier,
    interpret_map,
    interpret_one_line,
    interpret_optional,
    interpret_shlex_sequence,
    interpret_str,
    interpret_timeout,
    load_settings,
)

DEFAULT_TIMEOUT = 300.0

INHERITED = object()
"""A Player's setting left unset: the top-level setting's value applies."""


class NoGameAvailable:
    """Returned by get_game() when no game can be started now."""


NO_GAME = NoGameAvailable()


@dataclass(frozen=True)
class Setup:
    """A board a player is set up on: what Rules.setup_commands takes."""

    board_size: int
    komi: float
    game: str = DEFAULT_GAME
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Setup:
        """The board a game's settings set up, with the game's own settings given there
        (rules_options: Pig's pig_target...), as its games are."""
        return cls(settings["board_size"], settings["komi"], game_of(settings),
                   tuple(rules_options(settings).items()))


@dataclass(frozen=True)
class PlayerCheck:
    """A start-up check: start the engine, set up each board it will play on, check it has the
    commands the competition needs, and close it.

    Public attributes:
      setup -- the board it is set up on first
      matchup -- the id of the matchup whose board setup is, for a failure's message
               (None: the competition has no matchups, as a tuner)
      needs -- ((GTP command, what needs it), ...): a missing one fails the check
      timed -- the player plays at a time control: an engine with no time command is
               named in a warning (it is timed all the same)
      more_boards -- the other boards its other matchups set it up on, each
               (matchup id, Setup), set up in turn after the first
    """

    player: PlayerSpec
    setup: Setup
    needs: tuple[tuple[str, str], ...] = ()
    timed: bool = False
    more_boards: tuple[tuple[str, Setup], ...] = ()
    matchup: str | None = None


def handicap_needs(settings: dict[str, Any], as_black: bool,
                   as_white: bool) -> tuple[tuple[str, str], ...]:
    """The handicap commands a player needs in a game's settings, playing black, white or both:
    ((command, what needs it), ...)."""
    stones = settings.get("handicap")
    if not stones:
        return ()
    style = settings.get("handicap_style") or "fixed"
    why = f"handicap {stones} ({style})"
    if style == "fixed":
        return (("fixed_handicap", why),) if as_black or as_white else ()
    return ((("place_free_handicap", why),) if as_black else ()) + (
        (("set_free_handicap", why),) if as_white else ())


COMMON_SETTINGS = [
    Setting("description", interpret_str, default=None),
    Setting("record_games", interpret_bool, default=True),
    Setting("stderr_to_log", interpret_bool, default=True),
    Setting("skip_player_checks", interpret_bool, default=False),
    Setting("timeout", interpret_timeout, default=DEFAULT_TIMEOUT, explicit_none=True),
    Setting("reuse_engines", interpret_bool, default=False),
    Setting("players", interpret_map),
    Setting(REFEREE_CODE, interpret_any, default=None),
]

PLAYER_SETTINGS = [
    Setting("command", interpret_shlex_sequence),
    Setting("cwd", interpret_str, default=None),
    Setting("environ", interpret_map, default={}),
    Setting("is_reliable_scorer", interpret_bool, default=True),
    Setting("allow_claim", interpret_bool, default=False),
    Setting("gtp_aliases", interpret_map, default={}),
    Setting("startup_gtp_commands", interpret_any, default=[]),
    Setting("discard_stderr", interpret_bool, default=False),
    Setting("sgf_player_name_from_gtp", interpret_bool, default=True),
    Setting("timeout", interpret_timeout, default=INHERITED, explicit_none=True),
    Setting("reuse", interpret_optional(interpret_bool), default=None),
    Setting("shared_services", interpret_bool, default=False),
    Setting("time_control", interpret_optional(canonical_time_control), default=None),
    Setting("missing_hint", interpret_optional(interpret_one_line), default=None),
    Setting("gtp_ids", interpret_bool, default=True),
]


# One GTP command word: no whitespace (which would split it), no control character (a
# newline would end the command and start another), no '#' (which starts a comment).
_GTP_COMMAND_WORD = re.compile(r"[^\s\x00-\x1f\x7f-\x9f#]+")


def gtp_aliases(items: list[tuple[Any, Any]], context: str) -> tuple[tuple[str, str], ...]:
    """A Player's gtp_aliases, each command and its alias checked to be one GTP command word
    (a bad alias would be sent to the engine and charged to it as an unknown command).

    Raises ControlFileError naming the player and the alias.
    """
    aliases = []
    for key, value in items:
        if not isinstance(key, str) or not isinstance(value, str):
            raise ControlFileError(f"{context}: 'gtp_aliases': must map strings to strings")
        for role, word in (("command", key), ("alias", value)):
            if not _GTP_COMMAND_WORD.fullmatch(word):
                problem = "is empty" if not word else (
                    "is not one GTP command word (no spaces, control characters or '#')")
                raise ControlFileError(
                    f"{context}: 'gtp_aliases': {{{key!r}: {value!r}}}: the {role} {problem}")
        aliases.append((key, value))
    return tuple(aliases)


class Competition(ABC):
    """A competition: decides which games to play and makes sense of the results.

    The ringmaster drives it: it reads the control file into it, gives it its
    state (or asks it to start clean), asks it for games, and hands it results.

    Public attributes:
      competition_code -- the control file's name without .ctl (as text: any bytes of the
                          name that aren't UTF-8 become U+FFFD)
      base_directory   -- the control file's directory (relative paths start there)
      pending_history  -- lines for the history file, taken by the ringmaster
      pending_log      -- lines for the event log, taken by the ringmaster
    """

    competition_type: str = ""
    status_format_version: int = 1

    def __init__(self, competition_code: str, base_directory: str = ".") -> None:
        self.competition_code = decodable(competition_code)   # it goes into SGF and reports
        self.base_directory = base_directory
        self.pending_history: list[str] = []
        self.pending_log: list[str] = []
        self.description: str | None = None
        # Warnings about the control file found while reading it: (line or None, message).
        self.control_file_warnings: list[tuple[int | None, str]] = []
        # What refuses the control file for a new event only (no state yet: a fresh run, `check`),
        # which an older ringmaster allowed: a state written with it loads (set_status clears them).
        # make_competition locates them in the file.
        self.new_event_refusals: list[ControlFileError] = []

    # Control file

    @classmethod
    def control_file_globals(cls) -> dict[str, Any]:
        """Names a control file of this type can use without defining them."""
        return {"Player": Player, "Openings": Openings}

    @classmethod
    def known_settings(cls) -> set[str]:
        """Every top-level setting name this type reads (for spotting misspellings)."""
        return {s.name for s in COMMON_SETTINGS + GAME_SETTINGS} | {"competition_type"}

    @abstractmethod
    def initialise_from_control_file(self, config: dict[str, Any]) -> None:
        """Read the control file's settings. Raises ControlFileError naming the setting."""

    def load_common_settings(self, config: dict[str, Any]) -> dict[str, Any]:
        """Check the settings all competitions share and build the players."""
        settings = load_settings(COMMON_SETTINGS, config)
        self.description = settings["description"].strip() if settings["description"] else None
        self.record_games = settings["record_games"]
        self.stderr_to_log = settings["stderr_to_log"]
        self.skip_player_checks = settings["skip_player_checks"]
        self.default_timeout = settings["timeout"]
        self.default_reuse = settings["reuse_engines"]
        self.players: dict[str, PlayerSpec] = {}
        for code, player in settings["players"]:
            try:
                code = interpret_identifier(code)
            except ValueError as exc:
                raise ControlFileError(f"'players': bad code: {exc}", setting="players") from None
            self.players[code] = self.make_player_spec(code, player)
        self.referee: PlayerSpec | None = None
        if settings[REFEREE_CODE] is not None:
            if not isinstance(settings[REFEREE_CODE], Player):
                raise ControlFileError("'referee': not a Player (referee = Player('...'))",
                                       setting=REFEREE_CODE)
            try:
                self.referee = self.make_player_spec(REFEREE_CODE, settings[REFEREE_CODE])
            except ControlFileError as exc:
                raise ControlFileError(str(exc), exc.line, setting=REFEREE_CODE) from None
        return settings

    def check_referee(self, settings: dict[str, Any], context: str = "") -> None:
        """Raise ControlFileError if the game settings ask what the referee engine can't give
        (referee_settings.check_referee_settings)."""
        check_referee_settings(settings, self.referee, context)

    def make_player_spec(self, code: str, player: Any) -> PlayerSpec:
        """Turn a control file's Player into a PlayerSpec, resolving paths.

        Raises ControlFileError naming the player, and the line of its Player(...), if a setting is bad.
        """
        if not isinstance(player, Player):
            raise ControlFileError(f"player {code}: not a Player")
        try:
            return self._checked_player_spec(code, player)
        except ControlFileError as exc:
            raise ControlFileError(str(exc), exc.line or player.line, setting=exc.setting) from None

    def _checked_player_spec(self, code: str, player: Player) -> PlayerSpec:
        context = f"player {code}"
        settings = load_settings(PLAYER_SETTINGS, player.settings, context)
        command = list(settings["command"])
        if "/" in command[0]:
            command[0] = os.path.normpath(
                os.path.join(self.base_directory, os.path.expanduser(command[0])))
        cwd = settings["cwd"]
        if cwd is not None:
            cwd = os.path.normpath(os.path.join(self.base_directory, os.path.expanduser(cwd)))
        environ = []
        for key, value in settings["environ"]:
            if not isinstance(key, str) or not isinstance(value, str):
                raise ControlFileError(f"{context}: 'environ': keys and values must be strings")
            environ.append((key, value))
        aliases = gtp_aliases(settings["gtp_aliases"], context)
        startup = []
        commands = settings["startup_gtp_commands"]
        if isinstance(commands, (str, dict)) or not hasattr(commands, "__iter__"):
            raise ControlFileError(f"{context}: 'startup_gtp_commands': not a list")
        for i, item in enumerate(commands):
            words = shlex.split(item) if isinstance(item, str) else list(item)
            if not words or not all(isinstance(w, str) for w in words):
                raise ControlFileError(
                    f"{context}: 'startup_gtp_commands': item {i}: invalid command")
            startup.append((words[0], tuple(words[1:])))
        timeout = settings["timeout"]
        return PlayerSpec(
            code=code, command=tuple(command), cwd=cwd, environ=tuple(environ),
            startup_gtp_commands=tuple(startup), gtp_aliases=tuple(aliases),
            is_reliable_scorer=settings["is_reliable_scorer"],
            allow_claim=settings["allow_claim"],
            discard_stderr=settings["discard_stderr"],
            sgf_player_name_from_gtp=settings["sgf_player_name_from_gtp"],
            timeout=self.default_timeout if timeout is INHERITED else timeout,
            reuse=self.default_reuse if settings["reuse"] is None else settings["reuse"],
            shared_services=settings["shared_services"],
            time_control=settings["time_control"], missing_hint=settings["missing_hint"],
            gtp_ids=settings["gtp_ids"])

    def player(self, code: str, context: str, setting: str | None = None) -> PlayerSpec:
        """The named player. Raises ControlFileError if there is none (located at setting's line)."""
        try:
            return self.players[code]
        except (KeyError, TypeError):
            raise ControlFileError(f"{context}: unknown player {code}", setting=setting) from None

    def make_game_job(self, game_id: str, player_b: PlayerSpec, player_w: PlayerSpec,
                      game_settings: dict[str, Any], game_data: Any = None,
                      sgf_event: str | None = None, sgf_note: str | None = None) -> GameJob:
        """A GameJob from game settings; the ringmaster fills in paths and slot."""
        return GameJob(
            game_id=game_id, game_data=game_data, player_b=player_b, player_w=player_w,
            game=game_of(game_settings),
            board_size=game_settings.get("board_size") or 0,
            komi=game_settings.get("komi") or 0.0,
            rules_options=rules_options(game_settings),
            handicap=game_settings.get("handicap"),
            handicap_style=game_settings.get("handicap_style", "fixed"),
            move_limit=game_settings.get("move_limit", 1000),
            use_internal_scorer=game_settings.get("scorer", "players") == "internal",
            internal_scorer_handicap_compensation=game_settings.get(
                "internal_scorer_handicap_compensation", "full"),
            sgf_event=sgf_event or self.competition_code,
            sgf_game_name=f"{self.competition_code} {game_id}",
            sgf_note=sgf_note,
            time_control_b=parse_time_control(player_time_control(game_settings, player_b)),
            time_control_w=parse_time_control(player_time_control(game_settings, player_w)),
            time_margin=game_settings.get("time_margin", DEFAULT_TIME_MARGIN),
            referee=getattr(self, "referee", None),
            adjudication=adjudication_of(game_settings))

    def load_code(self) -> None:  # noqa: B027 (most competitions load nothing)
        """Import now the libraries the competition's model and reports load lazily (numpy):
        a run calls it before its first game, so that an interrupt can't land mid-import and
        leave one half-loaded for the report written as the run stops. Nothing here."""

    def refuse_new_event(self) -> None:
        """Raise the first of new_event_refusals (a ControlFileError), if any."""
        if self.new_event_refusals:
            raise self.new_event_refusals[0]

    # State: plain JSON-able data, never pickled objects.

    @abstractmethod
    def set_clean_status(self) -> None:
        """Start with no games played."""

    @abstractmethod
    def get_status(self) -> dict[str, Any]:
        """The competition's state as JSON-able data."""

    @abstractmethod
    def set_status(self, status: dict[str, Any]) -> None:
        """Restore state saved by get_status(); games in flight will be replayed.

        Raises CompetitionError if the state contradicts the control file.
        """

    # Games

    @abstractmethod
    def get_player_checks(self) -> list[PlayerCheck]:
        """The start-up checks to run before playing."""

    @abstractmethod
    def get_game(self) -> GameJob | NoGameAvailable:
        """The next game to play, or NO_GAME."""

    @abstractmethod
    def process_game_result(self, response: GameJobResult) -> str | None:
        """Record a finished game. Returns a line for the screen's results, or None."""

    @abstractmethod
    def process_game_error(self, job: GameJob, previous_error_count: int) -> tuple[bool, bool]:
        """Deal with a void game. Returns (stop_competition, retry_game).

        previous_error_count is the number of void games earlier in this
        competition (all runs). The competition replays a game itself, by
        making its number available to its scheduler again (retry()); the
        ringmaster records retry_game in the log only.
        """

    def game_settings_by_key(self) -> dict[str, dict[str, Any]]:
        """{matchup id, or '' for a tuner: the settings its games are played under}.

        Only board_size, komi, handicap, game, time_control, time_margin, the
        openings and the referee engine (saved_game_settings): the state keeps
        them, so that a later run refuses a control file that changed them.
        """
        return {}

    def uses_clock(self) -> bool:
        """Whether any game is played at a time control (for the -j warning)."""
        return False

    def is_complete(self) -> bool:
        """True when every game the competition wants has been played."""
        return False

    def games_played(self) -> int:
        """Games with a result so far (for progress and the ETA)."""
        return 0

    def games_wanted(self) -> int | None:
        """How many games the whole event will have played when complete; None if unlimited.

        An event that can stop early (an SPRT, stop_when_confident) gives its
        largest count.
        """
        return None

    def log_history(self, text: str) -> None:
        """Add a line to the history file (written with the next saved state)."""
        self.pending_history.append(text)

    def log_event(self, text: str) -> None:
        """Add a line to the event log."""
        self.pending_log.append(text)

    # Reports

    @abstractmethod
    def write_screen_report(self, out: TextIO) -> None:
        """The live display's summary."""

    def write_short_report(self, out: TextIO) -> None:
        """The report file's text."""
        self.write_screen_report(out)

    def write_full_report(self, out: TextIO) -> None:
        """What 'show' prints."""
        self.write_short_report(out)

    def get_json_report(self) -> dict[str, Any]:
        """Every result and statistic as JSON-able data ('show --json')."""
        referee = getattr(self, "referee", None)
        return {"competition_type": self.competition_type,
                "competition_code": self.competition_code,
                "description": self.description,
                "referee": None if referee is None else list(referee.command)}
