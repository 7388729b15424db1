#!/usr/bin/env python3
"""spsa_tuner and bayes_tuner through the ringmaster: `ringmaster run` on GTP engines with a known landscape.

bench_continuous_tuners.py drives the tuners' code with simulated games. This bench
runs the whole program instead, as a user does: one control file, the same for both
tuners but for competition_type, `ringmaster run CTL -j N`, engines started for each
game (bench/landscape_engine.py, whose games are decided by a problem of
clop_problems.py), state, history and report files, and the answer read back with
`ringmaster show CTL --json`. Simple regret = the optimum's win rate less the true
win rate at the answer.

Issue 34's first figures came from runs like these (1,200 games, -j 2, a smooth 2-D
landscape not in the bench's set: Smooth2D135 here). Each run's row goes to a
JSON-lines file (--out), so a stopped bench goes on where it stopped; the table
gives each run's regret and each tuner's mean with its 95% interval.

    python bench/bench_tuner_ringmaster.py [--problem Smooth2D135] [--games 1200] [--runs 3]
        [--parallel 2] [--tuners spsa_tuner,bayes_tuner] [--out FILE] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(BENCH))

from bench_continuous_tuners import load_results  # noqa: E402
from clop_problems import PROBLEMS  # noqa: E402

CONTROL_FILE = """\
competition_type = {tuner!r}

description = "{tuner} on {problem} through the ringmaster (bench/bench_tuner_ringmaster.py)"

ENGINE = [PYTHON, {engine!r}, '--problem', {problem!r}, '--meet', {meet!r}]

players = {{'opponent': Player(ENGINE)}}

board_size = 5
komi = 0.5
opponent = 'opponent'
candidate_colour = 'random'
number_of_games = {games}
confirm_games = 0

parameters = [
{parameters}
]


def make_candidate(*values):
    return Player(ENGINE + ['--at', ','.join(repr(v) for v in values)])
"""


class RunFailed(Exception):
    """A ringmaster command failed: its files are kept for a look."""


def control_file(tuner: str, problem: str, games: int, meet: Path) -> str:
    """The run's control file: both tuners at their defaults, starting at the centre, no confirmation
    games (they don't move the answer)."""
    dims = PROBLEMS[problem].dimensions
    parameters = "\n".join(f"    Parameter('p{d}', scale=LINEAR(0, 1), start=0.5)," for d in range(dims))
    return CONTROL_FILE.format(tuner=tuner, problem=problem, engine=str(BENCH / "landscape_engine.py"),
                               meet=str(meet), games=games, parameters=parameters)


def ringmaster(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-m", "ringmaster.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def run_once(tuner: str, problem: str, games: int, parallel: int, run: int, work: Path) -> dict:
    """One `ringmaster run` to the end, and the regret of its answer."""
    directory = work / f"{tuner}-{problem}-{games}-j{parallel}-{run}"
    shutil.rmtree(directory, ignore_errors=True)
    meet = directory / "meet"
    meet.mkdir(parents=True)
    ctl = directory / "tune.ctl"
    ctl.write_text(control_file(tuner, problem, games, meet))
    started = time.monotonic()
    done = ringmaster("run", str(ctl), "-j", str(parallel), "-q", cwd=directory)
    wall = time.monotonic() - started
    if done.returncode != 0:
        raise RunFailed(f"{ctl}: ringmaster run failed ({done.returncode}):\n{done.stderr[-2000:]}")
    shown = ringmaster("show", str(ctl), "--json", cwd=directory)
    if shown.returncode != 0:
        raise RunFailed(f"{ctl}: ringmaster show failed:\n{shown.stderr[-2000:]}")
    report = json.loads(shown.stdout)
    answer = [float(x) for x in report["recommended"]["optimiser_parameters"]]
    return {"tuner": tuner, "problem": problem, "games": games, "parallel": parallel, "run": run,
            "games_played": report["games_played"], "answer": [round(x, 6) for x in answer],
            "regret": PROBLEMS[problem].regret(answer), "wall_seconds": round(wall, 1)}


# Student's t, 97.5% quantile, by degrees of freedom: a few runs' interval is wider than the normal's
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def t975(freedom: int) -> float:
    """The t quantile for these degrees of freedom (the table's next lower entry: a little wide), or the
    normal's 1.96 beyond 30."""
    if freedom > 30:
        return 1.96
    return T975[max(k for k in T975 if k <= freedom)]


def interval(values: list[float]) -> str:
    """Mean [95% interval] of a few runs, by Student's t."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.4f}"
    half = t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.4f} [{mean - half:.4f}, {mean + half:.4f}]"


def table(rows: list[dict]) -> str:
    lines = ["| tuner | problem | games | -j | runs | regret of each run | mean [95%] | wall s a run |",
             "|---|---|---|---|---|---|---|---|"]
    keys = sorted({(r["tuner"], r["problem"], r["games"], r["parallel"]) for r in rows})
    for key in keys:
        cell = sorted((r for r in rows if (r["tuner"], r["problem"], r["games"], r["parallel"]) == key),
                      key=lambda r: r["run"])
        regrets = [r["regret"] for r in cell]
        each = ", ".join(f"{x:.3f}" for x in regrets)
        wall = statistics.fmean(r["wall_seconds"] for r in cell)
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {key[3]} | {len(cell)} | {each} | "
                     f"{interval(regrets)} | {wall:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--problem", default="Smooth2D135", choices=sorted(PROBLEMS))
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parallel", type=int, default=2, help="the ringmaster's -j")
    parser.add_argument("--tuners", default="spsa_tuner,bayes_tuner")
    parser.add_argument("--out", default=None, help="JSON-lines file of the runs (kept across invocations)")
    parser.add_argument("--keep", default=None, help="a directory to keep each run's files in")
    args = parser.parse_args()
    out = Path(args.out) if args.out else None
    rows = load_results(out) if out else []
    if args.games < 1 or args.runs < 1 or args.parallel < 1:
        parser.error("--games, --runs and --parallel must be at least 1")
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-tuner-ringmaster-"))
    keep = bool(args.keep)
    try:
        for run in range(args.runs):
            for tuner in args.tuners.split(","):
                if any((r["tuner"], r["problem"], r["games"], r["parallel"], r["run"])
                       == (tuner, args.problem, args.games, args.parallel, run) for r in rows):
                    continue
                try:
                    row = run_once(tuner, args.problem, args.games, args.parallel, run, work)
                except RunFailed as failure:
                    keep = True
                    sys.exit(str(failure))
                print(f"{tuner} run {run}: regret {row['regret']:.4f} at {row['answer']}, "
                      f"{row['wall_seconds']:.0f} s", flush=True)
                rows.append(row)
                if out:
                    with out.open("a") as f:
                        f.write(json.dumps(row) + "\n")
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)
    print(table([r for r in rows if r["problem"] == args.problem and r["games"] == args.games
                 and r["parallel"] == args.parallel]))


if __name__ == "__main__":
    main()
