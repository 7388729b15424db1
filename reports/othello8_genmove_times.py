"""Wall time of each genmove of the 8x8 AlphaZero engine in a game against itself (othello8_vs_grhino.md)."""

from __future__ import annotations

import argparse
import sys
import time

from ringmaster.gtp.channel import SubprocessChannel
from ringmaster.gtp.controller import GtpController


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default="players/models/othello8.pt")
    parser.add_argument("--seconds", default="0.9")
    options = parser.parse_args()
    command = [sys.executable, "-m", "players", "alphazero", "--model", options.model, "--device", "cpu",
               "--threads", "1", "--seconds", options.seconds, "--batch", "8"]
    engine = GtpController(SubprocessChannel(command), "alphazero", default_timeout=60)
    engine.do_command("boardsize", "8")
    engine.do_command("clear_board")
    times, colour, passes = [], "b", 0
    while passes < 2:
        started = time.perf_counter()
        answer = engine.do_command("genmove", colour)
        if answer.lower() == "pass":
            passes += 1
        else:
            passes = 0
            times.append(time.perf_counter() - started)
        colour = "w" if colour == "b" else "b"
    engine.close()
    times.sort()
    print(f"--seconds {options.seconds}: {len(times)} moves, median {times[len(times) // 2]:.3f} s, "
          f"max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
