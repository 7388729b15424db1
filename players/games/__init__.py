"""The game registry: every game our engines, the search and the training pipeline play, by name."""

from __future__ import annotations

import re
from typing import Callable

from players.games.base import Game
from players.games.go import GoGame
from players.games.go_sensible import GoSensible
from players.games.othello import Othello

GAMES: dict[str, Callable[..., Game]] = {
    "go": GoGame,
    "go-sensible": GoSensible,
    "othello": Othello,
}

# What a sized name such as 'othello6' or 'go9' (the pipeline's, the checkpoints'
# and the control files' names) stands for: the game registered under this name,
# built with the size.
SIZED: dict[str, str] = {
    "go": "go-sensible",
    "othello": "othello",
}


def make_game(name: str, **kwargs) -> Game:
    """Build a game by name: a registered name with kwargs ('go', size=9), or a sized name ('othello6', 'go9').

    Raises ValueError for an unknown name, or for a size or argument the game refuses.
    """
    factory = GAMES.get(name)
    if factory is not None:
        return factory(**kwargs)
    match = re.fullmatch(r"([a-z]+)(\d+)", name)
    if match is None or match.group(1) not in SIZED:
        raise ValueError(f"unknown game {name!r} (expected one of {', '.join(GAMES)}, "
                         "or a sized name such as othello6 or go9)")
    return GAMES[SIZED[match.group(1)]](int(match.group(2)), **kwargs)


__all__ = ["GAMES", "SIZED", "Game", "make_game"]
