"""Arena: batched in-process matches between agents (network search, random), alternating colours;
a game with chance (Pig) has its dice thrown by the arena."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from players.mcts import PuctSettings, Tree, alphazero_policy
from players.mcts.chance import SAMPLED, ChanceRule


class Agent(Protocol):
    name: str

    def select(self, states: Sequence) -> list[int]:
        """One action for each state (all non-terminal)."""


class RandomAgent:
    """Uniformly random legal actions."""

    def __init__(self, game, rng: np.random.Generator, name: str = "random") -> None:
        self.game, self.rng, self.name = game, rng, name

    def select(self, states: Sequence) -> list[int]:
        return [int(self.rng.choice(self.game.legal_actions(s))) for s in states]


class SearchAgent:
    """PUCT with a network; most-visited action; no noise. Fresh tree per move.

    game is the game as the search sees it (for a game with chance, as self-play searches
    it: players.mcts.chance.game_for_mode), and chance its rule for chance nodes.
    """

    def __init__(self, game, evaluate, num_simulations: int, rng: np.random.Generator,
                 c_puct: float = 1.5, name: str = "net", chance: ChanceRule = SAMPLED) -> None:
        self.game, self.evaluate, self.rng, self.name = game, evaluate, rng, name
        self.num_simulations = num_simulations
        self.settings = PuctSettings(c_puct=c_puct)
        self.chance = chance

    def select(self, states: Sequence) -> list[int]:
        trees = [Tree(self.game, s) for s in states]
        outputs = alphazero_policy(trees, self.evaluate, self.settings,
                                   num_simulations=self.num_simulations, rng=self.rng,
                                   chance=self.chance)
        return [output.action for output in outputs]


@dataclass
class MatchResult:
    """Result of a match from agent A's point of view."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """A's points per game (a draw is half a point)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5


def throw_dice(game, state, rng: np.random.Generator):
    """state past its chance states (Pig's die in the air), each outcome drawn by its
    probability; a decision state or a finished game as it is."""
    while not game.is_terminal(state) and game.is_chance(state):
        outcomes = game.chance_outcomes(state)
        index = int(rng.choice(len(outcomes), p=[p for _, p in outcomes]))
        state = game.apply(state, outcomes[index][0])
    return state


def random_openings(game, count: int, plies: int, rng: np.random.Generator) -> list:
    """count start positions, each reached by `plies` uniformly random moves (never a finished game)."""
    openings = []
    while len(openings) < count:
        state = game.initial_state()
        for _ in range(plies):
            state = throw_dice(game, game.apply(state, int(rng.choice(game.legal_actions(state)))), rng)
            if game.is_terminal(state):
                break
        if not game.is_terminal(state):
            openings.append(state)
    return openings


def play_match(game, agent_a: Agent, agent_b: Agent, num_games: int, *,
               opening_plies: int = 0, rng: np.random.Generator | None = None) -> MatchResult:
    """Play num_games at once, A taking black in the even-numbered games.

    With opening_plies > 0 each pair of games (2i, 2i+1) starts from the same
    random opening, once with each colour, so that deterministic agents still
    play varied games. In a game with chance, rng throws the dice after each
    move that leaves one in the air (throw_dice): the agents see decision
    states only.
    """
    if rng is None:
        rng = np.random.default_rng()
    if opening_plies:
        starts = random_openings(game, (num_games + 1) // 2, opening_plies, rng)
        states = [starts[i // 2] for i in range(num_games)]
    else:
        states = [game.initial_state() for _ in range(num_games)]
    a_colour = [i % 2 for i in range(num_games)]           # A plays colour 0 (black) in even games
    result = MatchResult()
    live = list(range(num_games))
    while live:
        for agent, is_a in ((agent_a, True), (agent_b, False)):
            movers = [i for i in live if not game.is_terminal(states[i])
                      and (game.to_play(states[i]) == a_colour[i]) == is_a]
            if movers:
                for i, action in zip(movers, agent.select([states[i] for i in movers])):
                    states[i] = throw_dice(game, game.apply(states[i], action), rng)
        still = []
        for i in live:
            if not game.is_terminal(states[i]):
                still.append(i)
                continue
            value = game.terminal_value(states[i])
            a_value = value if game.to_play(states[i]) == a_colour[i] else -value
            if a_value > 0:
                result.wins += 1
            elif a_value < 0:
                result.losses += 1
            else:
                result.draws += 1
        live = still
    return result
