"""The game registry: every game our engines, the search and the training pipeline play, by name."""

from __future__ import annotations

import re
from collections.abc import Callable

from players.games.base import Game

# Each game's module is imported when the game is first made, so that a light
# game doesn't pay for a heavy one's imports (Go's compiles with numba).


def _go() -> Callable[..., Game]:
    from players.games.go import GoGame
    return GoGame


def _go_sensible() -> Callable[..., Game]:
    from players.games.go_sensible import GoSensible
    return GoSensible


def _go_light() -> Callable[..., Game]:
    from players.games.go_light import LightGo
    return LightGo


def _othello() -> Callable[..., Game]:
    from players.games.othello import Othello
    return Othello


def _pig() -> Callable[..., Game]:
    from players.games.pig import Pig
    return Pig


# name -> the game's factory (its class), found when the game is first made.
GAMES: dict[str, Callable[[], Callable[..., Game]]] = {
    "go": _go,
    "go-sensible": _go_sensible,
    "go-light": _go_light,
    "othello": _othello,
    "pig": _pig,
}

# What a sized name such as 'othello6' or 'go9' (the pipeline's, the checkpoints'
# and the control files' names) stands for: the game registered under this name,
# built with the size.
SIZED: dict[str, str] = {
    "go": "go-sensible",
    "othello": "othello",
    "pig": "pig",
}


def make_game(name: str, **kwargs) -> Game:
    """Build a game: a registered name with kwargs ('go', size=9), or a sized name ('go9').

    Raises ValueError for an unknown name, or for a size or argument the game refuses.
    """
    if name in GAMES:
        return _factory(name)(**kwargs)
    if not is_game_name(name):
        raise ValueError(f"unknown game {name!r} (expected one of {', '.join(GAMES)}, "
                         "or a sized name such as othello6, go9 or pig50)")
    family, size = _SIZED_NAME.fullmatch(name).groups()
    return _factory(SIZED[family])(int(size), **kwargs)


_SIZED_NAME = re.compile(r"([a-z]+)(\d+)")


def is_game_name(name: str) -> bool:
    """Whether make_game knows the name: a registered name, or a sized name of a SIZED game."""
    match = _SIZED_NAME.fullmatch(name)
    return name in GAMES or (match is not None and match.group(1) in SIZED)


def _factory(name: str) -> Callable[..., Game]:
    return GAMES[name]()


__all__ = ["GAMES", "SIZED", "Game", "is_game_name", "make_game"]
