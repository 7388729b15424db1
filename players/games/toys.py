"""Tiny games whose values are known exactly, for testing searches: Nim and a lottery with a chance draw."""

from __future__ import annotations

from players.games.base import Game


class Nim(Game):
    """Take 1 or 2 from a pile; whoever takes the last one wins.

    States are (pile, to_play); action a takes a + 1. The player to move
    loses exactly when the pile is a multiple of 3.
    """

    name = "nim"
    num_actions = 2

    def __init__(self, pile: int = 7) -> None:
        self.pile = pile

    def initial_state(self):
        return (self.pile, 0)

    def to_play(self, state) -> int:
        return state[1]

    def legal_actions(self, state) -> list[int]:
        return [a for a in (0, 1) if a + 1 <= state[0]]

    def apply(self, state, action: int):
        return (state[0] - action - 1, 1 - state[1])

    def is_terminal(self, state) -> bool:
        return state[0] == 0

    def terminal_value(self, state) -> float:
        return -1.0  # the player to move at an empty pile has lost


class Lottery(Game):
    """Choose one of two tickets, then a chance draw: ticket a wins with probability p[a].

    States are ('choose',), ('draw', ticket) (the chance state) and
    ('over', outcome) with outcome 1 a win. The value of ticket a for the
    player is 2 * p[a] - 1.
    """

    name = "lottery"
    num_actions = 2

    def __init__(self, p: tuple[float, float] = (0.3, 0.7)) -> None:
        self.p = p

    def initial_state(self):
        return ("choose",)

    def to_play(self, state) -> int:
        return 0

    def legal_actions(self, state) -> list[int]:
        return [0, 1]

    def apply(self, state, action: int):
        if state[0] == "choose":
            return ("draw", action)
        return ("over", action)

    def is_terminal(self, state) -> bool:
        return state[0] == "over"

    def terminal_value(self, state) -> float:
        return 1.0 if state[1] == 1 else -1.0

    def is_chance(self, state) -> bool:
        return state[0] == "draw"

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        p = self.p[state[1]]
        return [(1, p), (0, 1.0 - p)]
