"""Speed-up of each parallel search mode over the serial search, measured side by side in one run.

Usage: python bench/bench_parallel.py [--workers 2] [--playouts 4000] [--repeats 2]

For the generic search (players.mcts): leaf parallelism (one leaf's playouts
shared by threads), tree parallelism (batches of leaves under virtual loss,
their playouts shared by threads), optionally with a root allocation method,
and root parallelism (independent trees in processes, merged). For the fast
engine: root parallelism with one numba tree per thread, and tree parallelism
(threads sharing one numba tree, lock-free, virtual loss 1). Each figure is
playouts per second from the empty 9x9 board; modes alternate within each
repeat so that a shared machine's load affects them alike.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from players.engines.go_uct.search import SearchConfig, make_searcher
from players.games.go import GoGame

SIZE, KOMI = 9, 7.5


def modes(workers: int) -> list[tuple[str, SearchConfig]]:
    w = workers
    return [
        ("generic serial", SearchConfig(engine="generic")),
        (f"generic leaf, {w} threads", SearchConfig(engine="generic", mode="leaf", threads=w)),
        (f"generic tree, {w} threads, batch {4 * w}",
         SearchConfig(engine="generic", mode="tree", threads=w)),
        (f"generic tree, {w} threads, remainder allocation",
         SearchConfig(engine="generic", mode="tree", threads=w, allocation="remainder")),
        (f"generic root, {w} processes", SearchConfig(engine="generic", mode="root", threads=w)),
        ("fast serial", SearchConfig(engine="fast")),
        (f"fast root, {w} threads", SearchConfig(engine="fast", mode="root", threads=w)),
        (f"fast tree, {w} threads", SearchConfig(engine="fast", mode="tree", threads=w)),
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--playouts", type=int, default=4000)
    parser.add_argument("--fast-playouts", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=2)
    options = parser.parse_args(argv)
    game = GoGame(SIZE, KOMI)
    state = game.initial_state()
    configs = modes(options.workers)
    searchers = [make_searcher(game, config) for _, config in configs]
    for searcher in searchers:
        searcher.search(state, 200)  # start pools, compile, warm up
    totals = [0.0] * len(configs)
    for _ in range(options.repeats):
        for i, ((_label, config), searcher) in enumerate(zip(configs, searchers)):
            playouts = options.fast_playouts if config.engine == "fast" else options.playouts
            start = time.perf_counter()
            searcher.search(state, playouts)
            totals[i] += playouts / (time.perf_counter() - start)
    for searcher in searchers:
        searcher.close()
    rates = [t / options.repeats for t in totals]
    print(f"Parallel search, empty {SIZE}x{SIZE}, {options.workers} workers, "
          f"{os.cpu_count()} CPUs visible, mean of {options.repeats} runs:")
    baseline = {"generic": rates[0], "fast": rates[5]}
    for (label, config), value in zip(configs, rates):
        print(f"  {label:48s} {value:9.0f} playouts/s   speed-up "
              f"{value / baseline[config.engine]:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
