"""Playouts per CPU second of the generic Go search (serial, and tree mode with batch 8), empty 9x9.

Run with a tree's code first on the path, alternating trees (one process each):
    cd TREE && PYTHONPATH=TREE nice -n 5 python $REPO/reports/data/issue9_cpu_generic.py
Prints, per mode, the best and the median of three searches of 2,000 playouts
(after one of 300), timed with time.process_time.
"""

from __future__ import annotations

import time

try:
    from players.engines.go_uct.search import SearchConfig, make_searcher
except ImportError:  # before issue 9 (456894f)
    from players.go_search import SearchConfig, make_searcher
from players.games.go import GoGame


def main() -> None:
    game = GoGame(9, 7.5)
    state = game.initial_state()
    out = []
    for label, config in [("serial", SearchConfig(engine="generic")),
                          ("tree8", SearchConfig(engine="generic", mode="tree", threads=1,
                                                 batch=8))]:
        searcher = make_searcher(game, config)
        searcher.search(state, 300)
        rates = []
        for _ in range(3):
            start = time.process_time()
            searcher.search(state, 2000)
            rates.append(2000 / (time.process_time() - start))
        searcher.close()
        out.append(f"{label} {max(rates):.0f} {sorted(rates)[1]:.0f}")
    print(" | ".join(out))


if __name__ == "__main__":
    main()
