"""How often bayes_tuner's 95% interval of the optimum's location holds the true optimum (simulated games).

For each seed, a bayes_tuner run of --games games on a problem of
bench/clop_problems.py (simulated games, as bench_continuous_tuners.py), then
BayesTuner.optimum_location(): per parameter the 2.5% and 97.5% quantiles of the
argmax of posterior draws (and the 25% and 75%: the central half). Prints, per
problem, the share of runs whose interval holds the optimum in every parameter (with
its 95% Wilson interval), the share per parameter, and the intervals' mean width
(optimiser units, the range is 1); then how often the central half held the optimum,
parameter by parameter (it should be about half), and its mean width.

Usage: nice -n 19 python bench/bench_optimum_interval.py [--games 1200] [--seeds 20] [--problems a,b]
       [--tuner NAME]   (a bayes_tuner name of bench_continuous_tuners.py; default: the default's)
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_continuous_tuners import tuner_config  # noqa: E402
from clop_problems import PROBLEMS  # noqa: E402

from ringmaster.competitions.simulate import run_simulation  # noqa: E402


def wilson(hits: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    z = 1.96
    centre = (hits + z * z / 2) / (n + z * z)
    half = z * math.sqrt(hits * (n - hits) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--problems", default="Log1D,Smooth2D")
    parser.add_argument("--tuner", default="bayes_tuner cautious",
                        help="bench_continuous_tuners.py's name of the bayes_tuner to run (default: "
                             "the default's; 'bayes_tuner' is the one measured before head_to_head)")
    args = parser.parse_args()
    for name in args.problems.split(","):
        problem = PROBLEMS[name]
        held, per_parameter, widths = 0, [0] * problem.dimensions, []
        half_held, half_widths = 0, []
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            cls, config = tuner_config(args.tuner, problem.dimensions, args.games)
            tuner = cls("bench")
            tuner.rng = random.Random(seed * 1000003 + args.games)
            tuner.initialise_from_control_file(config)
            tuner.set_clean_status()
            run_simulation(tuner, problem.win_rate, args.games, random.Random(seed * 7919 + args.games))
            location = tuner.optimum_location()
            # per parameter: the 95% interval's ends, the central half's and the median (OPTIMUM_QUANTILES)
            inside = [low <= best <= high for (low, _, _, _, high), best in zip(location, problem.optimum_u)]
            held += all(inside)
            per_parameter = [c + i for c, i in zip(per_parameter, inside)]
            widths += [high - low for low, _, _, _, high in location]
            half_held += sum(low_50 <= best <= high_50
                             for (_, low_50, _, high_50, _), best in zip(location, problem.optimum_u))
            half_widths += [high_50 - low_50 for _, low_50, _, high_50, _ in location]
        low, high = wilson(held, args.seeds)
        print(f"{args.tuner}, {name} ({problem.dimensions}-D), {args.games} games, {args.seeds} seeds: "
              f"interval holds the optimum in every parameter in {held}/{args.seeds} runs "
              f"({held / args.seeds:.2f}, 95% "
              f"{low:.2f} to {high:.2f}); per parameter {per_parameter}; mean width "
              f"{statistics.fmean(widths):.3f}; the central half holds it in {half_held}/{len(half_widths)} "
              f"parameters, mean width {statistics.fmean(half_widths):.3f}", flush=True)


if __name__ == "__main__":
    main()
