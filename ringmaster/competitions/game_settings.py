"""The game settings: their table, their checks, what a report names and what the state keeps of them."""

from __future__ import annotations

from typing import Any

from ringmaster.competitions.openings import interpret_openings
from ringmaster.competitions.referee_settings import interpret_adjudication_setting, saved_referee
from ringmaster.competitions.time_settings import (
    check_game_clock,
    effective_time_control,
    interpret_time_margin,
)
from ringmaster.default_game import DEFAULT_GAME, game_of
from ringmaster.errors import ControlFileError
from ringmaster.game.clock import DEFAULT_TIME_MARGIN, NONE, canonical_time_control
from ringmaster.game.job import PlayerSpec
from ringmaster.rules import GAMES, get_rules_class
from ringmaster.settings import (
    Setting,
    interpret_enum,
    interpret_float,
    interpret_optional,
    interpret_positive_int,
)


def _interpret_board_size(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError("invalid integer")
    if value < 1:
        raise ValueError("too small")
    return value


def _interpret_handicap(value: Any) -> int:
    value = interpret_positive_int(value)
    if value < 2:
        raise ValueError("must be at least 2")
    return value


# Settings that describe the game itself; also allowed per matchup in playoffs.
GAME_SETTINGS = [
    Setting("game", interpret_enum(*GAMES), default=DEFAULT_GAME),
    Setting("board_size", _interpret_board_size, default=None),
    Setting("komi", interpret_float, default=None),
    Setting("handicap", interpret_optional(_interpret_handicap), default=None),
    Setting("handicap_style", interpret_enum("fixed", "free"), default="fixed"),
    Setting("move_limit", interpret_positive_int, default=1000),
    Setting("scorer", interpret_enum("internal", "players"), default="players"),
    Setting("internal_scorer_handicap_compensation",
            interpret_enum("no", "full", "short"), default="full"),
    Setting("time_control", canonical_time_control, default=NONE),
    Setting("time_margin", interpret_time_margin, default=DEFAULT_TIME_MARGIN),
    Setting("adjudication", interpret_optional(interpret_adjudication_setting), default=None),
    Setting("openings", interpret_optional(interpret_openings), default=None),
] + [Setting(s.name, s.interpreter, default=None)   # None: not given (rules_options)
     for game in GAMES for s in get_rules_class(game).option_settings]

# The game that owns each game's own setting ('pig_target': 'pig').
OPTION_GAMES = {s.name: game for game in GAMES for s in get_rules_class(game).option_settings}


SAVED_GAME_SETTINGS = ("board_size", "komi", "handicap", "game", "time_control", "time_margin")


def saved_game_settings(settings: dict[str, Any], players: tuple[PlayerSpec, ...] = (),
                        referee: PlayerSpec | None = None) -> dict[str, Any]:
    """What a later run must not change: the settings of SAVED_GAME_SETTINGS that a game's
    settings give, the game's own settings (Pig's pig_target...) with their defaults, the
    opening suite (its description, with a digest of its openings) and the referee engine's
    command ('none' for neither). time_control is both sides' (see effective_time_control);
    time_margin is left out when no side is timed (it means nothing then)."""
    saved = {name: settings[name] for name in SAVED_GAME_SETTINGS if name in settings}
    if "time_control" in saved:
        saved["time_control"] = effective_time_control(settings, players)
        if saved["time_control"] == NONE:
            saved.pop("time_margin", None)
    saved["openings"] = settings.get("openings") or NONE
    saved["referee"] = saved_referee(referee)
    options = get_rules_class(game_of(settings)).default_options
    return {**saved, **options, **rules_options(settings)}


def rules_options(settings: dict[str, Any]) -> dict[str, Any]:
    """The game's own settings that were given (Rules.option_settings: Pig's pig_target...)."""
    rules = get_rules_class(game_of(settings))
    return {name: settings[name] for name in rules.default_options
            if settings.get(name) is not None}

def effective_game_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """settings with the game's own settings that weren't given at their defaults: the values
    games are played under (Pig's pig_target 50 where the control file gives none). scorer
    is 'internal' for a game whose players are never asked the score (Othello, Pig)."""
    rules = get_rules_class(game_of(settings))
    effective = {**settings, **rules.default_options, **rules_options(settings)}
    if not rules.players_may_score:
        effective["scorer"] = "internal"
    return effective


def describe_game_settings(settings: dict[str, Any]) -> list[str]:
    """How a report names the settings games are played under: the game unless it is
    the default, then what its rules say ('board size: 9', 'komi: 7.5'; Pig's target...)."""
    game = game_of(settings)
    details = get_rules_class(game).setting_details(settings.get("board_size"), settings.get("komi"),
                                                    rules_options(settings))
    return details if game == DEFAULT_GAME else [f"game: {game}", *details]


def check_game_settings(settings: dict[str, Any], context: str = "") -> None:
    """Check that the game's rules allow its board size and handicap.

    context is '' for top-level settings, or a prefix such as 'matchup 0: '.
    Raises ControlFileError naming the setting.
    """
    game = game_of(settings)
    rules = get_rules_class(game)
    for name, owner in OPTION_GAMES.items():
        if settings.get(name) is not None and name not in rules.default_options:
            raise ControlFileError(f"{context}'{name}' is a setting of game {owner!r}, not {game!r}",
                                   setting=None if context else name)
    check_game_clock(settings, context)
    if not rules.uses_board:
        if settings.get("openings") is not None:
            raise ControlFileError(f"{context}'openings': {game} has no board to play openings on",
                                   setting=None if context else "openings")
        return
    if settings.get("openings") is not None and settings.get("handicap"):
        raise ControlFileError(f"{context}'openings' and 'handicap' can't go together: give the "
                               "handicap stones in the openings (AB)",
                               setting=None if context else "openings")
    # A playoff's top-level settings hold only those given; complete settings hold them all.
    for name in ("board_size", "komi"):
        if name in settings and settings[name] is None:
            raise ControlFileError(f"{context}'{name}' not specified",
                                   setting=None if context else name)
    size = settings["board_size"]
    reason = rules.board_size_error(size)
    if reason is not None:
        raise ControlFileError(f"{context}'board_size': {reason}",
                               setting=None if context else "board_size")
    _check_komi(settings.get("komi"), size, context)
    handicap = settings.get("handicap")
    if handicap is not None:
        reason = rules.handicap_error(size, handicap, settings.get("handicap_style") or "fixed")
        if reason is not None:
            raise ControlFileError(f"{context}{reason}",
                                   setting=None if context else "handicap")


def _check_komi(komi: float | None, board_size: int, context: str) -> None:
    """Raise ControlFileError if komi is more points than the board has, either way: it could
    decide nothing more, and is surely a mistake (1e300 would reach the records in full)."""
    points = board_size * board_size
    if komi is not None and abs(komi) > points:
        raise ControlFileError(f"{context}'komi': must be from -{points} to {points} "
                               f"(the {board_size}x{board_size} board's points)",
                               setting=None if context else "komi")
