"""Game rules for the referee, by game name: the only place the referee learns what a move is."""

from __future__ import annotations

from ringmaster.rules.base import Rules

_RULES = {
    "go": ("ringmaster.rules.go", "GoRules"),
    "othello": ("ringmaster.rules.othello", "OthelloRules"),
}

GAMES = tuple(_RULES)


def get_rules(game: str, board_size: int) -> Rules:
    """Return a fresh Rules object for a new game.

    Raises ValueError for an unknown game or a board size the game can't use.
    """
    import importlib
    try:
        module_name, class_name = _RULES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls(board_size)
