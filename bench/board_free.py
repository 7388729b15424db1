#!/usr/bin/env python3
"""Our ringmaster with each Go move's effect on the board looked up, not computed: a measurement only.

What would games/s be if checking every move on sgfmill's board cost nothing?
This runs `ringmaster` with GoRules.play memoised: the first time a process
sees a move after a given sequence of moves, sgfmill's board plays it as
always, and the stones it removed and the ko point it returned are kept under
(the game's start, that sequence, the move); the next time the same sequence
reaches the same move, they are applied to the board directly. bench_ringmaster.py's engines
play the same game every time, so from each process's second game on, the
board costs a dictionary lookup a move. The moves are still checked: the
lookup only replaces sgfmill's play for a move sgfmill has already played
from the same position.

Never a way to run real games (the memo grows with every new position); it
exists so that the share of our games/s that goes to sgfmill's board can be
measured side by side with Gomill:

    git worktree add /tmp/head HEAD
    python bench/bench_ringmaster.py --gomill /tmp/gomill/gomill-0.8.3 --only gps \\
        --engine replay --modes 2 --ours "python $PWD/bench/board_free.py" --before /tmp/head
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ringmaster import cli  # noqa: E402
from ringmaster.rules.go import GoRules  # noqa: E402

# (node of the moves so far, colour, move) -> (node after it, points emptied, ko point)
_memo: dict[tuple, tuple[int, tuple, tuple[int, int] | None]] = {}
_sgfmill_play = GoRules.play


def _memoised_play(self: GoRules, colour: str, move) -> None:
    node = self.__dict__.get("_bench_node")
    if node is None:   # a game's first move: its start (the size, any handicap stones)
        node = (self.board_size, tuple(sorted(self.board.list_occupied_points())))
    key = (node, colour, move)
    entry = _memo.get(key)
    if entry is not None and move is not None:
        row, col = move
        stones = self.board.board          # sgfmill's own rows: bench-only code
        stones[row][col] = colour
        for r, c in entry[1]:
            stones[r][c] = None
        self.board._is_empty = False
        self.ko_point = entry[2]
        self.consecutive_passes = 0
    else:
        emptied: tuple = ()
        if move is None:
            _sgfmill_play(self, colour, None)
        else:
            before = {point for _, point in self.board.list_occupied_points()}
            _sgfmill_play(self, colour, move)
            emptied = tuple(before - {point for _, point in self.board.list_occupied_points()})
        if entry is None:
            entry = _memo[key] = (len(_memo) + 1, emptied, self.ko_point)
    self._bench_node = entry[0]


GoRules.play = _memoised_play   # type: ignore[method-assign]

if __name__ == "__main__":
    cli.main()
