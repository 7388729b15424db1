"""What could be SPSA's own confidence measure? Its last iterates' spread, and its drift against its noise,
on a flat landscape and on two peaked ones (issue 33: reports/tuner_verdicts.md).

    PYTHONPATH=. python reports/tuner_verdicts.py [SEEDS]
"""

from __future__ import annotations

import math
import random
import statistics
import sys

from ringmaster.competitions.simulate import make_simulated_candidate, run_simulation
from ringmaster.competitions.spsa_tuner import SpsaTuner
from ringmaster.settings import Player
from ringmaster.tuning.parameters import ContinuousParameter
from ringmaster.tuning.scales import LINEAR

LANDSCAPES = {
    "flat": lambda p: 0.5,
    "peak": lambda p: 0.6 - 0.5 * (p[0] - 0.3) ** 2,
    "sharp": lambda p: 0.6 - 3.0 * (p[0] - 0.3) ** 2,
}


def tuner(seed: int, games: int) -> SpsaTuner:
    result = SpsaTuner("spsa")
    result.rng = random.Random(seed)
    result.initialise_from_control_file({
        "board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")}, "opponent": "opp",
        "number_of_games": games, "make_candidate": make_simulated_candidate, "confirm_games": 0,
        "parameters": [ContinuousParameter("x", scale=LINEAR(0, 1))]})
    result.set_clean_status()
    return result


def one_run(landscape, seed: int, games: int) -> tuple[float, float, float]:
    """(sd of theta over the averaged last half, |answer - 0.3|, drift z: (answer - start) over the
    noise its steps could make, each step weighted by its share in the answer)."""
    t = tuner(seed, games)
    n, after = t.number_of_games, t.average_after
    thetas: list[float] = []
    state = {"previous": t.theta[0], "noise": 0.0}

    def note(done: int) -> None:
        step = t.theta[0] - state["previous"]
        state["previous"] = t.theta[0]
        weight = 1.0 if done <= after + 1 else (n - done + 1) / (n - after)
        state["noise"] += (weight * step) ** 2
        thetas.append(t.theta[0])
    run_simulation(t, landscape, games, random.Random(seed), on_result=note)
    answer = t.recommended_parameters()[0]
    return (statistics.pstdev(thetas[after:]), abs(answer - 0.3),
            (answer - t.start[0]) / math.sqrt(state["noise"]))


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print("landscape games  sd of last half: median [10%, 90%]   |answer - 0.3|: median   "
          "drift z: median [10%, 90%]")
    for name, landscape in LANDSCAPES.items():
        for games in (200, 1000, 4000):
            runs = [one_run(landscape, seed, games) for seed in range(seeds)]
            sds, errors, zs = (sorted(column) for column in zip(*runs))
            tenth = max(0, seeds // 10 - 1)
            spread = f"{statistics.median(sds):.3f} [{sds[tenth]:.3f}, {sds[-1 - tenth]:.3f}]"
            drift = f"{statistics.median(zs):+.2f} [{zs[tenth]:+.2f}, {zs[-1 - tenth]:+.2f}]"
            print(f"{name:9} {games:5d}  {spread}          {statistics.median(errors):.3f}"
                  f"                {drift}")


if __name__ == "__main__":
    main()
