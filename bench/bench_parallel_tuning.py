"""Parallel-safe selection: does mc_tuner spend games as well with 8 in flight as with 1?

Drives the real McTuner with simulated games (landscapes from bench_tuners.py),
keeping 1 or 8 games in flight (a random one finishes next), with games in
flight ignored when choosing (count_games_in_flight = False, Gomill's
behaviour), counted as losses ('loss', virtual losses) or counted as visits at
the candidate's current win rate ('mean', virtual visits). Reports median simple regret over seeds
how many win-rate points each game played cost on average (the true rate of
the candidate that played it, below the best: how well games are *spent*), and
how often a game was started on a candidate that already had one in flight.

Usage: python bench/bench_parallel_tuning.py [--seeds 50] [--jobs 2] [--games 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_tuners import LANDSCAPES, best_rate, mc_config, rate

from ringmaster.competitions.mc_tuner import McTuner
from ringmaster.competitions.simulate import play_simulated

MODES = {"parallel 1": (1, True),
         "parallel 8, Gomill (in flight ignored)": (8, "ignore"),
         "parallel 8, in flight as losses": (8, "loss"),
         "parallel 8, in flight at the mean": (8, "mean")}
CASES = {"1-D bumpy, depth 1": ("1-D bumpy", 16, 1), "1-D bumpy, depth 2": ("1-D bumpy", 4, 2),
         "2-D smooth, depth 1": ("2-D smooth", 8, 1), "2-D smooth, depth 2": ("2-D smooth", 4, 2)}
CHECKPOINTS = (100, 250, 500, 2000)


def run_one(task: tuple[str, str, int, int]) -> tuple[str, str, list[float], float, float]:
    case, mode, seed, games = task
    landscape, split, depth = CASES[case]
    parallel, counted = MODES[mode]
    dims, f = LANDSCAPES[landscape]
    config = mc_config(dims, split, depth, 0.45)
    config["count_games_in_flight"] = counted
    tuner = McTuner("bench")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    rng = random.Random(seed + 7919)
    best = best_rate(landscape)
    in_flight: list = []
    regrets: list[float] = []
    duplicates = started = done = 0
    spent = 0.0
    while done < games:
        while len(in_flight) < parallel and done + len(in_flight) < games:
            job = tuner.get_game()
            path = tuple(job.game_data[1])
            leaf = tuner.tree.node_for_path(path)
            spent += best - rate(landscape, tuner.tree.parameters_for_path(path))
            duplicates += leaf.in_flight > 1
            started += 1
            in_flight.append(job)
        job = in_flight.pop(rng.randrange(len(in_flight)))
        tuner.process_game_result(play_simulated(job, lambda p: float(f(p)), rng))
        done += 1
        if done in CHECKPOINTS:
            regrets.append(best - rate(landscape, tuner.tree.parameters_for_path(
                tuner.tree.best_path())))
    return case, mode, regrets, duplicates / started, spent / started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--out", type=str, default=None)
    args = parser.parse_args()
    checkpoints = [c for c in CHECKPOINTS if c <= args.games]
    tasks = [(case, mode, seed, args.games) for case in CASES for mode in MODES
             for seed in range(args.seeds)]
    started = time.time()
    results: dict[tuple[str, str], list[tuple[list[float], float, float]]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for case, mode, regrets, dup, spent in pool.map(run_one, tasks, chunksize=4):
            results.setdefault((case, mode), []).append((regrets, dup, spent))
    elapsed = time.time() - started
    lines = [(f"Simple regret (median over {args.seeds} seeds, and mean +- standard error at "
              f"{checkpoints[-1]}); 'cost/game' = mean true regret of the candidates that "
              "played, over all games; 'dup' = share of games started on a candidate that "
              "already had a game in flight."),
             (f"Command: python bench/bench_parallel_tuning.py --seeds {args.seeds} "
              f"--games {args.games}"),
             f"Wall time {elapsed:.0f} s with {args.jobs} worker processes.", "",
             "| case | mode | " + " | ".join(f"median @{c}" for c in checkpoints)
             + f" | mean @{checkpoints[-1]} | cost/game | dup |",
             "|" + "---|" * (len(checkpoints) + 5)]
    for case in CASES:
        for mode in MODES:
            runs = results[(case, mode)]
            medians = [statistics.median(r[i] for r, _, _ in runs)
                       for i in range(len(checkpoints))]
            finals = [r[-1] for r, _, _ in runs]
            sem = statistics.stdev(finals) / len(finals) ** 0.5 if len(finals) > 1 else 0.0
            dup = statistics.mean(d for _, d, _ in runs)
            costs = [c for _, _, c in runs]
            cost = statistics.mean(costs)
            cost_sem = statistics.stdev(costs) / len(costs) ** 0.5 if len(costs) > 1 else 0.0
            lines.append(f"| {case} | {mode} | " + " | ".join(f"{m:.4f}" for m in medians)
                         + f" | {statistics.mean(finals):.4f} +- {sem:.4f} "
                         f"| {cost:.4f} +- {cost_sem:.4f} "
                         f"| {dup:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
