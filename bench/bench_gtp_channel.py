"""Our CPU per GTP command: a GtpController over a SubprocessChannel, no referee, no board.

    python bench/bench_gtp_channel.py [--games 40] [--moves 150] [--rounds 5]

The engine is bench/replay_engine.py (it answers a line and keeps no board).
Each game sends boardsize, clear_board and komi, then, for every move, the
opponent's move and the next genmove in one write, as the referee does, and
reads both responses. The figure is this process's CPU time (user + system,
getrusage) per command, the median of the rounds: the controller's cost of
sending a command and reading its response. The engine's own CPU is not in it.
Beside an earlier commit:

    python bench/compare_commits.py --base REV --rounds 5 -- bench/bench_gtp_channel.py
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ringmaster.gtp.channel import SubprocessChannel  # noqa: E402
from ringmaster.gtp.controller import GtpController  # noqa: E402

REPLAY_ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "replay_engine.py")
COLUMNS = "ABCDEFGHJ"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def vertices(moves: int) -> list[str]:
    """moves vertices of a 9x9 board, in turn (the replay engine checks nothing)."""
    return [f"{COLUMNS[i % 9]}{i // 9 % 9 + 1}" for i in range(moves)]


def play_games(controller: GtpController, games: int, moves: list[str]) -> int:
    """Games as the referee sends them; returns the number of commands."""
    commands = 0
    for _ in range(games):
        for command, *arguments in (("boardsize", "9"), ("clear_board",), ("komi", "7.5")):
            controller.do_command(command, *arguments)
        controller.do_command("genmove", "b")
        commands += 4
        for i, vertex in enumerate(moves[1:], start=1):
            mover, other = ("b", "w") if i % 2 == 1 else ("w", "b")
            sent = controller.send_commands(("play", mover, vertex), ("genmove", other))
            controller.receive_commands(sent)
            commands += 2
    return commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engine-python", default=sys.executable)
    args = parser.parse_args()
    moves = vertices(args.moves)
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "game.txt")
        with open(script, "w", encoding="ascii") as f:
            f.write("\n".join(moves) + "\n")
        channel = SubprocessChannel([args.engine_python, "-S", REPLAY_ENGINE, "--script", script])
        controller = GtpController(channel, "replay", default_timeout=10)
        try:
            play_games(controller, 2, moves)   # warm-up
            cpu_us, wall_us = [], []
            for _ in range(args.rounds):
                cpu, wall = cpu_seconds(), time.perf_counter()
                commands = play_games(controller, args.games, moves)
                cpu_us.append(1e6 * (cpu_seconds() - cpu) / commands)
                wall_us.append(1e6 * (time.perf_counter() - wall) / commands)
        finally:
            controller.close()
    print(f"controller CPU per command (median of {args.rounds}): {statistics.median(cpu_us):.2f} us")
    print(f"wall per command (median of {args.rounds}): {statistics.median(wall_us):.2f} us")


if __name__ == "__main__":
    main()
