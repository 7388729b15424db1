"""The Game interface that search uses: states, actions, chance outcomes and results."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Game(ABC):
    """A two-player, zero-sum game as the search sees it.

    States are immutable values: apply() returns a new state and never
    changes its argument. Actions are integers in range(num_actions); games
    with a pass use num_actions - 1 for it.

    Public attributes:
      name        -- the game's registry name ('go', ...)
      kind        -- the game's family ('go', 'othello', 'pig'), whatever its size or variant
      num_actions -- size of the action space
      has_chance  -- it has chance states (is_chance): the training pipeline's arena throws them
      stochastic_apply -- apply() draws chance itself, so one action may lead to different
                     states (players.mcts.chance.HiddenChance)
    """

    name: str = ""
    kind: str = ""
    num_actions: int = 0
    has_chance: bool = False
    stochastic_apply: bool = False

    @abstractmethod
    def initial_state(self):
        """The state at the start of a game."""

    @abstractmethod
    def to_play(self, state) -> int:
        """The player to move: 0 for the first player (black), 1 for the second."""

    @abstractmethod
    def legal_actions(self, state) -> list[int]:
        """The actions the player to move may choose; non-empty unless terminal."""

    @abstractmethod
    def apply(self, state, action: int):
        """Return the state after action; the argument is left unchanged."""

    @abstractmethod
    def is_terminal(self, state) -> bool:
        """True when the game is over."""

    @abstractmethod
    def terminal_value(self, state) -> float:
        """The result of a finished game, +1 win, -1 loss, 0 draw, for to_play(state)."""

    def is_chance(self, state) -> bool:
        """True when the next event is a chance outcome rather than a player's choice."""
        return False

    def chance_outcomes(self, state) -> list[tuple[int, float]]:
        """The (action, probability) pairs of a chance state; probabilities sum to 1."""
        return []
