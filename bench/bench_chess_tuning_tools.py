"""chess-tuning-tools' local tuner at its defaults on the bench's problems, beside bayes_tuner.

Issue 34 names chess-tuning-tools (Karlson Pfannschmidt's `tune`, on the `bask` library) as the
Gaussian-process tuner people use at a few hundred to a few thousand games. This script drives
its own functions, as its `tune local` loop calls them, with the games simulated as in
bench_continuous_tuners.py (clop_problems' win rates, every game independent, no draws):

- the optimizer: `tune.local.initialize_optimizer` with `tune.priors.create_priors` and the
  command line's defaults (16 initial points, max-value entropy search over 500 points, input
  warping, the priors' signal scale 4, length scales 0.1-0.5, noise scale 0.0006);
- a match: 10 game pairs (its default `rounds`) against the fixed opponent, scored as its
  pentanomial model does (`tune.local.counts_to_penta`; 200,000 Dirichlet draws for the
  score's variance where it draws 1,000,000, for time), then `tune.local.update_model`;
- the answer at each budget: `tune.utils.expected_ucb(..., alpha=0)`, the point it reports as
  "Current optimum". It reports none before its 16 initial points are played (320 games), so
  a budget below that has no row.

The rows have bench_continuous_tuners.py's format (tuner "chess-tuning-tools"), so that its
`versus` command sets them beside bayes_tuner's:

  python bench/bench_chess_tuning_tools.py --problems Flat4D --seeds 12 --budgets 600,1200,2000 \\
      --out reports/continuous_tuners_ctt.jsonl
  python bench/bench_continuous_tuners.py versus --out reports/continuous_tuners_ctt.jsonl \\
      --with reports/continuous_tuners_edge.jsonl --tuner "bayes_tuner cautious" --against chess-tuning-tools

It needs chess-tuning-tools and its libraries, which the project does not depend on, in a
virtual environment of their own. Its `counts_to_penta` converts a one-element array with
float(), which numpy 2.4 refuses and 2.3 only warns of; the report's runs used numpy 2.2.6:

  pip install 'numpy<2.3' bask==0.11.0 dill atomicwrites pandas matplotlib
  pip install --no-deps git+https://github.com/kiudee/chess-tuning-tools@a88f94725ac074ba4df635e263ffa98a502cee08

A run of 2,000 games takes about 250 CPU seconds (its model is refitted by MCMC after every match).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from clop_problems import BENCH_PROBLEMS, PROBLEMS  # noqa: E402

TUNER = "chess-tuning-tools"
ROUNDS = 10                 # tune's default: game pairs a match
INITIAL_POINTS = 16         # tune's default n_initial_points: no answer before them
DIRICHLET_DRAWS = 200_000   # tune draws 1,000,000 for the score's variance


def run_one(task: tuple[str, int, tuple[int, ...]]) -> dict[str, Any]:
    """One tuning run of problem (seed) to the largest budget, with the answer at each budget."""
    import numpy as np
    from skopt.utils import create_result
    from tune.local import counts_to_penta, initialize_optimizer, update_model
    from tune.priors import create_priors
    from tune.utils import expected_ucb

    warnings.filterwarnings("ignore")
    logging.disable(logging.WARNING)
    name, seed, budgets = task
    problem = PROBLEMS[name]
    started = time.process_time()
    priors = create_priors(n_parameters=problem.dimensions, signal_scale=4.0,
                           lengthscale_lower_bound=0.1, lengthscale_upper_bound=0.5,
                           noise_scale=0.0006)
    optimizer = initialize_optimizer(X=[], y=[], noise=[],
                                     parameter_ranges=[(0.0, 1.0)] * problem.dimensions,
                                     random_seed=seed, resume=False, gp_priors=priors)
    rng = np.random.default_rng(seed * 7919 + 17)
    xs: list[list[float]] = []
    scores: list[float] = []
    row: dict[str, Any] = {"tuner": TUNER, "problem": name, "seed": seed, "regret": {}, "answer": {}}
    for match in range(1, max(budgets) // (2 * ROUNDS) + 1):
        point = optimizer.ask()
        wins = (rng.random((ROUNDS, 2)) < problem.win_rate(point)).sum(axis=1)
        counts = np.array([np.sum(wins == 2), 0, np.sum(wins == 1), 0, np.sum(wins == 0)])
        score, variance = counts_to_penta(counts, n_dirichlet_samples=DIRICHLET_DRAWS,
                                          random_state=int(rng.integers(2 ** 31)))
        update_model(optimizer, point, score, variance)
        xs.append(point)
        scores.append(score)
        games = 2 * ROUNDS * match
        if games in budgets and optimizer.gp.chain_ is not None:
            found = create_result(Xi=xs, yi=scores, space=optimizer.space, models=[optimizer.gp])
            answer = [float(v) for v in expected_ucb(found, alpha=0.0, random_state=seed)[0]]
            row["regret"][str(games)] = problem.regret(answer)
            row["answer"][str(games)] = [round(v, 6) for v in answer]
    row["cpu_seconds"] = time.process_time() - started
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problems", default=",".join(BENCH_PROBLEMS))
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--budgets", default="600,1200,2000",
                        help=f"games; multiples of {2 * ROUNDS}, from {2 * ROUNDS * INITIAL_POINTS}")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True, help="rows are added; seeds it holds are skipped")
    args = parser.parse_args()
    try:
        import tune.local  # noqa: F401
    except ImportError as error:
        sys.exit(f"bench_chess_tuning_tools: {error}; install chess-tuning-tools as this script's "
                 "docstring says")
    budgets = tuple(int(b) for b in args.budgets.split(","))
    bad = [b for b in budgets if b % (2 * ROUNDS) or b < 2 * ROUNDS * INITIAL_POINTS]
    if bad:
        sys.exit(f"bench_chess_tuning_tools: --budgets {bad}: each must be a multiple of "
                 f"{2 * ROUNDS} games and at least {2 * ROUNDS * INITIAL_POINTS}")
    problems = args.problems.split(",")
    unknown = [p for p in problems if p not in PROBLEMS]
    if unknown:
        sys.exit(f"bench_chess_tuning_tools: --problems: unknown {unknown}; known: {', '.join(PROBLEMS)}")
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {(r["problem"], r["seed"]) for r in map(json.loads, out.read_text().splitlines())
                if r["tuner"] == TUNER}
    tasks = [(p, s, budgets) for p in problems
             for s in range(args.first_seed, args.first_seed + args.seeds) if (p, s) not in done]
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a") as file:
        for row in pool.map(run_one, tasks, chunksize=1):
            file.write(json.dumps(row) + "\n")
            file.flush()
            regrets = ", ".join(f"{g}: {r:.4f}" for g, r in row["regret"].items())
            print(f"{row['problem']} seed {row['seed']}: {regrets} ({row['cpu_seconds']:.0f} CPU s)",
                  flush=True)


if __name__ == "__main__":
    main()
