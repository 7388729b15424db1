#!/usr/bin/env python3
"""The clock's latency: the controller's delay a move, and what the clock charges beyond the engine's time.

The game clock charges each move the wall time from writing its genmove to
reading the answer, so the controller's own delay is charged to the engine.
This bench measures it with bench/stamp_engine.py, which time-stamps every
command it reads and every genmove answer it writes on CLOCK_MONOTONIC (one
clock for all processes), and thinks --think milliseconds a move:

  next command -- from an engine finishing a genmove (about to write its answer) to either engine
                  reading the controller's next command: the controller's
                  turnaround (with two pipe hops and a wake-up). Measured for
                  our ringmaster without a clock and with one ('absolute
                  3600'), and for Gomill 0.8.3 (no clock), each running the
                  same playoff with `ringmaster CTL run -j N`.
  clock error  -- what our clock charged a move (GameJobResult.clock_use) less
                  the engine's own time from reading the genmove to writing
                  its answer: games played by ringmaster.game.play's
                  play_game_job, the worker's whole path, in N worker
                  processes as -j N runs them.

Each figure is the median (and 90th percentile) over every move of --games
games of --moves moves, at -j 1 and -j 2, side by side in one run. Goal: under
1 ms a move at the median. Timing-sensitive: run it on a quiet machine (it
prints the load before and after).

    python bench/bench_clock_latency.py --gomill /tmp/gomill/gomill-0.8.3
    python bench/bench_clock_latency.py --games 2 --moves 20 --think 2   # a quick check

Gomill is found as bench_ringmaster.py finds it (--gomill or GOMILL_DIR, a
Python 2.7 in --python2 or GOMILL_PYTHON); without it only our figures are
printed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ENGINE = os.path.join(HERE, "stamp_engine.py")
DEFAULT_PYTHON2 = os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python")
CLOCK = "absolute 3600"

CONTROL_FILE = """\
competition_type = 'playoff'
players = {{
    'b': Player({b!r}),
    'w': Player({w!r}),
}}
board_size = {size}
komi = 7.5
scorer = 'internal'
record_games = False
{extra}
matchups = [Matchup('b', 'w', number_of_games={games})]
"""


def engine_command(name: str, log: str, args, timed: bool) -> list[str]:
    command = [sys.executable, ENGINE, "--name", name, "--log", log, "--moves", str(args.moves),
               "--think", str(args.think)]
    return command + (["--timed"] if timed else [])


def read_logs(directory: str) -> dict[str, dict[str, list[tuple[str, int, str]]]]:
    """{game id: {engine name: [(kind, ns, command)]}} from the stamp engines' logs."""
    games: dict[str, dict[str, list]] = defaultdict(dict)
    for name in os.listdir(directory):
        if not name.endswith(".log") or name.startswith("check"):
            continue
        game, engine = name[:-4].rsplit("_", 1)
        with open(os.path.join(directory, name)) as f:
            games[game][engine] = [(kind, int(ns), command) for kind, ns, command
                                   in (line.split() for line in f)]
    return games


def turnarounds(games) -> list[float]:
    """Milliseconds from each genmove answer to the next command either engine read."""
    delays = []
    for engines in games.values():
        reads = sorted(ns for events in engines.values() for kind, ns, _ in events if kind == "r")
        for events in engines.values():
            for kind, ns, _ in events:
                if kind == "w":
                    later = [r for r in reads if r > ns]
                    if later:
                        delays.append((later[0] - ns) / 1e6)
    return delays


def own_times(events) -> list[float]:
    """Seconds the engine took over each genmove, from reading it to writing its answer."""
    times, start = [], None
    for kind, ns, command in events:
        if kind == "r" and command == "genmove":
            start = ns
        elif kind == "w" and start is not None:
            times.append((ns - start) / 1e9)
            start = None
    return times


def run_cli(argv: list[str], env: dict[str, str], ctl: str, parallel: int) -> None:
    proc = subprocess.run(argv + [ctl, "run", "-q", "-j", str(parallel)],
                          cwd=os.path.dirname(ctl), env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed on {ctl}:\n{proc.stdout[-2000:]}"
                         f"{proc.stderr[-2000:]}")


def cli_turnarounds(label: str, argv: list[str], env: dict[str, str], args, parallel: int,
                    timed: bool, work: str) -> list[float]:
    directory = os.path.join(work, f"{label}-j{parallel}")
    logs = os.path.join(directory, "logs")
    os.makedirs(logs)
    ctl = os.path.join(directory, "bench.ctl")
    with open(ctl, "w") as f:
        f.write(CONTROL_FILE.format(
            b=engine_command("b", logs, args, timed), w=engine_command("w", logs, args, timed),
            size=args.size, games=args.games,
            extra=f"time_control = {CLOCK!r}" if timed else ""))
    run_cli(argv, env, ctl, parallel)
    return turnarounds(read_logs(logs))


def _play(job):
    from ringmaster.game.play import play_game_job
    response = play_game_job(job)
    return job.game_id, {code: use.move_times for code, use in response.clock_use.items()}


def clock_errors(args, parallel: int, work: str) -> tuple[list[float], list[float]]:
    """(charged less own, in ms; the controller's turnaround, in ms) over games in N workers."""
    from ringmaster.game.clock import parse_time_control
    from ringmaster.game.job import GameJob, PlayerSpec
    logs = os.path.join(work, f"clock-j{parallel}")
    os.makedirs(logs)
    control = parse_time_control(CLOCK)
    jobs = [GameJob(game_id=f"g{i}", board_size=args.size, komi=7.5, use_internal_scorer=True,
                    player_b=PlayerSpec("b", tuple(engine_command("b", logs, args, True)),
                                        timeout=60),
                    player_w=PlayerSpec("w", tuple(engine_command("w", logs, args, True)),
                                        timeout=60),
                    time_control_b=control, time_control_w=control)
            for i in range(args.games)]
    with multiprocessing.get_context("fork").Pool(parallel) as pool:
        charged = dict(pool.map(_play, jobs, chunksize=1))
    games = read_logs(logs)
    errors = []
    for game_id, engines in games.items():
        for name, events in engines.items():
            own = own_times(events)
            times = charged[game_id][name]
            if len(own) != len(times):
                raise SystemExit(f"game {game_id} {name}: {len(times)} moves charged, "
                                 f"{len(own)} logged")
            errors += [(c - o) * 1000 for c, o in zip(times, own)]
    return errors, turnarounds(games)


def summary(values: list[float]) -> str:
    if not values:
        return "--"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.3f} / {p90:.3f} ({len(ordered)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per figure")
    parser.add_argument("--moves", type=int, default=100, help="moves a game (then passes)")
    parser.add_argument("--think", type=float, default=20.0, help="ms an engine thinks a move")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--parallel", default="1,2", help="-j values, comma-separated")
    parser.add_argument("--gomill", default=os.environ.get("GOMILL_DIR"))
    parser.add_argument("--python2", default=os.environ.get("GOMILL_PYTHON", DEFAULT_PYTHON2))
    args = parser.parse_args(argv)
    parallels = [int(p) for p in args.parallel.split(",")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (REPO, os.environ.get("PYTHONPATH")) if p)}
    ours = [sys.executable, "-m", "ringmaster.cli"]
    gomill = None
    if args.gomill and os.path.isfile(os.path.join(args.gomill, "ringmaster")) \
            and os.path.isfile(args.python2):
        gomill_dir = os.path.abspath(args.gomill)
        gomill = ([args.python2, os.path.join(gomill_dir, "ringmaster")],
                  {**os.environ, "PYTHONPATH": gomill_dir})
    else:
        print("Gomill 0.8.3 not found (--gomill DIR, --python2 PATH): only our figures.\n")
    load_before = os.getloadavg()
    work = tempfile.mkdtemp(prefix="bench_clock_")
    rows = []
    try:
        for parallel in parallels:
            plain = cli_turnarounds("ours", ours, env, args, parallel, False, work)
            timed = cli_turnarounds("ours-clock", ours, env, args, parallel, True, work)
            old = (cli_turnarounds("gomill", *gomill, args, parallel, False, work)
                   if gomill else [])
            errors, in_workers = clock_errors(args, parallel, work)
            rows.append((f"-j {parallel}  next command after a genmove answer (ms)",
                         summary(plain), summary(timed), summary(old) if gomill else "--"))
            rows.append((f"-j {parallel}  same, play_game_job in {parallel} worker(s) (ms)",
                         "--", summary(in_workers), "--"))
            rows.append((f"-j {parallel}  clock error: charged less own time (ms)",
                         "--", summary(errors), "n/a (no clock)"))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()
    header = ("", "ours, no clock", f"ours, {CLOCK}", "Gomill 0.8.3")
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(4)]
    print(f"{args.games} games of {args.moves} moves on {args.size}x{args.size}, engines "
          f"thinking {args.think:g} ms a move; median / 90th percentile (moves)")
    for row in [header] + rows:
        print("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                        for i, (cell, w) in enumerate(zip(row, widths))))
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs); goal: clock error under 1 ms a move at the median")
    return 0


if __name__ == "__main__":
    sys.exit(main())
