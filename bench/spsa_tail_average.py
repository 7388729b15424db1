"""SPSA's final theta against the average of theta over the run's last half or quarter, paired in one run.

    python bench/spsa_tail_average.py [--seeds 40] [--games 1000,2000,5000]

A pilot on seeds 1000 onwards (not the 0-49 of reports/continuous_tuners.md), through
the same tuner code and simulated games as bench_continuous_tuners.py: the mean
simple regret of each recommendation, and the paired difference (average of the last
half - final theta) with its standard error. The last half's average is the tuner's
own answer (average_last = 0.5, its default); the last quarter's is summed here.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_continuous_tuners import PROBLEMS, tuner_config  # noqa: E402

from ringmaster.competitions.simulate import run_simulation  # noqa: E402

TAILS = (0.25,)   # the fractions of the run whose thetas are averaged here


class TailAverages:
    """Running sums of theta over the last fraction of a run of `games` results."""

    def __init__(self, tuner: Any, games: int, dims: int) -> None:
        self.tuner, self.games = tuner, games
        self.sums = {tail: [0.0] * dims for tail in TAILS}
        self.counts = dict.fromkeys(TAILS, 0)

    def __call__(self, done: int) -> None:
        for tail in TAILS:
            if done > self.games * (1 - tail):
                self.counts[tail] += 1
                self.sums[tail] = [s + t for s, t in zip(self.sums[tail], self.tuner.theta)]

    def average(self, tail: float) -> list[float]:
        return [s / self.counts[tail] for s in self.sums[tail]]


def one_run(problem: Any, games: int, seed: int) -> dict[str, float]:
    cls, config = tuner_config("spsa_tuner", problem.dimensions, games)
    tuner = cls("bench")
    tuner.rng = random.Random(seed * 1000003 + games)
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    averages = TailAverages(tuner, games, problem.dimensions)
    run_simulation(tuner, problem.win_rate, games, random.Random(seed * 7919 + games), on_result=averages)
    regrets = {"final": problem.regret(list(tuner.theta)),
               "last 0.5": problem.regret(tuner.recommended_parameters())}
    for tail in TAILS:
        regrets[f"last {tail:g}"] = problem.regret(averages.average(tail))
    return regrets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=40)
    parser.add_argument("--games", default="1000,2000,5000")
    args = parser.parse_args()
    print("mean simple regret of SPSA's recommendation: the final theta, or theta averaged over "
          f"the last half or quarter of the run; seeds 1000-{999 + args.seeds}")
    for name, problem in PROBLEMS.items():
        for games in (int(g) for g in args.games.split(",")):
            runs = [one_run(problem, games, seed) for seed in range(1000, 1000 + args.seeds)]
            line = f"{name:14s} {games:6d}"
            for key in runs[0]:
                line += f"  {key} {statistics.mean(r[key] for r in runs):.4f}"
            diff = [r["last 0.5"] - r["final"] for r in runs]
            line += (f"  (last 0.5) - final {statistics.mean(diff):+.4f} "
                     f"+- {statistics.stdev(diff) / len(diff) ** 0.5:.4f}")
            print(line, flush=True)


if __name__ == "__main__":
    main()
