"""Tiny games whose values are known exactly, for the search tests: Nim, a lottery, a coin, two dice."""

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


class BiasedCoin(Game):
    """Call heads (0) or tails (1), then a coin lands heads with probability p_heads; a right call wins.

    States are ('call',), ('toss', call) (the chance state, outcomes 0
    heads and 1 tails) and ('over', call, side). Calling heads is worth
    2 * p_heads - 1 to the caller, tails the opposite.
    """

    name = "biased-coin"
    num_actions = 2

    def __init__(self, p_heads: float = 0.7) -> None:
        self.p_heads = p_heads

    def initial_state(self):
        return ("call",)

    def to_play(self, state) -> int:
        return 0

    def legal_actions(self, state) -> list[int]:
        return [0, 1]

    def apply(self, state, action: int):
        if state[0] == "call":
            return ("toss", action)
        return ("over", state[1], action)

    def is_terminal(self, state) -> bool:
        return state[0] == "over"

    def terminal_value(self, state) -> float:
        return 1.0 if state[1] == state[2] else -1.0

    def is_chance(self, state) -> bool:
        return state[0] == "toss"

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        return [(0, self.p_heads), (1, 1.0 - self.p_heads)]

    def value(self, call: int) -> float:
        """The exact value of a call for the caller."""
        p = self.p_heads if call == 0 else 1.0 - self.p_heads
        return 2.0 * p - 1.0


class TwoDiceSum(Game):
    """Bet that the sum of two dice reaches a threshold; one chance draw of the sum (2..12, p = k/36).

    Action a bets on `thresholds[a]`: +1 if the sum reaches it, else -1.
    States are ('bet',), ('throw', a) (the chance state, outcomes the sums)
    and ('over', a, sum).
    """

    name = "two-dice-sum"

    def __init__(self, thresholds: tuple[int, ...] = (5, 8, 10)) -> None:
        self.thresholds = thresholds
        self.num_actions = len(thresholds)

    def initial_state(self):
        return ("bet",)

    def to_play(self, state) -> int:
        return 0

    def legal_actions(self, state) -> list[int]:
        return list(range(len(self.thresholds)))

    def apply(self, state, action: int):
        if state[0] == "bet":
            return ("throw", action)
        return ("over", state[1], action)

    def is_terminal(self, state) -> bool:
        return state[0] == "over"

    def terminal_value(self, state) -> float:
        return 1.0 if state[2] >= self.thresholds[state[1]] else -1.0

    def is_chance(self, state) -> bool:
        return state[0] == "throw"

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        return [(total, sum_probability(total)) for total in range(2, 13)]

    def value(self, action: int) -> float:
        """The exact value of a bet."""
        p = sum(sum_probability(t) for t in range(self.thresholds[action], 13))
        return 2.0 * p - 1.0


def sum_probability(total: int) -> float:
    """The probability that two fair dice sum to total."""
    return (6 - abs(total - 7)) / 36.0 if 2 <= total <= 12 else 0.0
