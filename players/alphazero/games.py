"""Game names the network engine and the pipeline accept: 'othello6', 'othello8', 'go7', 'go9', ..."""

from __future__ import annotations

import re


def make_game(name: str):
    """A players.games Game from a name such as 'othello6' or 'go9'.

    Raises ValueError for an unknown name or size.
    """
    match = re.fullmatch(r"(othello|go)(\d+)", name)
    if not match:
        raise ValueError(f"unknown game {name!r} (expected e.g. othello6, othello8, go7, go9)")
    kind, size = match.group(1), int(match.group(2))
    if kind == "othello":
        from players.games.othello import Othello
        return Othello(size)
    from players.nets.go_encoding import make_go_game
    return make_go_game(size)


def game_name(kind: str, size: int) -> str:
    """('othello', 6) -> 'othello6'."""
    return f"{kind}{size}"
