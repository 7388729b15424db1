"""The Go engine's searches: the fast numba tree or the generic core with rollouts, serial or parallel."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace

import numpy as np

from players.engines.go_uct.rollout import GoRolloutEvaluator
from players.engines.go_uct.uct import FastUct, UctParams
from players.games import go_board
from players.games.go import GoGame, GoState
from players.mcts.allocation import allocation_fn
from players.mcts.parallel import RootParallel, merge_results
from players.mcts.policies import FINAL_CHOICES, SearchResult, uct_policy
from players.mcts.tree import Tree

MODES = ("serial", "leaf", "tree", "root")
ENGINES = ("fast", "generic")
MAX_EDGES = 4_000_000


@dataclass(frozen=True)
class SearchConfig:
    """Every tunable of the search.

    Public attributes:
      c              -- UCT exploration constant
      mode           -- 'serial', 'leaf', 'tree' or 'root'
      threads        -- threads (leaf, tree) or processes (root)
      leaf_playouts  -- playouts per leaf in leaf mode (default: threads)
      batch          -- leaves per batch in tree mode (default: 4 * threads)
      virtual_loss   -- virtual loss for tree mode
      heavy          -- heavy playouts (captures, atari escape, patterns) or light
      final_choice   -- 'visits' or 'value'
      allocation     -- None, 'divisor' or 'remainder': spread tree-mode batches at the root
      divisor        -- the allocation divisor
      biased         -- bias the allocation by root visits
      seed           -- random seed
      engine         -- 'fast' (numba tree with RAVE and priors) or 'generic' (players.mcts)
      uct            -- UctParams for the fast engine
    """

    c: float = 0.7
    mode: str = "serial"
    threads: int = 1
    leaf_playouts: int = 0
    batch: int = 0
    virtual_loss: float = 1.0
    heavy: bool = True
    final_choice: str = "visits"
    allocation: str | None = None
    divisor: int = 4
    biased: bool = False
    seed: int = 0
    engine: str = "generic"
    uct: UctParams = field(default_factory=UctParams)

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise ValueError(f"unknown engine {self.engine!r}")
        if self.engine == "fast" and self.mode == "leaf":
            raise ValueError("the fast engine runs serial, tree- or root-parallel")
        if self.mode not in MODES:
            raise ValueError(f"unknown mode {self.mode!r}")
        if self.threads < 1:
            raise ValueError(f"threads must be at least 1, not {self.threads}")
        if not self.c >= 0:
            raise ValueError(f"c must be at least 0, not {self.c}")

    @property
    def playouts_per_leaf(self) -> int:
        if self.mode != "leaf":
            return 1
        return self.leaf_playouts or self.threads

    @property
    def batch_size(self) -> int:
        if self.mode != "tree":
            return 1
        return self.batch or 4 * self.threads


class GoSearcher:
    """Runs searches of Go positions for one game setting (board size and komi)."""

    def __init__(self, game: GoGame, config: SearchConfig) -> None:
        self.game = game
        self.config = config
        self.rng = np.random.default_rng(config.seed)
        threads = 1 if config.mode in ("serial", "root") else config.threads
        self.evaluator = GoRolloutEvaluator(
            game, heavy=config.heavy, playouts_per_leaf=config.playouts_per_leaf,
            threads=threads, seed=config.seed)
        self._root_pool: RootParallel | None = None
        self._searches = 0

    def close(self) -> None:
        self.evaluator.close()
        if self._root_pool is not None:
            self._root_pool.close()
            self._root_pool = None

    def search(self, state: GoState, playouts: int,
               seconds: float | None = None) -> SearchResult:
        """Search state with about `playouts` playouts (or until seconds pass)."""
        config = self.config
        if config.mode == "root" and config.threads > 1:
            return self._root_search(state, playouts, seconds)
        simulations = max(1, playouts // config.playouts_per_leaf)
        allocate = (None if config.allocation is None else
                    allocation_fn(config.allocation, config.divisor, config.biased))
        return uct_policy(Tree(self.game, state), self.evaluator, c=config.c,
                          num_simulations=simulations, leaves_per_tree=config.batch_size,
                          rng=self.rng, virtual_loss=config.virtual_loss,
                          final_choice=config.final_choice, seconds=seconds,
                          root_allocation=allocate)

    def _root_search(self, state: GoState, playouts: int,
                     seconds: float | None) -> SearchResult:
        config = self.config
        if self._root_pool is None:
            worker_config = replace(config, mode="serial", threads=1)
            self._root_pool = RootParallel(
                config.threads, _init_worker,
                (self.game.size, self.game.komi, self.game.allow_suicide, worker_config))
        self._searches += 1
        share = max(1, playouts // config.threads)
        jobs = [(state, share, seconds, config.seed * 7919 + self._searches * 104729 + i)
                for i in range(config.threads)]
        results = self._root_pool.run(_worker_search, jobs)
        return merge_results(results, config.final_choice)


_WORKER: GoSearcher | None = None


def _init_worker(size: int, komi: float, allow_suicide: bool, config: SearchConfig) -> None:
    global _WORKER
    _WORKER = GoSearcher(GoGame(size, komi, allow_suicide=allow_suicide), config)


def _worker_search(state: GoState, playouts: int, seconds: float | None,
                   seed: int) -> SearchResult:
    _WORKER.rng = np.random.default_rng(seed)
    return _WORKER.search(state, playouts, seconds)


class FastSearcher:
    """The fast engine behind the same interface as GoSearcher; its parallel modes use threads.

    The numba kernels release the GIL, so root parallelism runs one tree per
    thread and merges the root edges, and tree parallelism runs all the
    threads on one tree with virtual loss (see players.engines.go_uct.uct).
    """

    def __init__(self, game: GoGame, config: SearchConfig) -> None:
        self.game = game
        self.config = config
        roots = config.threads if config.mode == "root" else 1
        shared = config.threads if config.mode == "tree" else 1
        # About 4 million edges (128 MB) per tree at most, whatever the board size; tree
        # reuse keeps a second tree of the same size to copy the kept subtree into.
        max_nodes = min(40000, MAX_EDGES // (game.size * game.size + 1))
        self.trees = [FastUct(game.size, game.komi, config.uct, seed=config.seed * 31 + i,
                              max_nodes=max_nodes, threads=shared,
                              virtual_loss=config.virtual_loss) for i in range(roots)]
        self._pool = ThreadPoolExecutor(roots) if roots > 1 else None

    def close(self) -> None:
        for tree in self.trees:
            tree.close()
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def search(self, state: GoState, playouts: int, seconds: float | None = None, *,
               stop=None, chunk: int = 250) -> SearchResult:
        """Search state with at most `playouts` playouts for at most `seconds`; stop, when
        given, decides instead after each chunk (FastUct.search; each root tree asks it)."""
        args = (state.board, state.colour, state.ko, state.last, state.passes)
        if self._pool is None:
            parts = [self.trees[0].search(*args, playouts, seconds, chunk, stop)]
        else:
            share = max(1, playouts // len(self.trees))
            futures = [self._pool.submit(t.search, *args, share, seconds, chunk, stop)
                       for t in self.trees]
            parts = [f.result() for f in futures]
        size = self.game.size
        visits = np.zeros(self.game.num_actions)
        wins = np.zeros(self.game.num_actions)
        for moves, n, w in parts:
            actions = np.array([self.game.pass_action if m < 0 else go_board.action_of(size, m)
                                for m in moves], dtype=np.int64)
            np.add.at(visits, actions, n)
            np.add.at(wins, actions, w)
        q = np.where(visits > 0, 2.0 * wins / np.maximum(visits, 1) - 1.0, 0.0)
        total = visits.sum()
        root_value = 2.0 * wins.sum() / total - 1.0 if total else 0.0
        if total == 0:
            best = self.game.pass_action
        else:
            best = FINAL_CHOICES[self.config.final_choice](visits, q)
        run = total - sum(tree.reused for tree in self.trees)  # kept visits weren't run now
        return SearchResult(visits, q, float(root_value), int(best), int(run))


def make_searcher(game: GoGame, config: SearchConfig) -> GoSearcher | FastSearcher:
    """The searcher for config.engine."""
    if config.engine == "fast":
        return FastSearcher(game, config)
    return GoSearcher(game, config)
