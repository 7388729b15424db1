"""Game rules for the referee, by game name: the registry of games, one module each here."""

from __future__ import annotations

from ringmaster.rules.base import Rules
from ringmaster.rules.go import GoRules
from ringmaster.rules.othello import OthelloRules
from ringmaster.rules.pig import PigRules

# A new game is one module here, with a Rules subclass, and one line in this registry.
_RULES: dict[str, type[Rules]] = {
    "go": GoRules,
    "othello": OthelloRules,
    "pig": PigRules,
}

GAMES = tuple(_RULES)


def get_rules_class(game: str) -> type[Rules]:
    """The Rules class of a game, for its facts (board sizes, SGF number, scoring, handicap).

    Raises ValueError for an unknown game.
    """
    try:
        return _RULES[game]
    except KeyError:
        raise ValueError(f"unknown game {game!r}") from None


def get_rules(game: str, board_size: int) -> Rules:
    """Return a fresh Rules object for a new game.

    Raises ValueError for an unknown game or a board size the game can't use.
    """
    return get_rules_class(game)(board_size)
