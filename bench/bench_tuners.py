"""Tuning efficiency: simple regret of each tuner on known win-rate landscapes, driven by simulated games.

The real McTuner and CeTuner code chooses every game; a landscape (the true
win probability of a candidate, as a function of its engine parameters in
[0, 1]^d) decides each game. Simple regret = best win rate on the landscape
minus the true win rate of the candidate the tuner would return now.

Usage: python bench/bench_tuners.py [--seeds 50] [--jobs 2] [--games 10000] [--out FILE]
       python bench/bench_tuners.py --stop-check   (how stop_when_confident = 0.95 behaves)
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ringmaster.competitions.ce_tuner import CeTuner
from ringmaster.competitions.mc_tuner import McTuner
from ringmaster.competitions.simulate import make_simulated_candidate, run_simulation
from ringmaster.settings import Player
from ringmaster.tuning.parameters import CeParameter, McParameter
from ringmaster.tuning.scales import LINEAR

CHECKPOINTS = (250, 500, 1000, 1500, 2000, 2500, 3000, 5000, 10000)
SHOWN = (500, 2000, 10000)


# Landscapes: engine parameters in [0, 1]^d -> the candidate's win probability.

def smooth_1d(p):
    return 0.25 + 0.35 * np.exp(-((p[0] - 0.62) / 0.18) ** 2)


def bumpy_1d(p):
    return smooth_1d(p) + 0.06 * np.sin(2 * np.pi * 7 * p[0])


def smooth_2d(p):
    return 0.25 + 0.35 * np.exp(-((p[0] - 0.3) ** 2 + (p[1] - 0.7) ** 2) / (2 * 0.15 ** 2))


def bumpy_2d(p):
    return smooth_2d(p) + 0.05 * np.sin(2 * np.pi * 5 * p[0]) * np.sin(2 * np.pi * 4 * p[1])


LANDSCAPES: dict[str, tuple[int, Callable]] = {
    "1-D smooth": (1, smooth_1d), "1-D bumpy": (1, bumpy_1d),
    "2-D smooth": (2, smooth_2d), "2-D bumpy": (2, bumpy_2d),
}


@functools.cache
def best_rate(name: str) -> float:
    dims, f = LANDSCAPES[name]
    if dims == 1:
        return float(np.max(f([np.linspace(0, 1, 100001)])))
    x, y = np.meshgrid(np.linspace(0, 1, 1001), np.linspace(0, 1, 1001))
    return float(np.max(f([x, y])))


def rate(name: str, parameters: list[float]) -> float:
    return float(LANDSCAPES[name][1]([min(1.0, max(0.0, v)) for v in parameters]))


# Tuners, configured once for every landscape (the manual's sample mc settings).

def common(dims: int) -> dict[str, Any]:
    return {"board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
            "candidate_colour": "b", "opponent": "opp",
            "make_candidate": make_simulated_candidate}


def mc_config(dims: int, split: int, depth: int, exploration: float) -> dict[str, Any]:
    return {**common(dims),
            "parameters": [McParameter(f"p{d}", scale=LINEAR(0, 1), split=split)
                           for d in range(dims)],
            "max_depth": depth, "exploration_coefficient": exploration,
            "initial_visits": 10, "initial_wins": 5}


def clip01(x: float) -> float:
    return min(1.0, max(0.0, x))


def ce_config(dims: int, games: int) -> dict[str, Any]:
    samples, batch = 20, 10
    return {**common(dims),
            "parameters": [CeParameter(f"p{d}", initial_mean=0.5, initial_variance=0.09,
                                       transform=clip01) for d in range(dims)],
            "samples_per_generation": samples, "batch_size": batch,
            "number_of_generations": max(1, games // (samples * batch)),
            "elite_proportion": 0.2, "step_size": 0.5}


def tuner_configs(dims: int, games: int) -> dict[str, tuple[type, dict[str, Any]]]:
    grid = 16 if dims == 1 else 8
    return {
        "mc_tuner depth 1": (McTuner, mc_config(dims, grid, 1, 0.45)),
        "mc_tuner depth 2": (McTuner, mc_config(dims, 4, 2, 0.45)),
        "ce_tuner": (CeTuner, ce_config(dims, games)),
        "uniform": (McTuner, mc_config(dims, grid, 1, 1e6)),
    }


def returned_parameters(tuner: Any) -> list[float]:
    if isinstance(tuner, McTuner):
        return tuner.tree.parameters_for_path(tuner.tree.best_path())
    return [clip01(mean) for mean, _ in tuner.distribution]


def run_one(task: tuple[str, str, int, int]) -> tuple[str, str, int, list[float]]:
    tuner_name, landscape, seed, games = task
    dims, f = LANDSCAPES[landscape]
    cls, config = tuner_configs(dims, games)[tuner_name]
    tuner = cls("bench")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    best = best_rate(landscape)
    regrets: list[float] = []

    def on_result(done: int) -> None:
        if done in CHECKPOINTS and done <= games:
            regrets.append(best - rate(landscape, returned_parameters(tuner)))

    def win_probability(p: list[float]) -> float:
        return float(f(p))

    run_simulation(tuner, win_probability, games, random.Random(seed + 7919), on_result=on_result)
    return tuner_name, landscape, seed, regrets


def games_to_reach(checkpoints: list[int], regrets: list[float], target: float) -> int | None:
    """The first checkpoint from which the median regret stays at or below target."""
    reach = None
    for checkpoint, regret in zip(checkpoints, regrets):
        if regret <= target + 1e-12:
            reach = checkpoint if reach is None else reach
        else:
            reach = None
    return reach


def stop_check_one(task: tuple[str, int, int]) -> tuple[str, int, bool]:
    """(landscape, games played, returned a worse cell than the grid's best) for one seed."""
    name, split, seed = task
    dims, f = LANDSCAPES[name]
    config = {**mc_config(dims, split, 1, 0.45), "number_of_games": 5000,
              "stop_when_confident": 0.95}
    tuner = McTuner("stop")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    cells = [tuner.tree.parameters_for_path((i,)) for i in range(tuner.tree.branching_factor)]
    best_cell = max(rate(name, c) for c in cells)
    played = run_simulation(tuner, lambda p: float(f(p)), 5000, random.Random(seed + 1))
    chosen = rate(name, tuner.tree.parameters_for_path(tuner.tree.best_path()))
    return name, played, chosen < best_cell - 1e-12


def stop_check(jobs: int) -> None:
    """stop_when_confident = 0.95 on 4-cell (1-D) and 4x4 (2-D) grids, up to 5000 games."""
    cases = {"1-D smooth": (4, 100), "1-D bumpy": (4, 100), "2-D smooth": (4, 30)}
    tasks = [(name, split, seed) for name, (split, seeds) in cases.items()
             for seed in range(seeds)]
    outcomes: dict[str, list[tuple[int, bool]]] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, played, wrong in pool.map(stop_check_one, tasks, chunksize=4):
            outcomes.setdefault(name, []).append((played, wrong))
    print("| landscape (grid) | seeds | stopped early | median games when stopped "
          "| wrong cell when stopped |")
    print("|---|---|---|---|---|")
    for name, runs in outcomes.items():
        early = [(n, w) for n, w in runs if n < 5000]
        median = statistics.median(n for n, _ in early) if early else "-"
        print(f"| {name} ({'4' if name.startswith('1') else '4x4'}) | {len(runs)} | {len(early)} "
              f"| {median} | {sum(w for _, w in early)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--out", type=str, default=None)
    parser.add_argument("--stop-check", action="store_true")
    args = parser.parse_args()
    if args.stop_check:
        stop_check(args.jobs)
        return
    checkpoints = [c for c in CHECKPOINTS if c <= args.games]
    tuners = list(tuner_configs(1, args.games))
    tasks = [(t, name, seed, args.games) for name in LANDSCAPES for t in tuners
             for seed in range(args.seeds)]
    started = time.time()
    results: dict[tuple[str, str], list[list[float]]] = {}
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for tuner_name, landscape, _, regrets in pool.map(run_one, tasks, chunksize=4):
            results.setdefault((tuner_name, landscape), []).append(regrets)
    elapsed = time.time() - started

    def medians(key: tuple[str, str]) -> list[float]:
        return [statistics.median(r[i] for r in results[key]) for i in range(len(checkpoints))]

    lines = [f"Median simple regret over {args.seeds} seeds (win-rate points; lower is better).",
             f"Command: python bench/bench_tuners.py --seeds {args.seeds} --games {args.games}",
             f"Wall time {elapsed:.0f} s with {args.jobs} worker processes.", ""]
    shown = [c for c in SHOWN if c <= args.games]
    header = "| landscape | tuner | " + " | ".join(f"{c} games" for c in shown) + \
             " | games until regret stays <= uniform's at the end |"
    lines += [header, "|" + "---|" * (len(shown) + 3)]
    target_reached: list[int] = []
    for landscape in LANDSCAPES:
        target = medians(("uniform", landscape))[-1]
        best_games = math.inf
        for tuner_name in tuners:
            m = medians((tuner_name, landscape))
            cells = [f"{m[checkpoints.index(c)]:.4f}" for c in shown]
            reach = games_to_reach(checkpoints, m, target)
            if tuner_name != "uniform" and reach is not None:
                best_games = min(best_games, reach)
            lines.append(f"| {landscape} | {tuner_name} | " + " | ".join(cells)
                         + f" | {reach if reach is not None else '> ' + str(args.games)} |")
        target_reached.append(int(best_games) if best_games != math.inf else -1)
    lines.append("")
    lines.append("Best of our tuners reaches uniform allocation's final median regret after: "
                 + ", ".join(f"{name}: {g if g > 0 else 'never'} games"
                             for name, g in zip(LANDSCAPES, target_reached)))
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
