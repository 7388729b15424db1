"""bayes_tuner's model read from spsa_tuner's games: its answer against SPSA's, paired on the same games.

    python bench/model_on_spsa_games.py [--cells Flat4D:2000,IllCorrelated:300] [--seeds 50]
        [--jobs 2] [--out FILE] [--split FILE:TUNER ...] [--spsa "spsa_tuner gamma 1/6"]

Each run is spsa_tuner at its defaults (or with --spsa the bench's other SPSA configuration), started
at the centre, on the bench's simulated games
(bench_continuous_tuners.py's run_one, the same seeding, so SPSA's answers reproduce the committed
rows). Its pairs are recorded as head-to-head matches (the + point's wins in the pair's two games)
and handed to a bayes_tuner at its defaults, whose answer is read off the model it fits to them:
the games are SPSA's, the reading of them bayes_tuner's. A gap between the two tuners that
remains here lies in how the games are read; one that closes lies in where they are played.

Per cell it prints both answers' mean regret with 95% intervals, their paired difference, and
how the runs split: those with a parameter at least FAR (in the unit cube) from the optimum, and
the rest. --split FILE:TUNER prints the same split for committed rows (say
reports/continuous_tuners_edge.jsonl:bayes_tuner cautious). --out appends a row per run; runs
already in it are not run again, and the report covers them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_continuous_tuners import (  # noqa: E402
    PROBLEMS,
    load_results,
    mean_interval,
    parallel_of,
    start_mode_of,
    summarise,
    tuner_config,
)

from ringmaster.competitions.simulate import run_simulation  # noqa: E402

FAR = 0.4   # Flat4D's peak is at 0.2: a parameter at 0.6 or more is on the far plateau


SPSA_TUNERS = ("spsa_tuner", "spsa_tuner gamma 1/6")
"""The bench's SPSA configurations whose games the model may be given (--spsa)."""


def spsa_matches(problem_name: str, seed: int, games: int,
                 spsa_tuner: str = "spsa_tuner") -> tuple[list[float], list[dict[str, Any]]]:
    """SPSA's answer after games, and its pairs as head-to-head matches ({"x", "y", "wins", "games"})."""
    problem = PROBLEMS[problem_name]
    cls, config = tuner_config(spsa_tuner, problem.dimensions, games)
    tuner = cls("bench")
    tuner.rng = random.Random(seed * 1000003 + games)   # run_one's seeding
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    matches: dict[int, dict[str, Any]] = {}
    process = tuner.process_game_result

    def recording(response: Any) -> Any:
        number, pair = response.game_data
        record = tuner.pairs.get(pair)   # before processing, which forgets a pair once both games are in
        outcome = process(response)
        if outcome is not None:   # counted (None: a result already counted)
            match = matches.setdefault(pair, {"x": list(record["plus_u"]), "y": list(record["minus_u"]),
                                              "wins": 0.0, "games": 0})
            match["wins"] += (tuner._score(response, pair, number % 2) + 1) / 2   # SPSA's +1, 0, -1
            match["games"] += 1
        return outcome

    tuner.process_game_result = recording
    run_simulation(tuner, problem.win_rate, games, random.Random(seed * 7919 + games))
    return list(tuner.recommended_parameters()), [matches[k] for k in sorted(matches)]


def model_answer(problem_name: str, seed: int, games: int, matches: list[dict[str, Any]]) -> list[float]:
    """bayes_tuner's answer (its defaults) with matches as its games."""
    cls, config = tuner_config("bayes_tuner cautious", PROBLEMS[problem_name].dimensions, games)
    tuner = cls("bench")
    tuner.rng = random.Random(seed)
    tuner.initialise_from_control_file(config)
    tuner.set_clean_status()
    tuner.points = matches
    return list(tuner.recommended_parameters())


def one_run(task: tuple[str, int, int, str]) -> dict[str, Any]:
    problem_name, games, seed, spsa_tuner = task
    problem = PROBLEMS[problem_name]
    started = time.process_time()
    spsa, matches = spsa_matches(problem_name, seed, games, spsa_tuner)
    model = model_answer(problem_name, seed, games, matches)
    return {"problem": problem_name, "games": games, "seed": seed,
            **({} if spsa_tuner == "spsa_tuner" else {"spsa_tuner": spsa_tuner}),
            "spsa": problem.regret(spsa), "model": problem.regret(model),
            "spsa_answer": [round(u, 6) for u in spsa], "model_answer": [round(u, 6) for u in model],
            "cpu_seconds": round(time.process_time() - started, 1)}


def split_line(label: str, problem_name: str, answers: list[list[float]], regrets: list[float]) -> str:
    """How many runs have a parameter FAR or more from the optimum, and the mean regret of each part."""
    optimum = PROBLEMS[problem_name].optimum_u
    far = [any(abs(u - o) >= FAR for u, o in zip(a, optimum)) for a in answers]
    coordinates = sum(abs(u - o) >= FAR for a in answers for u, o in zip(a, optimum))
    parts = []
    for name, keep in (("with a far parameter", True), ("the rest", False)):
        chosen = [r for r, f in zip(regrets, far) if f == keep]
        parts.append(f"{name} {len(chosen)}" + (f" at {statistics.fmean(chosen):.4f}" if chosen else ""))
    return f"  {label}: {coordinates} far parameters; runs " + ", ".join(parts)


def report(rows: list[dict[str, Any]]) -> None:
    for cell in dict.fromkeys((r["problem"], r["games"]) for r in rows):
        runs = sorted((r for r in rows if (r["problem"], r["games"]) == cell), key=lambda r: r["seed"])
        spsa, model = [r["spsa"] for r in runs], [r["model"] for r in runs]
        print(f"{cell[0]} {cell[1]} games, {len(runs)} runs: SPSA's answer {mean_interval(summarise(spsa))}, "
              f"the model's on its games {mean_interval(summarise(model))}, difference "
              f"{mean_interval(summarise([m - s for m, s in zip(model, spsa)]), signed=True)}")
        print(split_line("SPSA's answer", cell[0], [r["spsa_answer"] for r in runs], spsa))
        print(split_line("the model's", cell[0], [r["model_answer"] for r in runs], model))


def committed_split(spec: str, cells: list[tuple[str, int]]) -> None:
    """The split of committed rows (spec FILE:TUNER, runs started at the centre, one game at a time)."""
    path, _, tuner = spec.partition(":")
    rows = [r for r in load_results(Path(path)) if r["tuner"] == tuner and start_mode_of(r) == "centre"
            and parallel_of(r) == 1]
    for problem_name, games in cells:
        runs = [r for r in rows if r["problem"] == problem_name and str(games) in r.get("answer", {})]
        if runs:
            print(f"{tuner} in {path}, {problem_name} {games} games, {len(runs)} runs")
            print(split_line("its answer", problem_name, [r["answer"][str(games)] for r in runs],
                             [r["regret"][str(games)] for r in runs]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", default="Flat4D:2000,IllCorrelated:300", help="PROBLEM:GAMES,...")
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", default=None,
                        help="append a row per run to this file (runs already there are kept, not rerun)")
    parser.add_argument("--split", action="append", default=[], metavar="FILE:TUNER")
    parser.add_argument("--spsa", default="spsa_tuner", choices=SPSA_TUNERS,
                        help="whose games the model reads (default spsa_tuner, fishtest's gamma 0.101)")
    args = parser.parse_args()
    cells = []
    for cell in args.cells.split(","):
        name, _, games = cell.partition(":")
        if name not in PROBLEMS or not games.isdigit():
            sys.exit(f"--cells: {cell!r} is not PROBLEM:GAMES with PROBLEM one of {', '.join(PROBLEMS)}")
        cells.append((name, int(games)))
    wanted = {(name, games, seed) for name, games in cells for seed in range(args.seeds)}
    rows = [r for r in load_results(Path(args.out)) if (r["problem"], r["games"], r["seed"]) in wanted
            and r.get("spsa_tuner", "spsa_tuner") == args.spsa] if args.out else []
    done = {(r["problem"], r["games"], r["seed"]) for r in rows}
    tasks = [(*t, args.spsa) for t in sorted(wanted - done, key=lambda t: (cells.index(t[:2]), t[2]))]
    if done:
        print(f"{len(done)} of the runs asked for are already in {args.out}; {len(tasks)} to do", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for row in pool.map(one_run, tasks, chunksize=1):
            rows.append(row)
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(row) + "\n")
    report(rows)
    for spec in args.split:
        committed_split(spec, cells)


if __name__ == "__main__":
    main()
