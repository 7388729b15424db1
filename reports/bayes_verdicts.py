"""bayes_tuner's verdict on a flat landscape and on peaked ones: its model's own measures at the answer
(the old bar, the 95% interval of the win rate at most 0.2 wide; the model's probability that the answer
beats the start) against fresh confirmation games with the start (reports/tuner_verdicts.md).

    PYTHONPATH=. python reports/bayes_verdicts.py [SEEDS]
"""

from __future__ import annotations

import math
import random
import sys

import numpy as np

from bench.clop_problems import PROBLEMS, Problem
from ringmaster.competitions.bayes_reports import rate_interval
from ringmaster.competitions.bayes_tuner import BayesTuner
from ringmaster.competitions.simulate import make_simulated_candidate, run_simulation
from ringmaster.settings import Player
from ringmaster.tuning.parameters import ContinuousParameter
from ringmaster.tuning.scales import LINEAR

FLAT = {"Flat1D": Problem("Flat1D", 1, lambda v: 0.0, (0.0,)),
        "Flat2D": Problem("Flat2D", 2, lambda v: 0.0, (0.0, 0.0))}
CASES = [*FLAT.values(), PROBLEMS["Log1D"], PROBLEMS["Smooth2D"], PROBLEMS["Rosenbrock"]]
BUDGETS = (400, 1200)
OLD_WIDTH_BAR = 0.2
MODEL_BAR = 0.975


def tuner(problem: Problem, seed: int, games: int) -> BayesTuner:
    """bayes_tuner at its defaults (confirm_games: a tenth of the games), seeded as the bench seeds it."""
    result = BayesTuner("bayes")
    result.rng = random.Random(seed * 1000003 + games)
    result.initialise_from_control_file({
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")}, "opponent": "opp",
        "candidate_colour": "b", "number_of_games": games, "make_candidate": make_simulated_candidate,
        "parameters": [ContinuousParameter(f"p{d}", scale=LINEAR(0, 1), start=0.5)
                       for d in range(problem.dimensions)]})
    result.set_clean_status()
    return result


def beats_start(t: BayesTuner, point: list[float]) -> float:
    """The model's P(f(point) > f(start)), by the joint posterior of the two."""
    gp = t.model()
    both = np.array([point, t.start_parameters()])
    mean, cov = gp.predict_mean(both), gp.covariance(both, both)
    variance = cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1]
    if variance <= 1e-12:
        return 0.5
    return 0.5 * (1.0 + math.erf((mean[0] - mean[1]) / math.sqrt(2.0 * variance)))


def one_run(problem: Problem, seed: int, games: int) -> tuple[bool, bool, bool, float]:
    """(old bar passed, model's P >= MODEL_BAR, the verdict says Use, true gain of the answer over
    the start in win-rate points)."""
    t = tuner(problem, seed, games)
    run_simulation(t, problem.win_rate, games + t.confirm_games, random.Random(seed * 7919 + games))
    assert t.is_complete()
    point, mean, sd = t.recommendation()
    _, low, high = rate_interval(mean, sd)
    gain = problem.win_rate(point) - problem.win_rate(t.start_parameters())
    return (high - low <= OLD_WIDTH_BAR, beats_start(t, point) >= MODEL_BAR,
            t.verdict().headline().startswith("Use"), gain)


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    print("| problem | games | runs | true gain of the answer over the start, mean | old bar: 'Use' "
          f"| model's P(beats start) >= {MODEL_BAR:g} | confirmation games: 'Use' |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for problem in CASES:
        for games in BUDGETS:
            rows = [one_run(problem, seed, games) for seed in range(seeds)]
            counts = [sum(row[i] for row in rows) for i in range(3)]
            gain = sum(row[3] for row in rows) / seeds
            print(f"| {problem.name} | {games} | {seeds} | {gain:+.3f} | {counts[0]} | {counts[1]} "
                  f"| {counts[2]} |", flush=True)


if __name__ == "__main__":
    main()
