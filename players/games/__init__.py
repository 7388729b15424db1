"""Registry of games for search: name -> Game factory."""

from __future__ import annotations

from typing import Callable

from players.games.base import Game

_FACTORIES: dict[str, str] = {
    "go": "players.games.go:GoGame",
    "othello": "players.games.othello:Othello",
}


def register(name: str, target: str) -> None:
    """Register a game factory as 'module:attribute' under name."""
    _FACTORIES[name] = target


def make_game(name: str, **kwargs) -> Game:
    """Build the game registered under name with kwargs.

    Raises ValueError if no game has that name.
    """
    import importlib

    try:
        target = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}") from None
    module_name, attr = target.split(":")
    factory: Callable[..., Game] = getattr(importlib.import_module(module_name), attr)
    return factory(**kwargs)


__all__ = ["Game", "make_game", "register"]
