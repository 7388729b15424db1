"""How long `ringmaster run` takes before its first game: interpreter, imports and start-up checks.

    python bench/bench_run_start.py CTL [--rounds 5]

Each round runs `ringmaster CTL run -q -g 0` (every player's start-up check, no
game) and then `ringmaster CTL reset`, and the median wall time of the runs is
printed. The state and files a round writes beside CTL are removed by the reset,
so the bench refuses a control file whose competition has a state already (it
would delete that competition's results). Beside an earlier commit:

    python bench/compare_commits.py --base REV --rounds 5 -- \\
        bench/bench_run_start.py control_files/othello6_checkpoints.ctl --rounds 1
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def state_file(ctl: str) -> str:
    return os.path.splitext(ctl)[0] + ".status"


def ringmaster(ctl: str, *args: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", ctl, *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"ringmaster {' '.join(args)} failed (exit {proc.returncode}): "
                         f"{proc.stderr.strip()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ctl")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ctl = os.path.abspath(args.ctl)
    if os.path.exists(state_file(ctl)):
        raise SystemExit(f"{state_file(ctl)} exists: this bench resets the competition after "
                         "each round, so it only runs on one that has no state")
    walls = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        try:
            ringmaster(ctl, "run", "-q", "-g", "0")
            walls.append(time.perf_counter() - started)
        finally:
            ringmaster(ctl, "reset")
    print(f"run start, checks included (median of {args.rounds}): {statistics.median(walls):.3f} s")


if __name__ == "__main__":
    main()
