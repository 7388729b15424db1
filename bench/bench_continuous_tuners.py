"""Simple regret of every tuner on CLOP-style problems (1, 2, 4 dimensions), through the tuner code.

Each run drives a real tuner (McTuner, CeTuner, SpsaTuner, BayesTuner: the same
get_game / process_game_result the ringmaster calls) with simulated games
(ringmaster/competitions/simulate.py): a CLOP problem gives each candidate's win rate
against the opponent, and a head-to-head game between two candidates is decided
by the difference of their strengths. Simple regret = the optimum's win rate
minus the win rate of the point the tuner recommends.

mc_tuner, ce_tuner and uniform don't depend on the run's length: one run per seed,
read at every checkpoint. spsa_tuner and bayes_tuner plan by number_of_games (SPSA's
gain schedule and the stretch it averages; the bayes tuner's match size), so each
checkpoint is its own run. "spsa_tuner last iterate" answers with SPSA's final point
(average_last = 0), as fishtest does; "spsa_tuner gamma 1/6" has gamma = 1/6 (Spall's
asymptotically optimal exponent) in place of fishtest's 0.101; "bayes_tuner constant"
has trend = 'constant'; "bayes_tuner trust region" has trust_region = True;
"bayes_tuner smoothed" has answer_smoothing = 2; "bayes_tuner head to head" has head_to_head = True,
bayes_tuner's default from 2026-11-28 (every other bayes_tuner name here has head_to_head = False, the
default before, so that the committed rows of those names stay the runs they were); "bayes_tuner
cautious" has head_to_head = True and answer_caution = 2, the default since (every other bayes_tuner
name has answer_caution = 0, the default before); "bayes_tuner 2-game matches" is "bayes_tuner
cautious" with games_per_point = 2 at 375 games or fewer (a pilot, not adopted);
"spsa_tuner against opponent" has head_to_head = False (each perturbed candidate plays the opponent,
as bayes_tuner's matches do by default).

Results go to a JSON-lines file, one line per run (a per-budget tuner's run is one
budget), so an interrupted bench goes on where it stopped; --report turns the file
into tables and a log-log SVG plot, with the checkpoints the file holds. Runs are
done in blocks of 20 seeds, and within a block the 1-D and 2-D problems at up to
2,000 games first (issue 34's question), so a bench stopped early has whole cells.
Each run plays one game at a time unless --parallel N keeps N in flight (a random one
finishes next, its result reaching the tuner after the games started meanwhile); a
file holds runs of one --parallel, recorded in each row when above 1.

Usage: python bench/bench_continuous_tuners.py run [--seeds 50] [--first-seed 0] [--jobs 2] [--tuners a,b]
           [--problems a,b] [--budgets 1000,2000,5000,20000] [--per-budget-max 20000]
           [--start centre|random] [--parallel 1] [--out FILE]
       python bench/bench_continuous_tuners.py report [--out FILE] [--with FILE] [--svg FILE]
           [--md FILE] [--section NAME] [--problems a,b]
           (--with: another file's rows of the tuners, problem by problem, that --out lacks;
            as many as given)
       python bench/bench_continuous_tuners.py compare --before FILE --out FILE [--tuner T]
           [--against T] [--after-tuner T] [--md FILE --section NAME]
           (a change, paired on the seeds both hold; --after-tuner names a variant's rows)
       python bench/bench_continuous_tuners.py versus --out FILE [--with FILE] [--tuner T] [--against T]
           [--md FILE --section NAME]
           (two tuners on the same seeds of one file, with where their answers lie)
       python bench/bench_continuous_tuners.py levels --out FILE [--tuners a,b] [--md FILE --section NAME]
           (the win rate bayes_tuner states at its answer: interval width, how often it holds)

Issue 34's bench (budgets 300 to 5,000, the mc_tuner read on to 20,000):
  nice -n 19 python bench/bench_continuous_tuners.py run --seeds 50 \
      --budgets 300,600,1200,2000,5000,20000 --per-budget-max 5000 \
      --tuners "mc_tuner depth 1,mc_tuner depth 2,spsa_tuner,bayes_tuner" \
      --problems Log1D,Smooth2D,Rosenbrock,IllCorrelated,Edge2D,Quadratic4D,Flat4D \
      --out reports/continuous_tuners_budgets.jsonl
  python bench/bench_continuous_tuners.py report --out reports/continuous_tuners_budgets.jsonl \
      --md reports/continuous_tuners.md --section budgets --svg reports/continuous_tuners_budgets.svg
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # one BLAS thread per worker: the GP's matrices are small
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from clop_problems import BENCH_PROBLEMS, PROBLEMS, Problem  # noqa: E402

from ringmaster.competitions.simulate import make_simulated_candidate, run_simulation  # noqa: E402
from ringmaster.settings import Player  # noqa: E402
from ringmaster.tuning.scales import LINEAR  # noqa: E402

CHECKPOINTS = (1000, 2000, 5000, 20000)          # --budgets' default (issue 15's bench)
SEED_BLOCK = 20
TUNERS = ("mc_tuner depth 1", "mc_tuner depth 2", "ce_tuner", "uniform", "spsa_tuner",
          "spsa_tuner last iterate", "spsa_tuner gamma 1/6", "bayes_tuner", "bayes_tuner constant",
          "bayes_tuner trust region", "bayes_tuner smoothed", "bayes_tuner head to head",
          "bayes_tuner cautious", "bayes_tuner 2-game matches", "spsa_tuner against opponent")
PER_BUDGET = ("spsa_tuner", "spsa_tuner last iterate", "spsa_tuner gamma 1/6", "bayes_tuner",
              "bayes_tuner constant", "bayes_tuner trust region", "bayes_tuner smoothed",
              "bayes_tuner head to head", "bayes_tuner cautious", "bayes_tuner 2-game matches",
              "spsa_tuner against opponent")
DEFAULT_OUT = "reports/continuous_tuners_runs.jsonl"
BAYES_LABELS = {"bayes_tuner cautious": " (bayes_tuner's default since answer_caution, 2026-11-28; its "
                                        "rows since head-to-head pairs move inward at an edge)",
                "bayes_tuner head to head": " (its answer the mean's own maximum: the default from "
                                            "head_to_head to answer_caution)",
                "bayes_tuner": " (its model playing only the opponent: the default before head_to_head)"}
SMOOTH_LOW_D = ("Log1D", "Smooth2D", "Rosenbrock", "IllCorrelated")   # issue 34's smooth 1-D and 2-D


def common() -> dict[str, Any]:
    return {"board_size": 9, "komi": 7.5, "players": {"opp": Player("opp")},
            "candidate_colour": "b", "opponent": "opp", "make_candidate": make_simulated_candidate}


def clip01(x: float) -> float:
    return min(1.0, max(0.0, x))


# mc_tuner grids: depth 1 as fine as each dimension count allows; depth 2 splits each cell again.
MC_SPLITS = {1: (16, 4), 2: (8, 4), 4: (4, 3)}


def random_start(seed: int, dims: int) -> list[float]:
    """--start random: the seed's starting point, uniform in [0, 1]^dims, the same for every tuner and
    budget (so a seed's runs differ only in the tuner and its length)."""
    rng = random.Random(seed * 104729 + dims)
    return [round(rng.random(), 6) for _ in range(dims)]


def tuner_config(name: str, dims: int, games: int,
                 start: list[float] | None = None) -> tuple[type, dict[str, Any]]:
    """The tuner class and control-file settings for one run (the manual's mc settings); start, where
    given, is where spsa_tuner and bayes_tuner start and ce_tuner's initial mean (the mc_tuners and
    uniform have none: their grids don't start anywhere)."""
    starts = start or [0.5] * dims
    if name.startswith("mc_tuner") or name == "uniform":
        from ringmaster.competitions.mc_tuner import McTuner
        from ringmaster.tuning.parameters import McParameter
        depth = 2 if name.endswith("2") else 1
        split = MC_SPLITS[dims][depth - 1]
        return McTuner, {**common(),
                         "parameters": [McParameter(f"p{d}", scale=LINEAR(0, 1), split=split)
                                        for d in range(dims)],
                         "max_depth": depth,
                         "exploration_coefficient": 1e6 if name == "uniform" else 0.45,
                         "initial_visits": 10, "initial_wins": 5}
    if name == "ce_tuner":
        from ringmaster.competitions.ce_tuner import CeTuner
        from ringmaster.tuning.parameters import CeParameter
        return CeTuner, {**common(),
                         "parameters": [CeParameter(f"p{d}", initial_mean=starts[d], initial_variance=0.09,
                                                    transform=clip01) for d in range(dims)],
                         "samples_per_generation": 20, "batch_size": 10,
                         "number_of_generations": max(1, games // 200),
                         "elite_proportion": 0.2, "step_size": 0.5}
    if name.startswith("spsa_tuner"):
        from ringmaster.competitions.spsa_tuner import SpsaTuner
        from ringmaster.tuning.parameters import ContinuousParameter
        variant = {"spsa_tuner last iterate": {"average_last": 0.0},
                   "spsa_tuner gamma 1/6": {"gamma": 1 / 6},
                   "spsa_tuner against opponent": {"head_to_head": False}}.get(name, {})
        return SpsaTuner, {**common(), "number_of_games": games, **variant,
                           "parameters": [ContinuousParameter(f"p{d}", scale=LINEAR(0, 1), start=starts[d])
                                          for d in range(dims)]}
    if name.startswith("bayes_tuner"):
        from ringmaster.competitions.bayes_tuner import TARGET_POINTS, BayesTuner
        from ringmaster.tuning.parameters import ContinuousParameter
        # every name but "head to head" and "cautious" plays only the opponent, and every name but
        # "cautious" answers at the mean's own maximum, as the defaults did before head_to_head and
        # answer_caution: the committed rows of those names stay reproducible
        # "2-game matches": the default's rule with a floor of 2 games a match, not 4; the two
        # differ only where the rule's round(games / TARGET_POINTS) is below 4 (375 games or fewer)
        at_floor = round(games / TARGET_POINTS) <= 2
        variant = {"head_to_head": False, "answer_caution": 0.0,
                   **{"bayes_tuner constant": {"trend": "constant"},
                      "bayes_tuner trust region": {"trust_region": True},
                      "bayes_tuner smoothed": {"answer_smoothing": 2.0},
                      "bayes_tuner head to head": {"head_to_head": True},
                      "bayes_tuner cautious": {"head_to_head": True, "answer_caution": 2.0},
                      "bayes_tuner 2-game matches": {"head_to_head": True, "answer_caution": 2.0,
                                                     "games_per_point": 2 if at_floor else None},
                      }.get(name, {})}
        return BayesTuner, {**common(), "number_of_games": games, **variant,
                            "parameters": [ContinuousParameter(f"p{d}", scale=LINEAR(0, 1),
                                                               start=starts[d])
                                           for d in range(dims)]}
    raise ValueError(name)


def recommended(tuner: Any) -> list[float]:
    """The point the tuner would return now, in optimiser coordinates ([0, 1]^d)."""
    if hasattr(tuner, "tree"):
        return tuner.tree.parameters_for_path(tuner.tree.best_path())
    if hasattr(tuner, "distribution"):
        return [clip01(mean) for mean, _ in tuner.distribution]
    return list(tuner.recommended_parameters())


def stated_level(tuner: Any) -> list[float] | None:
    """[estimate, low, high]: the win rate the tuner states at its answer with its 95% interval (the
    model's, as its report gives it; bayes_tuner only), or None for a tuner that states none."""
    found = tuner.recommendation() if hasattr(tuner, "recommendation") else None
    if found is None:
        return None
    from ringmaster.competitions.bayes_reports import rate_interval

    _, mean, sd = found
    return [round(rate, 6) for rate in rate_interval(mean, sd)]


Task = tuple[str, str, int, tuple[int, ...], str, int]   # tuner, problem, seed, budgets, start mode, parallel


def run_one(task: Task) -> dict[str, Any]:
    """One seed of one tuner on one problem: the regret at each checkpoint (a per-budget tuner:
    a run for each). With parallel > 1 that many games are in flight at once, and a random one of them
    finishes next (run_simulation), as under the ringmaster's --parallel."""
    tuner_name, problem_name, seed, budgets, start_mode, parallel = task
    problem: Problem = PROBLEMS[problem_name]
    start = random_start(seed, problem.dimensions) if start_mode == "random" else None
    started = time.process_time()
    regrets: dict[int, float] = {}
    answers: dict[int, list[float]] = {}
    levels: dict[int, list[float]] = {}

    def record(games: int, answer: list[float], tuner: Any) -> None:
        regrets[games] = problem.regret(answer)
        answers[games] = [round(float(x), 6) for x in answer]
        level = stated_level(tuner)
        if level is not None:
            levels[games] = level

    runs = [(b, (b,)) for b in budgets] if tuner_name in PER_BUDGET else [(max(budgets), budgets)]
    for games, checkpoints in runs:
        cls, config = tuner_config(tuner_name, problem.dimensions, games, start)
        tuner = cls("bench")
        tuner.rng = random.Random(seed * 1000003 + games)
        tuner.initialise_from_control_file(config)
        tuner.set_clean_status()

        def on_result(done: int, tuner: Any = tuner, checkpoints: tuple[int, ...] = checkpoints) -> None:
            if done in checkpoints:
                record(done, recommended(tuner), tuner)

        played = run_simulation(tuner, problem.win_rate, games, random.Random(seed * 7919 + games),
                                parallel=parallel, on_result=on_result)
        if played < games:   # a tuner that stopped early keeps its answer
            for checkpoint in checkpoints:
                if checkpoint not in regrets:
                    record(checkpoint, recommended(tuner), tuner)
    row = {"tuner": tuner_name, "problem": problem_name, "seed": seed,
           "regret": {str(k): v for k, v in sorted(regrets.items())},
           "answer": {str(k): v for k, v in sorted(answers.items())},
           "cpu_seconds": time.process_time() - started}
    if levels:
        row["level"] = {str(k): v for k, v in sorted(levels.items())}
    if start is not None:
        row["start"] = start
    if parallel > 1:
        row["parallel"] = parallel
    return row


def load_results(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plan(tuners: list[str], problems: list[str], seeds: range, budgets: tuple[int, ...],
         per_budget_max: int, start_mode: str = "centre", parallel: int = 1) -> list[Task]:
    """The runs, in order: blocks of SEED_BLOCK seeds, in each the 1-D and 2-D problems at up to
    2,000 games first. A per-budget tuner has a task a budget (up to per_budget_max)."""
    tasks = []
    for s in seeds:
        for p in problems:
            for t in tuners:
                if t in PER_BUDGET:
                    tasks += [(t, p, s, (b,), start_mode, parallel) for b in budgets if b <= per_budget_max]
                else:
                    tasks.append((t, p, s, budgets, start_mode, parallel))

    def order(task: Task) -> tuple[int, int, int]:
        decisive = PROBLEMS[task[1]].dimensions <= 2 and min(task[3]) <= 2000
        return (task[2] // SEED_BLOCK, 0 if decisive else 1, task[2])

    return sorted(tasks, key=order)


def task_key(tuner: str, problem: str, seed: int, budgets: Any, start_mode: str, parallel: int) -> Task:
    return (tuner, problem, seed, tuple(sorted(int(b) for b in budgets)), start_mode, parallel)


def start_mode_of(row: dict[str, Any]) -> str:
    """'random' for a row run with --start random (it records its start), else 'centre'."""
    return "random" if "start" in row else "centre"


def parallel_of(row: dict[str, Any]) -> int:
    """The games a row's run kept in flight (--parallel): recorded when above 1."""
    return row.get("parallel", 1)


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    rows = load_results(out)
    if args.parallel < 1:
        sys.exit("--parallel must be at least 1")
    for option, of_row, given in (("--start", start_mode_of, args.start),
                                  ("--parallel", parallel_of, args.parallel)):
        held = {of_row(r) for r in rows}
        if held and held != {given}:
            sys.exit(f"{out} holds runs with {option} {held.pop()}: give {option} that, or another --out")
    done = {task_key(r["tuner"], r["problem"], r["seed"], r["regret"], start_mode_of(r), parallel_of(r))
            for r in rows}
    tuners = args.tuners.split(",") if args.tuners else list(TUNERS)
    problems = args.problems.split(",") if args.problems else list(BENCH_PROBLEMS)
    budgets = tuple(sorted(int(b) for b in args.budgets.split(",")))
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    tasks = [t for t in plan(tuners, problems, seeds, budgets, args.per_budget_max, args.start, args.parallel)
             if task_key(*t) not in done]
    started = time.time()
    print(f"{len(tasks)} runs to do ({len(done)} already in {out})", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool, out.open("a") as f:
        for i, result in enumerate(pool.map(run_one, tasks, chunksize=1), start=1):
            f.write(json.dumps(result) + "\n")
            f.flush()
            if i % 25 == 0 or i == len(tasks):
                print(f"{i}/{len(tasks)} runs, {time.time() - started:.0f} s", flush=True)
    print(f"wall time {time.time() - started:.0f} s")


# Report

def summarise(values: list[float]) -> dict[str, float]:
    """Mean with its 95% interval (normal approximation), and quartiles."""
    n = len(values)
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.nan
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive") if n > 1 else (mean,) * 3
    return {"n": n, "mean": mean, "low": mean - half, "high": mean + half,
            "q1": q1, "median": median, "q3": q3}


def mean_interval(s: dict[str, float], signed: bool = False) -> str:
    """'0.0123 [0.0101, 0.0145]': a summarise() mean and its 95% interval (with signs if signed)."""
    sign = "+" if signed else ""
    return f"{s['mean']:{sign}.4f} [{s['low']:{sign}.4f}, {s['high']:{sign}.4f}]"


def table(results: list[dict[str, Any]]) -> dict[tuple[str, str, int], dict[str, float]]:
    cells: dict[tuple[str, str, int], list[float]] = {}
    for r in results:
        for games, regret in r["regret"].items():
            cells.setdefault((r["problem"], r["tuner"], int(games)), []).append(regret)
    return {key: summarise(values) for key, values in cells.items()}


def checkpoints_of(stats: dict[tuple[str, str, int], dict[str, float]]) -> list[int]:
    return sorted({games for _, _, games in stats})


def issue34_lines(stats: dict[tuple[str, str, int], dict[str, float]],
                  bayes_name: str = "bayes_tuner") -> list[str]:
    """Issue 34's goals for bayes_name's rows: on the smooth 1-D and 2-D problems its mean regret at
    or below spsa_tuner's at every budget up to 2,000 and below 0.02 at 1,200; on the 4-D problems,
    at or below the better mc_tuner's at 20,000 within 2,000 games."""
    def cell(problem: str, tuner: str, games: int) -> str:
        s = stats.get((problem, tuner, games))
        return "-" if s is None else mean_interval(s)

    lines = []
    for name in SMOOTH_LOW_D:
        if name not in PROBLEMS:
            continue
        budgets = [g for g in checkpoints_of(stats) if g <= 2000
                   and (name, bayes_name, g) in stats and (name, "spsa_tuner", g) in stats]
        if not budgets:
            continue
        behind = [g for g in budgets if stats[(name, bayes_name, g)]["mean"]
                  > stats[(name, "spsa_tuner", g)]["mean"]]
        clear = [g for g in behind if stats[(name, bayes_name, g)]["low"]
                 > stats[(name, "spsa_tuner", g)]["high"]]
        at_1200 = stats.get((name, bayes_name, 1200))
        lines.append(
            f"- {name}: {bayes_name}'s mean at or below spsa_tuner's at "
            f"{', '.join(str(g) for g in budgets if g not in behind) or 'no budget'}; above at "
            f"{', '.join(str(g) for g in behind) or 'none'}"
            + (f" (intervals apart at {', '.join(str(g) for g in clear)})" if clear else "")
            + (f"; at 1200 games {cell(name, bayes_name, 1200)}, "
               f"{'below' if at_1200['mean'] < 0.02 else 'not below'} 0.02" if at_1200 else ""))
    for name, problem in PROBLEMS.items():
        if problem.dimensions != 4:
            continue
        mc = [stats[(name, t, 20000)] for t in ("mc_tuner depth 1", "mc_tuner depth 2")
              if (name, t, 20000) in stats]
        bayes = [(g, stats[(name, bayes_name, g)]) for g in checkpoints_of(stats)
                 if g <= 2000 and (name, bayes_name, g) in stats]
        if not mc or not bayes:
            continue
        target = min(s["mean"] for s in mc)
        met = [g for g, s in bayes if s["mean"] <= target]
        lines.append(f"- {name}: the better mc_tuner at 20000 games {target:.4f}; {bayes_name} "
                     + ", ".join(f"at {g} {mean_interval(s)}"
                                 for g, s in bayes)
                     + (f": met from {met[0]} games" if met else ": not met within 2000 games"))
    return lines


def goal_lines(stats: dict[tuple[str, str, int], dict[str, float]]) -> list[str]:
    """The issue's goal: best continuous tuner within 2000 games vs the mc_tuner at 20000."""
    lines = []
    for name, problem in PROBLEMS.items():
        if problem.dimensions < 2:
            continue
        mc = [stats[(name, t, 20000)] for t in ("mc_tuner depth 1", "mc_tuner depth 2")
              if (name, t, 20000) in stats]
        if not mc:
            continue
        target = min(s["mean"] for s in mc)
        best = None
        for tuner in PER_BUDGET:
            for games in (1000, 2000):
                s = stats.get((name, tuner, games))
                if s and s["mean"] <= target and (best is None or games < best[1]):
                    best = (tuner, games, s)
        verdict = (f"met: {best[0]} at {best[1]} games, mean {mean_interval(best[2])}"
                   if best else "not met")
        lines.append(f"- {name}: best mc_tuner mean regret at 20000 games {target:.4f}; {verdict}")
    return lines


def svg_plot(stats: dict[tuple[str, str, int], dict[str, float]], path: Path) -> None:
    """Log-log plot: mean simple regret against games, one panel per problem, the mean's 95% interval
    as bars; only the tuners and problems in stats."""
    colours = {"mc_tuner depth 1": "#1f77b4", "mc_tuner depth 2": "#17becf", "ce_tuner": "#9467bd",
               "uniform": "#7f7f7f", "spsa_tuner": "#d62728",
               "spsa_tuner last iterate": "#ff9896", "spsa_tuner gamma 1/6": "#8c564b",
               "bayes_tuner cautious": "#2ca02c", "bayes_tuner head to head": "#006d2c",
               "bayes_tuner": "#98df8a",
               "bayes_tuner constant": "#bcbd22"}
    panel_w, panel_h, margin = 300, 220, 50
    names = list(PROBLEMS)
    width = margin + len(names) * (panel_w + margin)
    height = panel_h + 2 * margin + 20 * len(colours) // 3 + 30
    checkpoints = checkpoints_of(stats)
    x_lo, x_hi = math.log10(min(checkpoints) * 0.8), math.log10(max(checkpoints) * 1.25)
    shown = [t for t in colours if any(key[1] == t for key in stats)]
    colours = {t: colours[t] for t in shown}
    names = [n for n in names if any(key[0] == n for key in stats)]
    width = margin + len(names) * (panel_w + margin)
    values = [s["low"] for s in stats.values() if s["low"] > 0] + \
        [s["high"] for s in stats.values() if s["high"] > 0]
    y_lo = math.floor(math.log10(max(min(values), 1e-5))) if values else -4
    y_hi = math.ceil(math.log10(max(values))) if values else 0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             'font-family="sans-serif" font-size="11">',
             f'<rect width="{width}" height="{height}" fill="white"/>']
    for i, name in enumerate(names):
        left, top = margin + i * (panel_w + margin), margin

        def px(games: float, regret: float, left: float = left, top: float = top) -> tuple[float, float]:
            x = left + (math.log10(games) - x_lo) / (x_hi - x_lo) * panel_w
            r = min(max(math.log10(max(regret, 10 ** y_lo)), y_lo), y_hi)
            return x, top + (y_hi - r) / (y_hi - y_lo) * panel_h

        parts.append(f'<rect x="{left}" y="{top}" width="{panel_w}" height="{panel_h}" '
                     'fill="none" stroke="black"/>')
        parts.append(f'<text x="{left + panel_w / 2}" y="{top - 8}" text-anchor="middle">'
                     f'{name} ({PROBLEMS[name].dimensions}-D)</text>')
        for e in range(y_lo, y_hi + 1):
            _, y = px(1000, 10 ** e)
            parts.append(f'<line x1="{left}" x2="{left + panel_w}" y1="{y}" y2="{y}" stroke="#ddd"/>')
            parts.append(f'<text x="{left - 4}" y="{y + 4}" text-anchor="end">1e{e}</text>')
        for games in checkpoints:
            x, _ = px(games, 1)
            parts.append(f'<text x="{x}" y="{top + panel_h + 14}" text-anchor="middle">{games}</text>')
        for tuner, colour in colours.items():
            points = [(g, stats[(name, tuner, g)]) for g in checkpoints if (name, tuner, g) in stats]
            if not points:
                continue
            coords = [px(g, s["mean"]) for g, s in points]
            parts.append('<polyline fill="none" stroke="{}" stroke-width="2" points="{}"/>'.format(
                colour, " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)))
            for (g, s), (x, y) in zip(points, coords):
                _, y1 = px(g, s["low"])
                _, y3 = px(g, s["high"])
                parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{y1:.1f}" y2="{y3:.1f}" '
                             f'stroke="{colour}" opacity="0.5"/>')
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"/>')
    legend_top = margin + panel_h + 35
    for j, (tuner, colour) in enumerate(colours.items()):
        x, y = margin + (j % 3) * 220, legend_top + (j // 3) * 18
        parts.append(f'<line x1="{x}" x2="{x + 20}" y1="{y}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{x + 26}" y="{y + 4}">{tuner}</text>')
    parts.append(f'<text x="{margin}" y="{height - 6}">simple regret (win-rate points, log scale; '
                 'line: mean, bar: its 95% interval) against games played (log scale)</text>')
    parts.append("</svg>")
    path.write_text("\n".join(parts) + "\n")


def report_text(results: list[dict[str, Any]]) -> str:
    """The results as markdown: seeds and CPU time, a table per checkpoint, and the goal's verdict."""
    stats = table(results)
    cpu: dict[str, float] = {}
    for r in results:
        cpu[r["tuner"]] = cpu.get(r["tuner"], 0.0) + r["cpu_seconds"]
    ns = [s["n"] for s in stats.values()]
    tuners = [t for t in TUNERS if any(key[1] == t for key in stats)]
    problems = {n: p for n, p in PROBLEMS.items() if any(key[0] == n for key in stats)}
    lines = [f"Runs: {len(results)}; seeds per cell: {min(ns)} to {max(ns)} (n in each cell). "
             "CPU seconds per tuner (all its runs): "
             + ", ".join(f"{t} {s:.0f}" for t, s in cpu.items()) + ".", ""]
    labelled = [name for name in BAYES_LABELS if name in tuners]
    if len(labelled) > 1:
        lines += ["; ".join(f"{name}{BAYES_LABELS[name]}" for name in labelled) + ".", ""]
    for games in checkpoints_of(stats):
        lines += [f"**{games} games**: simple regret, mean [95% interval of the mean] (quartiles q1, median, "
                  "q3; n seeds)", "",
                  "| problem (best win rate) | " + " | ".join(tuners) + " |",
                  "|---|" + "---|" * len(tuners)]
        for name, problem in problems.items():
            cells = []
            for tuner in tuners:
                st = stats.get((name, tuner, games))
                cells.append("-" if st is None else
                             f"{mean_interval(st)} "
                             f"({st['q1']:.4f}, {st['median']:.4f}, {st['q3']:.4f}; {st['n']})")
            label = f"{name} {problem.dimensions}-D ({problem.best_rate:.3f})"
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    if min(checkpoints_of(stats)) < 1000:
        lines += ["Issue 34's goals (smooth 1-D and 2-D: bayes_tuner at or below spsa_tuner up to 2000 "
                  "games and below 0.02 at 1200; 4-D: at or below the better mc_tuner at 20000 within "
                  "2000 games), mean [95% interval]:", ""]
        for bayes_name in BAYES_LABELS:
            found = issue34_lines(stats, bayes_name)
            lines += ([f"{bayes_name}{BAYES_LABELS[bayes_name]}:", ""] + found + [""]) if found else []
    else:
        lines += ["Goal (2-D and 4-D problems): the best continuous tuner's mean regret within 2000 games "
                  "at or below the better mc_tuner's at 20000 games:", ""] + goal_lines(stats)
    return "\n".join(lines)


def seed_regrets(results: list[dict[str, Any]], tuner: str) -> dict[tuple[str, int, int], float]:
    """(problem, games, seed) -> regret of one tuner's runs."""
    return {(r["problem"], int(games), r["seed"]): regret
            for r in results if r["tuner"] == tuner for games, regret in r["regret"].items()}


def shown(values: list[float], signed: bool = False) -> str:
    """mean_interval of the values' summary."""
    return mean_interval(summarise(values), signed)


def cell_order(key: tuple[str, int]) -> tuple[int, int]:
    """(problem, games) in the order of PROBLEMS, then by games."""
    return list(PROBLEMS).index(key[0]), key[1]


def compare_text(before: list[dict[str, Any]], after: list[dict[str, Any]], tuner: str,
                 against: str, after_tuner: str | None = None) -> str:
    """A change measured on the same seeds: for each problem and budget of tuner's runs in after
    (after_tuner's, where the change is a variant with its own name), before's and after's mean
    regret, their paired difference, and against's (from either file) on those seeds, each with
    its 95% interval (normal approximation)."""
    old, new, rival = (seed_regrets(before, tuner), seed_regrets(after, after_tuner or tuner),
                       seed_regrets(before + after, against))
    lines = [f"Paired on the seeds both files hold: {tuner} before and after the change"
             + (f" ({after_tuner})" if after_tuner else "") + ", and "
             f"{against} on the same seeds; mean regret [95% interval]. A difference below 0 is a gain.",
             "", f"| problem | games | n | before | after | after − before | {against} | "
             f"after − {against} |", "|---|---|---|---|---|---|---|---|"]
    for problem, games in sorted({key[:2] for key in new}, key=cell_order):
        seeds = sorted(seed for (p, g, seed) in new if (p, g) == (problem, games)
                       and (p, g, seed) in old and (p, g, seed) in rival)
        if len(seeds) < 2:
            continue
        a = [old[(problem, games, seed)] for seed in seeds]
        b = [new[(problem, games, seed)] for seed in seeds]
        c = [rival[(problem, games, seed)] for seed in seeds]
        lines.append(f"| {problem} | {games} | {len(seeds)} | {shown(a)} | {shown(b)} | "
                     f"{shown([y - x for x, y in zip(a, b)], True)} | {shown(c)} | "
                     f"{shown([y - x for x, y in zip(c, b)], True)} |")
    return "\n".join(lines)


def location(answers: list[list[float]], optimum: tuple[float, ...]) -> tuple[float, float]:
    """(bias, spread) of a cell's answers: the distance from the optimum to their mean, and their root
    mean square distance from that mean (both in optimiser units, Euclidean)."""
    dims = len(optimum)
    mean = [statistics.fmean(a[d] for a in answers) for d in range(dims)]
    bias = math.dist(mean, optimum)
    spread = math.sqrt(statistics.fmean(math.dist(a, mean) ** 2 for a in answers))
    return bias, spread


def versus_text(results: list[dict[str, Any]], tuner: str, against: str) -> str:
    """Two tuners on the same seeds: for each problem and budget, their mean regret, the
    paired difference, and where their answers lie (location: bias and spread); where the runs have
    a random start, the paired difference again for the seeds whose start is nearer the optimum than
    the cell's median start and for the others."""
    ours, theirs = seed_regrets(results, tuner), seed_regrets(results, against)
    answers = {(r["tuner"], r["problem"], int(g), r["seed"]): a
               for r in results for g, a in r.get("answer", {}).items()}
    starts = {(r["problem"], r["seed"]): r["start"] for r in results if "start" in r}
    halves = bool(starts)
    lines = [f"{tuner} against {against} on the same seeds: mean regret [95% interval], the paired "
             "difference (below 0: " + tuner + " better), and where the answers lie: bias (the mean "
             "answer's distance from the optimum) and spread (the answers' rms distance from their "
             "mean), in the unit cube."
             + (" Near and far: the seeds whose start is nearer the optimum than the cell's median "
                "start, and the others." if halves else ""), "",
             f"| problem | games | n | {tuner} | {against} | difference | {tuner} bias, spread | "
             f"{against} bias, spread |" + (" difference, near starts | difference, far starts |"
                                            if halves else ""),
             "|---|---|---|---|---|---|---|---|" + ("---|---|" if halves else "")]
    for problem, games in sorted({key[:2] for key in ours}, key=cell_order):
        seeds = sorted(seed for (p, g, seed) in ours if (p, g) == (problem, games) and (p, g, seed) in theirs)
        if len(seeds) < 2:
            continue
        a = [ours[(problem, games, seed)] for seed in seeds]
        b = [theirs[(problem, games, seed)] for seed in seeds]
        cells = [problem, str(games), str(len(seeds)), shown(a), shown(b),
                 shown([x - y for x, y in zip(a, b)], True)]
        optimum = PROBLEMS[problem].optimum_u
        for name in (tuner, against):
            found = [answers.get((name, problem, games, seed)) for seed in seeds]
            cells.append("-" if None in found else "{:.3f}, {:.3f}".format(*location(found, optimum)))
        if halves:
            gap = {seed: math.dist(starts[(problem, seed)], optimum) for seed in seeds}
            middle = statistics.median(gap.values())
            for near in (True, False):
                chosen = [i for i, seed in enumerate(seeds) if (gap[seed] <= middle) == near]
                cells.append(shown([a[i] - b[i] for i in chosen], True) if len(chosen) > 1 else "-")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def levels_text(results: list[dict[str, Any]], tuners: list[str]) -> str:
    """How well each tuner's stated win rate at its answer (stated_level) holds: for each problem and
    budget, the 95% interval's mean width, the share of runs whose interval holds the answer's true
    win rate, and the estimate's mean absolute error."""
    cells: dict[tuple[str, int, str], list[tuple[float, float, float, float]]] = {}
    for r in results:
        if r["tuner"] not in tuners:
            continue
        problem = PROBLEMS[r["problem"]]
        for games, (estimate, low, high) in r.get("level", {}).items():
            truth = problem.win_rate(r["answer"][games])
            cells.setdefault((r["problem"], int(games), r["tuner"]), []).append((estimate, low, high, truth))
    lines = ["The win rate each tuner states at its answer: its 95% interval's mean width, the share of "
             "runs whose interval holds the answer's true win rate, and the estimate's mean absolute "
             "error (n runs).", "",
             "| problem | games | " + " | ".join(f"{t}: width, holds, error (n)" for t in tuners) + " |",
             "|---|---|" + "---|" * len(tuners)]
    for problem, games in sorted({key[:2] for key in cells}, key=cell_order):
        row = [problem, str(games)]
        for tuner in tuners:
            found = cells.get((problem, games, tuner), [])
            if not found:
                row.append("-")
                continue
            width = statistics.fmean(h - lo for _, lo, h, _ in found)
            holds = statistics.fmean(lo <= t <= h for _, lo, h, t in found)
            error = statistics.fmean(abs(e - t) for e, _, _, t in found)
            row.append(f"{width:.3f}, {holds:.0%}, {error:.3f} ({len(found)})")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def write_section(path: Path, section: str, text: str) -> None:
    """Put text between the markdown file's <!-- section --> and <!-- /section --> markers."""
    page = path.read_text()
    md_start, md_end = f"<!-- {section} -->", f"<!-- /{section} -->"
    start, end = page.index(md_start) + len(md_start), page.index(md_end)
    path.write_text(page[:start] + "\n" + text + "\n" + page[end:])


def compare(args: argparse.Namespace) -> None:
    """Print compare_text for --before (with --with's files for the tuners it lacks) and --out; with
    --md, put it in the file's section."""
    before = with_rows(load_results(Path(args.before)), args.with_file)
    text = compare_text(before, load_results(Path(args.out)), args.tuner, args.against, args.after_tuner)
    print(text)
    if args.md:
        write_section(Path(args.md), args.section, text)


def versus(args: argparse.Namespace) -> None:
    """Print versus_text for --tuner and --against (rows of --out, and of --with's files for tuners --out
    lacks); with --md, put it in the file's section."""
    text = versus_text(with_rows(load_results(Path(args.out)), args.with_file), args.tuner, args.against)
    print(text)
    if args.md:
        write_section(Path(args.md), args.section, text)


def levels(args: argparse.Namespace) -> None:
    """Print levels_text for --out's --tuners (default: every tuner with a stated level; --with's files
    add the tuners --out lacks); with --md, put it in the file's section."""
    results = with_rows(load_results(Path(args.out)), args.with_file)
    tuners = (args.tuners.split(",") if args.tuners else
              list(dict.fromkeys(r["tuner"] for r in results if "level" in r)))
    text = levels_text(results, tuners)
    print(text)
    if args.md:
        write_section(Path(args.md), args.section, text)


def with_rows(results: list[dict[str, Any]], others: list[str]) -> list[dict[str, Any]]:
    """results and the rows of the files others of the tuners, on each problem, that results lack (a
    tuner's rows on a problem come from one file: the first that holds them)."""
    combined = list(results)
    for other in others:
        have = {(r["tuner"], r["problem"]) for r in combined}
        combined += [r for r in load_results(Path(other)) if (r["tuner"], r["problem"]) not in have]
    return combined


def report(args: argparse.Namespace) -> None:
    """Print the results; with --md, put them between the file's result markers; with --svg, plot them."""
    problems = args.problems.split(",") if args.problems else BENCH_PROBLEMS
    results = [r for r in with_rows(load_results(Path(args.out)), args.with_file) if r["problem"] in problems]
    text = report_text(results)
    print(text)
    if args.md:
        write_section(Path(args.md), args.section, text)
    if args.svg:
        svg_plot(table(results), Path(args.svg))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "report", "compare", "versus", "levels"))
    parser.add_argument("--seeds", type=int, default=50)
    parser.add_argument("--first-seed", type=int, default=0, help="pilots use other seeds (1000 on)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budgets", default=",".join(str(c) for c in CHECKPOINTS),
                        help="comma-separated checkpoints (games)")
    parser.add_argument("--per-budget-max", type=int, default=max(CHECKPOINTS),
                        help="spsa_tuner and bayes_tuner run only at budgets up to this")
    parser.add_argument("--tuners", default=None, help="comma-separated; default: all")
    parser.add_argument("--problems", default=None,
                        help="run, report: comma-separated; default: the bench's seven (BENCH_PROBLEMS)")
    parser.add_argument("--start", choices=("centre", "random"), default="centre",
                        help="run: where spsa_tuner and bayes_tuner start (ce_tuner's initial mean): the "
                             "centre, or a point drawn uniformly for each seed (random_start)")
    parser.add_argument("--parallel", type=int, default=1,
                        help="run: games in flight at once in each run, a random one finishing next (the "
                             "ringmaster's --parallel); a file holds runs of one value")
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--with", dest="with_file", action="append", default=[], metavar="FILE",
                        help="report, versus, levels: also FILE's rows of the tuners, problem by problem, "
                             "that --out lacks; compare: that --before lacks (repeatable)")
    parser.add_argument("--svg", default=None)
    parser.add_argument("--md", default=None, help="a markdown file whose results section to rewrite")
    parser.add_argument("--section", default="results",
                        help="the markdown section's markers: <!-- NAME --> and <!-- /NAME -->")
    parser.add_argument("--before", default=None,
                        help="compare: the results before the change (--out holds those after)")
    parser.add_argument("--tuner", default="bayes_tuner", help="compare: the tuner that changed")
    parser.add_argument("--against", default="spsa_tuner", help="compare: the tuner to hold it against")
    parser.add_argument("--after-tuner", default=None,
                        help="compare: the changed tuner's name in --out, where it is a variant "
                        "(default: --tuner)")
    args = parser.parse_args()
    if args.command == "compare" and not args.before:
        parser.error("compare needs --before FILE")
    {"run": run, "report": report, "compare": compare, "versus": versus,
     "levels": levels}[args.command](args)


if __name__ == "__main__":
    main()
