"""How long a `ringmaster run` that plays no game takes: interpreter, imports, start-up checks, end.

    python bench/bench_run_start.py CTL [--rounds 5]

Each round runs `ringmaster CTL run -q -g 0` (every player's start-up check, no
game; then the run's end: its state and report) and then `ringmaster CTL reset`,
and the median wall time of the runs is printed: a run's fixed cost, most of it
before its first game. The state and files a round writes beside CTL are removed by the reset,
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


def ringmaster(ctl: str, *args: str) -> str | None:
    """Run one ringmaster command; None, or what went wrong."""
    proc = subprocess.run([sys.executable, "-m", "ringmaster.cli", ctl, *args],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        return f"ringmaster {' '.join(args)} failed (exit {proc.returncode}): {proc.stderr.strip()}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ctl")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    ctl = os.path.abspath(args.ctl)
    if os.path.exists(state_file(ctl)):
        raise SystemExit(f"{state_file(ctl)} exists: this bench resets the competition after "
                         "each round, so it only runs on one that has no state")
    walls = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        error = ringmaster(ctl, "run", "-q", "-g", "0")
        walls.append(time.perf_counter() - started)
        errors = [e for e in (error, ringmaster(ctl, "reset")) if e is not None]
        if errors:
            raise SystemExit("; ".join(errors))
    print(f"run with no game, checks included (median of {args.rounds}): "
          f"{statistics.median(walls):.3f} s")


if __name__ == "__main__":
    main()
