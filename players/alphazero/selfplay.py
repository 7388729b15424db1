"""Self-play: many games per process, one batched network call per search round across all of them."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from players.mcts import SAMPLED, ChanceRule, PuctSettings, Tree, alphazero_policy
from players.nets.encoding import encoder_for


@dataclass(frozen=True)
class SelfPlayConfig:
    num_simulations: int = 64
    concurrent_games: int = 64
    temperature_moves: int = 8        # moves sampled at T=1; argmax afterwards
    c_puct: float = 1.5
    dirichlet_alpha: float = 0.5
    dirichlet_epsilon: float = 0.25
    max_moves: int = 400              # safety net for games without a natural end
    chance_targets: bool = True       # record chance states too: a value target, no policy target


@dataclass
class Examples:
    """Training examples: planes [N, C, H, W], policy targets [N, A], outcomes [N] for the mover."""

    planes: np.ndarray
    policies: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    @staticmethod
    def concat(parts: list[Examples]) -> Examples:
        return Examples(np.concatenate([p.planes for p in parts]),
                        np.concatenate([p.policies for p in parts]),
                        np.concatenate([p.values for p in parts]))


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0
    seconds: float = 0.0
    black_wins: int = 0
    white_wins: int = 0
    draws: int = 0
    game_lengths: list[int] = field(default_factory=list)

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds else 0.0


class _Game:
    def __init__(self, game) -> None:
        self.tree = Tree(game, game.initial_state())
        self.states: list = []
        self.policies: list[np.ndarray] = []
        self.moves = 0


def play_games(game, evaluate, num_games: int, config: SelfPlayConfig,
               rng: np.random.Generator, progress=None,
               chance: ChanceRule = SAMPLED) -> tuple[Examples, SelfPlayStats]:
    """Play num_games self-play games, config.concurrent_games at a time.

    evaluate is a batched evaluator (states -> priors [B, A], values [B]).
    progress, if given, is called with (games finished, num_games) after each game.
    chance is the search's chance rule; after a move that leads to a chance
    state the outcome is drawn by its probability (a game that draws chance
    inside apply, players.mcts.chance.HiddenChance, never stops there).
    """
    settings = PuctSettings(c_puct=config.c_puct, dirichlet_alpha=config.dirichlet_alpha,
                            dirichlet_epsilon=config.dirichlet_epsilon)
    encoder = encoder_for(game)
    stats = SelfPlayStats()
    started = time.perf_counter()
    parts: list[Examples] = []
    active = [_Game(game) for _ in range(min(num_games, config.concurrent_games))]
    launched = len(active)
    while active:
        temperatures = [1.0 if g.moves < config.temperature_moves else 0.0 for g in active]
        outputs = alphazero_policy([g.tree for g in active], evaluate, settings,
                                   num_simulations=config.num_simulations, rng=rng,
                                   temperatures=temperatures, chance=chance)
        still = []
        for g, output in zip(active, outputs):
            visits = output.result.visit_counts
            g.states.append(g.tree.root.state)
            g.policies.append((visits / visits.sum()).astype(np.float32))
            g.tree.advance(output.action)
            g.moves += 1
            _throw_dice(game, g, rng, record=config.chance_targets)
            state = g.tree.root.state
            if game.is_terminal(state) or g.moves >= config.max_moves:
                parts.append(_finish(game, encoder, g, state, stats))
                if progress:
                    progress(stats.games, num_games)
                if launched < num_games:
                    still.append(_Game(game))
                    launched += 1
            else:
                still.append(g)
        active = still
    stats.seconds = time.perf_counter() - started
    return Examples.concat(parts), stats


def _throw_dice(game, g: _Game, rng: np.random.Generator, record: bool) -> None:
    """Advance the game's tree past chance states, drawing each outcome by its probability.

    With record, each chance state becomes an example whose policy target is
    all zeros (the loss then asks nothing of the policy there) and whose
    value target is the game's outcome, so that the network learns the
    values that the chance rules start a chance node's outcomes from.
    """
    tree = g.tree
    while not game.is_terminal(tree.root.state) and game.is_chance(tree.root.state):
        if record:
            g.states.append(tree.root.state)
            g.policies.append(np.zeros(game.num_actions, dtype=np.float32))
        outcomes = game.chance_outcomes(tree.root.state)
        index = int(rng.choice(len(outcomes), p=[p for _, p in outcomes]))
        tree.advance(outcomes[index][0])


def _finish(game, encoder, g: _Game, final_state, stats: SelfPlayStats) -> Examples:
    """Label a finished game's positions with the outcome for each position's mover."""
    result = game.terminal_value(final_state) if game.is_terminal(final_state) else 0.0
    final_player = game.to_play(final_state)
    black_result = result if final_player == 0 else -result
    values = np.array([black_result if game.to_play(s) == 0 else -black_result for s in g.states],
                      dtype=np.float32)
    stats.games += 1
    stats.positions += len(g.states)
    stats.game_lengths.append(g.moves)
    if black_result > 0:
        stats.black_wins += 1
    elif black_result < 0:
        stats.white_wins += 1
    else:
        stats.draws += 1
    return Examples(encoder.encode(g.states).astype(np.float16), np.stack(g.policies), values)
