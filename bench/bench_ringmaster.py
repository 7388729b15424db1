#!/usr/bin/env python3
"""Ringmaster against Gomill 0.8.3: games per second and overhead per move.

Both ringmasters run the same playoff control file (written to a temporary
directory at run time) with the same engines, and optionally GNU Go at level 0.
The engines (--engine) play a fixed legal game of a known length:
bench/fast_engine.py keeps a board of its own (in Python, so its CPU is about a
third of Gomill's whole cost a game); bench/replay_engine.py replays that game
without a board, so its own cost is answering a line, and the figures are the
controllers'. Runs of ours and Gomill's (and of --before, an earlier commit of
ours) are interleaved and each figure is the median of --repeat runs, so the
ratios are measured side by side on the same (shared, noisy) machine.

Measured (CPU = user + system time of the ringmaster, its workers and its
engines, from getrusage(RUSAGE_CHILDREN); less sensitive to a loaded machine
than wall time):
  games/s      -- N games end to end (`ringmaster CTL run -q`, interpreter
                  start and start-up checks included), without -j (games
                  in-process), with -j 1 and with -j 2; with CPU ms per game,
                  and that less the engines' own CPU for a game. Ours also with
                  reuse_engines = True (Gomill has no such setting).
  steady       -- games/s a long run keeps up: from runs of N and M games,
                  (M - N) / (time(M) - time(N)), so that each run's fixed cost
                  (the interpreter's start, the checks, the final report)
                  cancels out.
  ms/move      -- in-process runs of G games of --moves moves and of G games of
                  --short-moves moves: (long - short) / (moves(long) -
                  moves(short)), in wall and CPU time, so per-game costs (engine
                  start-up, board set-up, scoring, SGF and state files) cancel
                  out.  The wall figure is an upper bound on the ringmaster + GTP
                  overhead per move; the engines' own CPU per move (one engine
                  replaying the same GTP commands from a file, no ringmaster) is
                  subtracted to give the overhead.
  fixed costs  -- from a 1-game run as well: CPU per run (start-up) and per game.
  GNU Go       -- a few games of GNU Go level 0 against itself, in-process.

Gomill is Python 2 only.  Get it with
    pip download gomill==0.8.3 --no-deps --no-binary :all: -d /tmp/gomill
    tar -xzf /tmp/gomill/gomill-0.8.3.tar.gz -C /tmp/gomill
and pass --gomill /tmp/gomill/gomill-0.8.3 (or set GOMILL_DIR), with a
Python 2.7 in --python2 (or GOMILL_PYTHON; default ~/.pyenv/versions/2.7.18).
Without Gomill only our figures are printed.

    python bench/bench_ringmaster.py --gomill /tmp/gomill/gomill-0.8.3
    git worktree add /tmp/before COMMIT   # then: --before /tmp/before

With --ours "python $PWD/bench/board_free.py", "ours" is our ringmaster with
sgfmill's board memoised (see that file): what games/s would be if checking
the moves cost nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "fast_engine.py")
REPLAY_ENGINE = os.path.join(HERE, "replay_engine.py")
DEFAULT_PYTHON2 = os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python")
GNUGO = "/usr/games/gnugo"
REUSE = "ringmaster+reuse"

CONTROL_FILE = """\
competition_type = 'playoff'

players = {{
    'p1': Player({p1!r}),
    'p2': Player({p2!r}),
}}

board_size = {board_size}
komi = 7.5
scorer = 'internal'
record_games = True
{extra}
matchups = [
    Matchup('p1', 'p2', alternating=True, number_of_games={games}),
]
"""

HOW_TO_GET_GOMILL = """\
Gomill not found: only our figures are shown.  To compare, get Gomill 0.8.3:
    pip download gomill==0.8.3 --no-deps --no-binary :all: -d /tmp/gomill
    tar -xzf /tmp/gomill/gomill-0.8.3.tar.gz -C /tmp/gomill
then pass --gomill /tmp/gomill/gomill-0.8.3 (or set GOMILL_DIR) and, if needed,
--python2 PATH-TO-PYTHON2.7 (or set GOMILL_PYTHON)."""


# Removed from every process the bench starts, as a user's machine wouldn't have them:
# PYTHONUNBUFFERED makes Python 2 read the engines' stdin a byte at a time (one read
# system call per byte: 1,725 a game per replay engine, against 116 without), and
# PYTHONDONTWRITEBYTECODE makes every run compile its modules from source.
DROPPED_ENVIRONMENT = ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")


def bench_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENVIRONMENT}
    env.update(extra or {})
    return env


class Ringmaster:
    """How to launch one ringmaster implementation."""

    def __init__(self, label: str, argv: list[str], env: dict[str, str] | None = None):
        self.label = label
        self.argv = argv
        self.env = env

    def run(self, ctl: str, parallel: int | None) -> tuple[float, float]:
        """Run CTL to completion; returns (wall time, CPU time of it and all its children).

        The CPU time counts the ringmaster, its worker processes and the
        engines (each is waited for by its parent, so its usage is passed up).
        """
        argv = self.argv + [ctl, "run", "-q"]
        if parallel is not None:
            argv += ["-j", str(parallel)]
        env = bench_environment(self.env)
        cpu = children_cpu()
        start = time.perf_counter()
        proc = subprocess.run(argv, cwd=os.path.dirname(ctl), env=env,
                              capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        cpu = children_cpu() - cpu
        if proc.returncode != 0:
            raise SystemExit(f"{self.label} failed (exit {proc.returncode}) on {ctl}:\n"
                             f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        return elapsed, cpu


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


_COMMENT = re.compile(r"C\[(?:\\.|[^\]\\])*\]")
_MOVE = re.compile(r"(?<![A-Za-z])[BW]\[")
_RESULT = re.compile(r"RE\[([^\]]*)\]")


def check_games(ctl: str, games: int) -> int:
    """Check every game was played to a proper result; returns the total number of moves."""
    base = os.path.splitext(ctl)[0]
    gamedir = base + ".games"
    files = sorted(os.listdir(gamedir)) if os.path.isdir(gamedir) else []
    if len(files) != games:
        raise SystemExit(f"{ctl}: expected {games} game records, found {len(files)}")
    if os.path.isdir(base + ".void") and os.listdir(base + ".void"):
        raise SystemExit(f"{ctl}: void games in {base}.void")
    total = 0
    for name in files:
        with open(os.path.join(gamedir, name), encoding="utf-8", errors="replace") as f:
            sgf = f.read()
        result = _RESULT.search(sgf)
        if result is None or result.group(1).endswith("F") or result.group(1) in ("Void", "?"):
            raise SystemExit(f"{ctl}: game {name} ended badly: "
                             f"{result.group(1) if result else 'no result'}")
        total += len(_MOVE.findall(_COMMENT.sub("", sgf)))
    return total


def write_control_file(directory: str, name: str, engine: list[str], games: int,
                       board_size: int, engine2: list[str] | None = None,
                       extra: str = "") -> str:
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + ".ctl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(CONTROL_FILE.format(p1=engine, p2=engine2 or engine, games=games,
                                    board_size=board_size, extra=extra))
    return path


@dataclass(frozen=True)
class Timed:
    """One timed run: wall and CPU seconds (all processes), moves played, and the
    engines' own CPU seconds (None unless the engines log it)."""

    wall: float
    cpu: float
    moves: int
    engines_cpu: float | None


class Bench:
    def __init__(self, args, implementations: list[Ringmaster]):
        self.args = args
        self.impls = implementations
        # The per-move and GNU Go figures compare ours with Gomill only (not --before).
        self.compared = [impl for impl in implementations if impl.label != "before"]
        self.tmp = tempfile.mkdtemp(prefix="bench_ringmaster_")
        self.counter = 0
        self.engine_runs: list[tuple[float, float, float]] = []
        self.scripts: dict[int, str] = {}

    def fresh_ctl(self, engine: list[str], games: int, board_size: int = 9,
                  extra: str = "") -> str:
        self.counter += 1
        return write_control_file(os.path.join(self.tmp, f"run{self.counter}"), "bench",
                                  engine, games, board_size, extra=extra)

    def fast_engine(self, moves: int) -> list[str]:
        """The engine command for games of moves + 2 moves (--engine: fast or replay)."""
        # -S: no site import, so the engines start as fast as the interpreter can.
        if self.args.engine == "replay":
            return [self.args.engine_python, "-S", REPLAY_ENGINE, "--script", self.script(moves)]
        return [self.args.engine_python, "-S", ENGINE, "--moves", str(moves)]

    def script(self, moves: int) -> str:
        """A file of the game fast_engine plays against itself (made once a length)."""
        if moves not in self.scripts:
            lines = [f"genmove {'bw'[i % 2]}" for i in range(moves + 2)]
            text = "\n".join(["boardsize 9", "clear_board", "komi 7.5"] + lines + ["quit"])
            out = subprocess.run([self.args.engine_python, "-S", ENGINE, "--moves", str(moves)],
                                 input=text + "\n", text=True, capture_output=True,
                                 check=True).stdout
            vertices = [line[1:].strip() for line in out.splitlines() if line.startswith("=")]
            path = os.path.join(self.tmp, f"game{moves}.txt")
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(vertices[3:3 + moves + 2]) + "\n")
            self.scripts[moves] = path
        return self.scripts[moves]

    def timed(self, impl: Ringmaster, engine: list[str], games: int, parallel: int | None,
              board_size: int = 9, extra: str = "") -> Timed:
        """Run a fresh competition; with the replay engine, its engines log their CPU."""
        log = None
        if self.args.engine == "replay" and engine[-2:-1] == ["--script"]:
            log = os.path.join(self.tmp, f"engines_cpu{self.counter + 1}.log")
            engine = engine + ["--cpu-log", log]
        ctl = self.fresh_ctl(engine, games, board_size, extra)
        wall, cpu = impl.run(ctl, parallel)
        moves = check_games(ctl, games)
        shutil.rmtree(os.path.dirname(ctl), ignore_errors=True)
        engines_cpu = None
        if log is not None:
            with open(log, encoding="ascii") as f:
                engines_cpu = sum(float(line) for line in f if line.strip())
            os.unlink(log)
        return Timed(wall, cpu, moves, engines_cpu)

    def variants(self) -> list[tuple[str, Ringmaster, str]]:
        """(label, implementation, control-file lines) for each games/s figure.

        Ours (and --before) run twice: as Gomill runs, and with the engines kept
        between games (Gomill has no such setting).
        """
        out = []
        for impl in self.impls:
            out.append((impl.label, impl, ""))
            if impl.label != "gomill":
                out.append((impl.label + "+reuse", impl, "reuse_engines = True\n"))
        return out

    def games_per_second(self) -> dict:
        """{(label, mode): [(games/s, CPU ms/game, steady games/s, steady CPU ms/game)
        for each run]} for each of --modes (None: no -j).

        games/s: --games games end to end (the interpreter's start, the start-up
        checks and the final report included). Steady: from runs of --games and
        --long-games games, (long - short) / (time(long) - time(short)), so that
        a run's fixed costs cancel out: the rate a long run keeps up.
        """
        samples: dict = {}
        engine = self.fast_engine(self.args.moves)
        short, long = self.args.games, self.args.long_games
        for impl in self.impls:   # untimed: each writes its bytecode caches once
            self.timed(impl, engine, 2, None)
        for rep in range(self.args.repeat):
            self.engine_sample()
            # Odd rounds run the variants in reverse order (ABBA), so that a machine
            # speeding up or slowing down during a round favours no one.
            order = self.variants() if rep % 2 == 0 else self.variants()[::-1]
            for mode in self.args.modes:
                for label, impl, extra in order:
                    one = self.timed(impl, engine, short, mode, extra=extra)
                    two = self.timed(impl, engine, long, mode, extra=extra)
                    w1, c1, w2, c2 = one.wall, one.cpu, two.wall, two.cpu
                    steady = (long - short) / (w2 - w1) if w2 > w1 else float("nan")
                    steady_cpu = 1000 * (c2 - c1) / (long - short)
                    engines_cpu = float("nan") if one.engines_cpu is None else \
                        1000 * (two.engines_cpu - one.engines_cpu) / (long - short)
                    samples.setdefault((label, mode), []).append(
                        (short / w1, 1000 * c1 / short, steady, steady_cpu, engines_cpu))
                    self.progress(f"games/s {label} -j {mode}: {short / w1:.2f} "
                                  f"({1000 * c1 / short:.1f} CPU ms/game); steady "
                                  f"{steady:.2f} ({steady_cpu:.1f} CPU ms/game, engines "
                                  f"{engines_cpu:.1f})")
        return samples

    def per_move(self) -> dict:
        """{label: [(wall ms/move, CPU ms/move, start-up CPU s, fixed CPU ms/game) per run]}.

        From in-process runs of G long games, G short games and 1 short game:
        per move = (long - short) / (moves(long) - moves(short)); per game =
        CPU(short(G)) - CPU(short(1))) / (G - 1); start-up = CPU(short(1)) - per game.
        CPU counts the ringmaster and its engines.
        """
        samples: dict = {}
        games = self.args.move_games
        for _rep in range(self.args.repeat):
            self.engine_sample()
            for impl in self.compared:
                long_run = self.timed(impl, self.fast_engine(self.args.moves), games, None)
                short_run = self.timed(impl, self.fast_engine(self.args.short_moves), games, None)
                w_long, c_long, m_long = long_run.wall, long_run.cpu, long_run.moves
                w_short, c_short, m_short = short_run.wall, short_run.cpu, short_run.moves
                c_one = self.timed(impl, self.fast_engine(self.args.short_moves), 1, None).cpu
                moves = m_long - m_short
                per_game = (c_short - c_one) / (games - 1)
                sample = (1000 * (w_long - w_short) / moves, 1000 * (c_long - c_short) / moves,
                          c_one - per_game, 1000 * per_game)
                samples.setdefault(impl.label, []).append(sample)
                self.progress(f"per move {impl.label}: {sample[0]:.3f} wall ms, "
                              f"{sample[1]:.3f} CPU ms ({m_long} vs {m_short} moves in "
                              f"{games} games); start-up {sample[2]:.3f} CPU s, "
                              f"{sample[3]:.1f} CPU ms/game")
        return samples

    def engine_sample(self) -> None:
        """Measure the engines alone once (called inside each repetition, so that the
        engines' own costs are measured under the same load as the runs around them)."""
        w_long, c_long, m_long = self._replay(self.args.moves)
        w_short, c_short, m_short = self._replay(self.args.short_moves)
        moves = m_long - m_short
        self.engine_runs.append((1000 * (w_long - w_short) / moves,
                                 1000 * (c_long - c_short) / moves, 1000 * c_long))

    def board_cpu_ms(self, repeat: int = 20) -> float:
        """CPU ms sgfmill's board takes to play the bench's game once (what both referees
        pay to check every move: Gomill's board is the same algorithm)."""
        from sgfmill import boards, common
        with open(self.script(self.args.moves), encoding="utf-8") as f:
            vertices = [line.strip() for line in f if line.strip()]
        moves = [common.move_from_vertex(v, 9) for v in vertices]
        start = time.process_time()
        for _ in range(repeat):
            board = boards.Board(9)
            for i, move in enumerate(moves):
                if move is not None:
                    board.play(move[0], move[1], "bw"[i % 2])
        return 1000 * (time.process_time() - start) / repeat

    def engine_costs(self) -> tuple[float, float, float]:
        """The engines' own (wall ms/move, CPU ms/move, CPU ms/game), with no ringmaster.

        A game's commands are replayed from a file; CPU ms/game is for a whole
        game of --moves moves, both engines' start-up included.  Per move of a
        game, one engine answers genmove and the other play; both are replayed
        (genmove for every move into one engine, then play for every move into
        another), with no ringmaster in between.  Medians of the samples.
        """
        while len(self.engine_runs) < 3:
            self.engine_sample()
        return medians(self.engine_runs)

    def _replay(self, moves: int) -> tuple[float, float, int]:
        def run_script(lines: list[str]) -> tuple[float, float, str]:
            script = "\n".join(["boardsize 9", "clear_board", "komi 7.5"] + lines
                               + ["quit"]) + "\n"
            cpu = children_cpu()
            start = time.perf_counter()
            out = subprocess.run(self.fast_engine(moves), input=script, text=True,
                                 capture_output=True, check=True,
                                 env=bench_environment()).stdout
            return time.perf_counter() - start, children_cpu() - cpu, out

        w1, c1, out = run_script([f"genmove {'bw'[i % 2]}" for i in range(moves + 2)])
        vertices = [line[1:].strip() for line in out.splitlines() if line.startswith("=")]
        vertices = vertices[3:3 + moves + 2]
        w2, c2, _ = run_script([f"play {'bw'[i % 2]} {v}" for i, v in enumerate(vertices)])
        return w1 + w2, c1 + c2, len(vertices)

    def gnugo(self) -> dict:
        """{label: [(games/s, wall ms per move) per run]} with GNU Go level 0 on both sides."""
        samples: dict = {}
        # A fixed seed: GNU Go then plays the same games under both ringmasters.
        engine = [GNUGO, "--mode", "gtp", "--level", "0", "--seed", "1"]
        games = self.args.gnugo_games
        for _rep in range(self.args.repeat):
            for impl in self.compared:
                run = self.timed(impl, engine, games, None)
                wall, moves = run.wall, run.moves
                samples.setdefault(impl.label, []).append((games / wall, 1000 * wall / moves))
                self.progress(f"gnugo {impl.label}: {games / wall:.3f} games/s, {moves} moves")
        return samples

    def profile(self) -> str:
        """cProfile one of our in-process runs (the main thread: the referee's side)."""
        import io
        import pstats
        ctl = self.fresh_ctl(self.fast_engine(self.args.moves), self.args.games)
        prof = os.path.join(self.tmp, "ours.prof")
        argv = [sys.executable, "-m", "cProfile", "-o", prof, "-m", "ringmaster.cli",
                ctl, "run", "-q"]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (os.path.dirname(HERE), os.environ.get("PYTHONPATH")) if p)
        subprocess.run(argv, cwd=os.path.dirname(ctl), check=True, env=env,
                       stdout=subprocess.DEVNULL)
        moves = check_games(ctl, self.args.games)
        out = io.StringIO()
        out.write(f"cProfile of our in-process run: {self.args.games} games, {moves} moves "
                  "(main thread only; 'acquire' is waiting for the engines)\n")
        stats = pstats.Stats(prof, stream=out)
        stats.strip_dirs()
        stats.sort_stats("tottime").print_stats(self.args.profile_lines)
        stats.sort_stats("cumulative").print_stats(self.args.profile_lines)
        return out.getvalue()

    def progress(self, message: str) -> None:
        if not self.args.quiet:
            print(f"  .. {message}", file=sys.stderr, flush=True)


def medians(samples: list[tuple]) -> tuple:
    return tuple(statistics.median(column) for column in zip(*samples))


def median_or_none(values: list[float]) -> float | None:
    """The median of the values that are numbers (a steady figure can be NaN), or None."""
    values = [v for v in values if v == v]
    return statistics.median(values) if values else None


def paired_ratios(numerators: list[float] | None, denominators: list[float] | None
                  ) -> list[float]:
    """Each round's ratio (rounds with a NaN or a non-positive value skipped)."""
    return [n / d for n, d in zip(numerators or [], denominators or []) if n > 0 and d > 0]


def median_ratio(numerators: list[float] | None, denominators: list[float] | None
                 ) -> float | None:
    """The median of the paired ratios."""
    return median_or_none(paired_ratios(numerators, denominators))


def median_interval(values: list[float], level: float = 0.95) -> tuple[float, float] | None:
    """A distribution-free interval for the median: the order statistics (k, n + 1 - k)
    with the largest k whose coverage, from the binomial(n, 1/2) law, is at least level.

    Up to 8 values that is the lowest and the highest (coverage 1 - 2^(1-n)); None
    for fewer than 6 values, where even those cover less than 95%.
    """
    n = len(values)
    ordered = sorted(values)
    below = 0.0      # P(Bin(n, 1/2) < k), for k = 1, 2, ...
    best = None
    for k in range(1, n // 2 + 1):
        below += math.comb(n, k - 1) / 2 ** n
        if 1 - 2 * below < level:
            break
        best = k
    return None if best is None else (ordered[best - 1], ordered[n - best])


def ratio_interval(numerators: list[float] | None, denominators: list[float] | None) -> str:
    """median_interval of the paired ratios, as 'low-high' ('-' if too few rounds)."""
    interval = median_interval(paired_ratios(numerators, denominators))
    return "-" if interval is None else f"{interval[0]:.2f}-{interval[1]:.2f}"


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gomill", default=os.environ.get("GOMILL_DIR"),
                        help="Gomill 0.8.3 sdist directory (has ringmaster and gomill/); "
                             "default $GOMILL_DIR")
    parser.add_argument("--python2", default=os.environ.get("GOMILL_PYTHON", DEFAULT_PYTHON2),
                        help="Python 2.7 to run Gomill with "
                             "(default $GOMILL_PYTHON or %(default)s)")
    parser.add_argument("--engine-python", default=None,
                        help="interpreter for bench/fast_engine.py, run with -S (default: the "
                             "Python 2.7 if there is one, it starts fastest; else this one)")
    parser.add_argument("--engine", choices=("fast", "replay"), default="fast",
                        help="fast: bench/fast_engine.py, which keeps a board (its own CPU is "
                             "about a third of Gomill's whole cost a game); replay: "
                             "bench/replay_engine.py, which replays fast_engine's game and "
                             "costs next to nothing, so the figures are the controllers'")
    parser.add_argument("--games", type=int, default=20, help="games per games/s run")
    parser.add_argument("--long-games", type=int, default=80,
                        help="games in the longer run of the steady games/s figure")
    parser.add_argument("--before", default=None,
                        help="a checkout of an earlier commit of ours (git worktree add DIR "
                             "COMMIT), timed beside ours and Gomill in the games/s runs")
    parser.add_argument("--moves", type=int, default=150,
                        help="moves in a fast-engine game, before the two passes")
    parser.add_argument("--short-moves", type=int, default=0,
                        help="moves in the short games of the ms/move measurement")
    parser.add_argument("--move-games", type=int, default=10,
                        help="games per run in the ms/move measurement")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs per figure (median); a ratio's 95%% interval needs 6 or more")
    parser.add_argument("--modes", default="none,1,2",
                        help="the games/s runs' modes, comma-separated: none (games in the "
                             "ringmaster's process), 1 (-j 1), 2 (-j 2); default %(default)s")
    parser.add_argument("--gnugo-games", type=int, default=4,
                        help="games per GNU Go level 0 run (0: skip)")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile one of our in-process runs")
    parser.add_argument("--profile-lines", type=int, default=25)
    parser.add_argument("--only", choices=("gps", "move", "gnugo"), action="append",
                        help="run only these parts (repeatable)")
    parser.add_argument("--ours", default=None,
                        help="command line that runs our ringmaster (default: this Python "
                             "-m ringmaster.cli), e.g. to measure a patched copy")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    try:
        args.modes = [None if m.strip() == "none" else int(m) for m in args.modes.split(",")]
    except ValueError:
        parser.error(f"--modes {args.modes!r}: give none, 1 or 2, comma-separated")
    if not args.modes or any(m not in (None, 1, 2) for m in args.modes):
        parser.error("--modes: give none, 1 or 2, comma-separated")
    if args.engine_python is None:
        args.engine_python = args.python2 if os.path.isfile(args.python2) else sys.executable

    repo = os.path.dirname(HERE)
    ours_argv = shlex.split(args.ours) if args.ours else [sys.executable, "-m", "ringmaster.cli"]
    ours = Ringmaster("ringmaster", ours_argv,
                      env={"PYTHONPATH": os.pathsep.join(
                          p for p in (repo, os.environ.get("PYTHONPATH")) if p)})
    impls = [ours]
    if args.before:
        before_dir = os.path.abspath(args.before)
        impls.append(Ringmaster("before", [sys.executable, "-m", "ringmaster.cli"],
                                env={"PYTHONPATH": before_dir}))
    gomill = None
    if args.gomill and os.path.isfile(os.path.join(args.gomill, "ringmaster")) \
            and os.path.isfile(args.python2):
        gomill_dir = os.path.abspath(args.gomill)
        gomill = Ringmaster("gomill", [args.python2, os.path.join(gomill_dir, "ringmaster")],
                            env={"PYTHONPATH": gomill_dir})
        impls.append(gomill)
    else:
        if args.gomill:
            print(f"no Gomill ringmaster in {args.gomill} or no Python 2 at {args.python2}",
                  file=sys.stderr)
        print(HOW_TO_GET_GOMILL)
        print()

    parts = set(args.only or ("gps", "move", "gnugo"))
    load_before = os.getloadavg()
    bench = Bench(args, impls)
    try:
        gps = bench.games_per_second() if "gps" in parts else {}
        per_move = bench.per_move() if "move" in parts else {}
        engine = bench.engine_costs() if parts & {"gps", "move"} else None
        board = bench.board_cpu_ms() if "gps" in parts else None
        gnugo = bench.gnugo() if "gnugo" in parts and args.gnugo_games > 0 \
            and os.path.exists(GNUGO) else {}
        profile = bench.profile() if args.profile else None
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)
    load_after = os.getloadavg()

    have_gomill = gomill is not None
    engine_file = "replay_engine" if args.engine == "replay" else "fast_engine"
    print(f"ringmaster vs Gomill 0.8.3: 9x9 playoff between two {engine_file} players "
          f"({args.moves}+2 moves a game; engine interpreter {args.engine_python} -S); "
          f"median of {args.repeat} interleaved runs")
    print(f"ours: python {sys.version.split()[0]}; cpus {os.cpu_count()}; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after")
    if args.ours:
        print(f"ours run as: {args.ours} (--ours)")
    dropped = [name for name in DROPPED_ENVIRONMENT if name in os.environ]
    if dropped:
        print(f"removed from every run's environment: {', '.join(dropped)}")
    head = f"{'measure':<46}{'ours':>10}" + (
        f"{'gomill':>10}{'ratio':>8}{'95% interval':>15}" if have_gomill else "")
    print(head)
    print("-" * len(head))

    def row(name: str, ours_values, gomill_values, digits: int = 2,
            higher_is_better: bool = True):
        """Medians of the runs; the ratio is the median of the runs' paired ratios, and
        its 95% interval follows it."""
        ours_v = median_or_none(ours_values) if ours_values else None
        line = f"{name:<46}{fmt(ours_v, digits):>10}"
        if have_gomill:
            gomill_v = median_or_none(gomill_values) if gomill_values else None
            pairs = (ours_values, gomill_values) if higher_is_better \
                else (gomill_values, ours_values)
            ratio = median_ratio(*pairs)
            line += (f"{fmt(gomill_v, digits):>10}{fmt(ratio, 2) + 'x':>8}"
                     f"{ratio_interval(*pairs):>15}")
        print(line)

    def col(table: dict, key, index: int, minus: float = 0.0) -> list | None:
        runs = table.get(key)
        return None if runs is None else [run[index] - minus for run in runs]

    modes = tuple((m, n) for m, n in ((None, "no -j"), (1, "-j 1"), (2, "-j 2"))
                  if m in args.modes)
    if gps:
        for label, what in (("ringmaster", "ours"), (REUSE, "ours, reuse")):
            for mode, name in modes:
                row(f"games/s, {name}, {what} [{args.games} games]", col(gps, (label, mode), 0),
                    col(gps, ("gomill", mode), 0))
        for label, what in (("ringmaster", "ours"), (REUSE, "ours, reuse")):
            for mode, name in modes:
                row(f"steady games/s, {name}, {what}", col(gps, (label, mode), 2),
                    col(gps, ("gomill", mode), 2))
        for mode, name in modes:
            row(f"CPU ms/game, all processes, {name}", col(gps, ("ringmaster", mode), 1),
                col(gps, ("gomill", mode), 1), 1, higher_is_better=False)
        for mode, name in modes:
            row(f"steady CPU ms/game, {name}", col(gps, ("ringmaster", mode), 3),
                col(gps, ("gomill", mode), 3), 1, higher_is_better=False)
        for mode, name in modes:
            row(f"steady CPU ms/game, {name}, ours, reuse", col(gps, (REUSE, mode), 3),
                col(gps, ("gomill", mode), 3), 1, higher_is_better=False)
        def own(label: str, mode) -> list | None:
            """Each run's steady CPU a game less its engines' (as they logged it)."""
            runs = gps.get((label, mode))
            return None if runs is None else [run[3] - run[4] for run in runs]

        if any(run[4] == run[4] for runs in gps.values() for run in runs):
            for label, what in (("ringmaster", "ours"), (REUSE, "ours, reuse")):
                for mode, name in modes:
                    row(f"steady engines' CPU ms/game, {name}, {what}", col(gps, (label, mode), 4),
                        col(gps, ("gomill", mode), 4), 1, higher_is_better=False)
            for label, what in (("ringmaster", "ours"), (REUSE, "ours, reuse")):
                for mode, name in modes:
                    row(f"steady CPU ms/game less engines', {name}, {what}", own(label, mode),
                        own("gomill", mode), 1, higher_is_better=False)
        if engine:
            row("  engines' own CPU ms/game (replayed)", [engine[2]],
                [engine[2]] if have_gomill else None, 1, higher_is_better=False)
            for mode, name in modes:
                row(f"ringmaster CPU ms/game (all - engines), {name}",
                    col(gps, ("ringmaster", mode), 1, engine[2]),
                    col(gps, ("gomill", mode), 1, engine[2]), 1, higher_is_better=False)
    if per_move:
        e_cpu = engine[1]
        row("wall ms/move, in-process (upper bound)", col(per_move, "ringmaster", 0),
            col(per_move, "gomill", 0), 3, higher_is_better=False)
        row("CPU ms/move, all processes", col(per_move, "ringmaster", 1),
            col(per_move, "gomill", 1), 3, higher_is_better=False)
        row("  engines' own CPU ms/move (replayed)", [e_cpu], [e_cpu] if have_gomill else None,
            3, higher_is_better=False)
        row("overhead ms/move: wall - engines' CPU", col(per_move, "ringmaster", 0, e_cpu),
            col(per_move, "gomill", 0, e_cpu), 3, higher_is_better=False)
        row("overhead ms/move: CPU - engines' CPU", col(per_move, "ringmaster", 1, e_cpu),
            col(per_move, "gomill", 1, e_cpu), 3, higher_is_better=False)
        row("start-up CPU s per run (incl. checks)", col(per_move, "ringmaster", 2),
            col(per_move, "gomill", 2), 3, higher_is_better=False)
        row(f"CPU ms per {args.short_moves}+2-move game (fixed cost)",
            col(per_move, "ringmaster", 3), col(per_move, "gomill", 3), 1,
            higher_is_better=False)
    if gnugo:
        row(f"GNU Go L0 games/s, no -j [{args.gnugo_games} games]", col(gnugo, "ringmaster", 0),
            col(gnugo, "gomill", 0), 3)
        row("GNU Go L0 wall ms/move, no -j", col(gnugo, "ringmaster", 1),
            col(gnugo, "gomill", 1), 2, higher_is_better=False)
    if have_gomill:
        print("values: medians of the runs; ratio: median of the runs' paired ratios, "
              "ours/gomill for games/s and gomill/ours for times (above 1: ours is faster); "
              "95% interval: of that median, distribution-free (order statistics of the "
              "paired ratios; with 6 to 8 rounds, their lowest and highest)")
    if gps and any(("before", mode) in gps for mode, _ in modes):
        print()
        print("before (--before) against now, ours alone; ratio: now/before (above 1: faster now), "
              "then its 95% interval")
        for label in ("", "+reuse"):
            for index, what in ((0, f"games/s [{args.games} games]"), (2, "steady games/s")):
                for mode, name in modes:
                    now = col(gps, ("ringmaster" + label, mode), index)
                    before = col(gps, ("before" + label, mode), index)
                    print(f"{what + ', ' + name + (', reuse' if label else ''):<46}"
                          f"{fmt(median_or_none(now)):>10}{fmt(median_or_none(before)):>10}"
                          f"{fmt(median_ratio(now, before)) + 'x':>8}"
                          f"{ratio_interval(now, before):>15}")
    if gps and have_gomill:
        # The goals: at -j 1 and -j 2, 2x without reuse and 4x with it.
        for index, what in ((0, f"{args.games}-game runs"), (2, "steady")):
            for label, goal in (("ringmaster", 2), (REUSE, 4)):
                ratios = {name: median_ratio(col(gps, (label, m), index),
                                             col(gps, ("gomill", m), index))
                          for m, name in modes if m is not None}
                met = all(r is not None and r >= goal for r in ratios.values())
                ranges = {name: ratio_interval(col(gps, (label, m), index),
                                            col(gps, ("gomill", m), index))
                          for m, name in modes if m is not None}
                print(f"goal >= {goal}x Gomill's games/s{' with reuse' if goal == 4 else ''}, "
                      f"{what}: " + ", ".join(f"{n} {fmt(r)}x ({ranges[n]})"
                                              for n, r in ratios.items())
                      + f" -> {'met' if met else 'NOT met'}")
    if gps and have_gomill and board is not None:
        # What both ringmasters pay a game whatever they do: the engines' own CPU and
        # sgfmill's board checking every move (Gomill's board is the same algorithm).
        # Where both are CPU-bound at the same utilisation, games/s can differ by no
        # more than the ratio of CPU a game, so Gomill's CPU over this floor caps the
        # ratio. The engines' CPU is the lower of theirs in our runs and in Gomill's.
        print(f"sgfmill's board, playing the bench's game: {board:.1f} CPU ms")
        for mode, name in modes:
            gomill_cpu = median_or_none(col(gps, ("gomill", mode), 3) or [])
            if mode is None or not gomill_cpu:
                continue
            caps = []
            for label, what in (("ringmaster", "without reuse"), (REUSE, "with reuse")):
                engines = [median_or_none(col(gps, (impl, mode), 4) or [])
                           for impl in (label, "gomill" if label == "ringmaster" else label)]
                engines = [e for e in engines if e is not None]
                if engines:
                    floor = min(engines) + board
                    caps.append(f"{what}: floor {floor:.1f} ms, cap {gomill_cpu / floor:.2f}x")
            if caps:
                print(f"  at {name}, Gomill's steady {gomill_cpu:.1f} CPU ms a game over the "
                      "floor (engines' CPU in the run + board): " + "; ".join(caps))
    if per_move:
        wall = statistics.median(col(per_move, "ringmaster", 0))
        cpu = statistics.median(col(per_move, "ringmaster", 1))
        net = wall - engine[1]
        verdict = "met" if wall < 1 else "met net of the engines" if net < 1 else "NOT met"
        print(f"goal < 1 ms ringmaster overhead per move: wall upper bound {wall:.3f} ms, "
              f"less engines' CPU {net:.3f} ms, CPU {cpu - engine[1]:.3f} ms -> {verdict}")
    if profile:
        print()
        print(profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
