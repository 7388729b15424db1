"""How much of its main time an engine spends when the controller never sends time_left.

    python bench/bench_engine_clock.py [--engine-args '--engine generic'] [--main 10] [--moves 45]

Starts `python -m players mcts --playouts 10000000` (a search only its clock stops), sets
`time_settings MAIN 0 0` (absolute time) on 9x9, asks for MOVES pairs of `genmove b` /
`genmove w` and no `time_left`, as a GTP 2 controller may, and times each answer from this
side. Prints each colour's total seconds, its share of the main time, and the move at which
it passed the main time (0: it never did). With bench/compare_commits.py, before and after
a change to the engines' clock.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-args", default="", help="more options for the mcts engine")
    parser.add_argument("--main", type=float, default=10.0, help="main time, seconds (default 10)")
    parser.add_argument("--moves", type=int, default=45, help="genmoves per colour (default 45)")
    args = parser.parse_args()
    engine = subprocess.Popen([sys.executable, "-m", "players", "mcts", "--playouts", "10000000",
                               *shlex.split(args.engine_args)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line: str) -> float:
        started = time.monotonic()
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
        while engine.stdout.readline() not in ("\n", ""):
            pass
        return time.monotonic() - started

    try:
        for command in ("boardsize 9", "komi 7.5", f"time_settings {args.main:g} 0 0"):
            send(command)
        total = {"b": 0.0, "w": 0.0}
        over: dict[str, int] = {}
        for move in range(1, args.moves + 1):
            for colour in "bw":
                total[colour] += send(f"genmove {colour}")
                if total[colour] > args.main and colour not in over:
                    over[colour] = move
        send("quit")
    finally:
        engine.kill()
        engine.wait()
    for colour, name in (("b", "black"), ("w", "white")):
        print(f"{name}: {total[colour]:.2f} s over {args.moves} moves, {total[colour] / args.main:.2f} "
              f"of the main time; past it at move {over.get(colour, 0)} (0: never)")


if __name__ == "__main__":
    main()
