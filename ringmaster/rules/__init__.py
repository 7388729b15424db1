"""Game rules for the referee, by game name: the registry of games, one module each here."""

from __future__ import annotations

import importlib

from ringmaster.rules.base import Rules

# A new game is one module here, with a Rules subclass, and one line in this registry.
_RULES = {
    "go": ("ringmaster.rules.go", "GoRules"),
    "othello": ("ringmaster.rules.othello", "OthelloRules"),
    "pig": ("ringmaster.rules.pig", "PigRules"),
}

GAMES = tuple(_RULES)


def get_rules_class(game: str) -> type[Rules]:
    """The Rules class of a game, for its facts (board sizes, SGF number, scoring, handicap).

    Raises ValueError for an unknown game.
    """
    try:
        module_name, class_name = _RULES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None
    return getattr(importlib.import_module(module_name), class_name)


def get_rules(game: str, board_size: int) -> Rules:
    """Return a fresh Rules object for a new game.

    Raises ValueError for an unknown game or a board size the game can't use.
    """
    return get_rules_class(game)(board_size)
