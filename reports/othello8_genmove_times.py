"""Wall time of each genmove of the 8x8 AlphaZero engine in a game against itself (othello8_vs_grhino.md)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def ask(engine: subprocess.Popen, command: str) -> str:
    """Send one GTP command and return the first line of the response."""
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    lines = []
    while True:
        line = engine.stdout.readline()
        if not line:
            raise RuntimeError(f"the engine exited after {command!r}")
        if line.strip():
            lines.append(line.strip())
        elif lines:
            return lines[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="players/models/othello8.pt")
    parser.add_argument("--seconds", default="0.9")
    options = parser.parse_args()
    command = [sys.executable, "-m", "players", "alphazero", "--model", options.model, "--device", "cpu",
               "--threads", "1", "--seconds", options.seconds, "--batch", "8"]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ask(engine, "boardsize 8")
    ask(engine, "clear_board")
    times, colour, passes = [], "b", 0
    while passes < 2:
        started = time.perf_counter()
        answer = ask(engine, f"genmove {colour}")
        if answer.lower().endswith("pass"):
            passes += 1
        else:
            passes = 0
            times.append(time.perf_counter() - started)
        colour = "w" if colour == "b" else "b"
    ask(engine, "quit")
    times.sort()
    print(f"--seconds {options.seconds}: {len(times)} moves, median {times[len(times) // 2]:.3f} s, "
          f"max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
