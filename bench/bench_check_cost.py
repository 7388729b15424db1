"""What an adjudication check costs beside a move: GNU Go's final_score against its genmove, mid-game.

    python bench/bench_check_cost.py [--levels 1,10] [--games 4] [--size 9] [--gnugo /usr/games/gnugo]

The adjudication settings (docs/refereeing.md) ask the referee engine for
final_score every `every` moves from `after_move` on. This bench plays
--games games of GNU Go against itself (one process; a GTP random seed per
game, so the games differ) and, at every 10th move from move 40 until the game
ends or --last-move, times final_score on the position and then the genmove that
plays the next move, both by the wall clock around the command, through our
GtpController. It prints, per level, the median time of each, and the median and
range over the positions of final_score's time divided by the genmove's there:
the two are timed side by side on the same position, so the load shifts both.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ringmaster.gtp.channel import SubprocessChannel  # noqa: E402
from ringmaster.gtp.controller import GtpController  # noqa: E402

FIRST_CHECK = 40   # the default after_move
CHECK_EVERY = 10   # the default every


def timed(controller: GtpController, command: str, *arguments: str) -> tuple[str, float]:
    """The command's response and its wall time in seconds."""
    start = time.perf_counter()
    response = controller.do_command(command, *arguments)
    return response, time.perf_counter() - start


def play_game(controller: GtpController, size: int, seed: int,
              last_move: int) -> list[tuple[float, float]]:
    """(final_score seconds, genmove seconds) at each checked position of one self-play game."""
    for command, *arguments in (("boardsize", str(size)), ("clear_board",), ("komi", "7.5"),
                                ("set_random_seed", str(seed))):
        controller.do_command(command, *arguments)
    pairs = []
    passes = 0
    for move in range(last_move):
        colour = "b" if move % 2 == 0 else "w"
        checked = move >= FIRST_CHECK and move % CHECK_EVERY == 0
        score_seconds = timed(controller, "final_score")[1] if checked else 0.0
        vertex, genmove_seconds = timed(controller, "genmove", colour)
        if checked:
            pairs.append((score_seconds, genmove_seconds))
        vertex = vertex.strip().lower()
        if vertex == "resign":
            break
        passes = passes + 1 if vertex == "pass" else 0
        if passes == 2:
            break
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", default="1,10")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--last-move", type=int, default=120)
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'level':>5}  {'checks':>6}  {'genmove (ms)':>12}  {'final_score (ms)':>16}  "
          f"{'final_score / genmove: median [min, max]':>40}")
    for level in (int(text) for text in args.levels.split(",")):
        channel = SubprocessChannel([args.gnugo, "--mode", "gtp", "--level", str(level)])
        controller = GtpController(channel, f"gnugo level {level}", default_timeout=120)
        try:
            pairs = [pair for seed in range(args.games)
                     for pair in play_game(controller, args.size, seed + 1, args.last_move)]
        finally:
            controller.close()
        scores = [score for score, _ in pairs]
        genmoves = [genmove for _, genmove in pairs]
        ratios = [score / genmove for score, genmove in pairs]
        print(f"{level:>5}  {len(pairs):>6}  {1000 * statistics.median(genmoves):>12.1f}  "
              f"{1000 * statistics.median(scores):>16.1f}  "
              f"{statistics.median(ratios):>20.1f} [{min(ratios):.1f}, {max(ratios):.1f}]")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
