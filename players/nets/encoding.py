"""The encoder registry: a game's kind -> the encoder that turns its states into network input."""

from __future__ import annotations

from collections.abc import Callable

from players.games.board import BoardGame
from players.nets.board_encoder import Encoder
from players.nets.go_encoding import GoEncoder
from players.nets.othello_encoding import OthelloEncoder
from players.nets.pig_encoding import PigEncoder

ENCODERS: dict[str, Callable[[BoardGame], Encoder]] = {
    "go": GoEncoder,
    "othello": OthelloEncoder,
    "pig": PigEncoder,
}


def encoder_for(game: BoardGame) -> Encoder:
    """The encoder of a players.games game.

    Raises ValueError if no encoder serves the game's kind.
    """
    try:
        return ENCODERS[game.kind](game)
    except KeyError:
        raise ValueError(f"no encoder for {game.kind!r} games") from None
