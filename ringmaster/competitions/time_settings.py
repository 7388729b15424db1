"""The time_control and time_margin settings: each player's clock, what the state keeps, no clock for Pig."""

from __future__ import annotations

from typing import Any

from ringmaster.default_game import game_of
from ringmaster.errors import ControlFileError
from ringmaster.game.clock import NONE
from ringmaster.game.job import PlayerSpec
from ringmaster.rules import get_rules_class
from ringmaster.settings import interpret_float


def interpret_time_margin(value: Any) -> float:
    """time_margin: seconds, 0 or more."""
    value = interpret_float(value)
    if value < 0:
        raise ValueError("must not be negative")
    return value


def player_time_control(settings: dict[str, Any], player: PlayerSpec) -> str:
    """The time control a player's games are played at: its own, else the game's ('none')."""
    if player.time_control is not None:
        return player.time_control
    return settings.get("time_control") or NONE


def effective_time_control(settings: dict[str, Any], players: tuple[PlayerSpec, ...]) -> str:
    """The game's time_control, or where a player has its own, each player's
    ('p1: absolute 30, p2: absolute 60')."""
    game = settings.get("time_control") or NONE
    if all(p.time_control in (None, game) for p in players):
        return game
    return ", ".join(f"{p.code}: {player_time_control(settings, p)}" for p in players)


def _no_clock(game: str) -> str:
    return f"{game} has no clock; remove the setting (or make it 'none')"


def check_game_clock(settings: dict[str, Any], context: str = "") -> None:
    """Raise ControlFileError if a game without a clock (Pig: Rules.has_clock) has a
    time_control. context is '' for top-level settings, or 'matchup 0: '..."""
    game = game_of(settings)
    if not get_rules_class(game).has_clock and (settings.get("time_control") or NONE) != NONE:
        raise ControlFileError(f"{context}'time_control': {_no_clock(game)}",
                               setting=None if context else "time_control")


def check_player_clocks(settings: dict[str, Any], players: tuple[PlayerSpec, ...],
                        context: str = "") -> None:
    """Raise ControlFileError if a player has a time control of its own in a game without
    a clock (Pig). context as for check_game_clock."""
    game = game_of(settings)
    if get_rules_class(game).has_clock:
        return
    for player in players:
        if player.time_control not in (None, NONE):
            raise ControlFileError(f"{context}player {player.code}: 'time_control': "
                                   f"{_no_clock(game)}")
