#!/usr/bin/env python3
"""Ringmaster against Gomill 0.8.3: games per second and overhead per move.

Both ringmasters run the same playoff control file (written to a temporary
directory at run time) with the same engines: bench/fast_engine.py, a GTP
engine that answers at once and plays a fixed legal game of a known length,
and optionally GNU Go at level 0.  Runs of ours and Gomill's are interleaved
and each figure is the median of --repeat runs, so the ratios are measured
side by side on the same (shared, noisy) machine.

Measured:
  games/s   -- N games end to end (`ringmaster run CTL -q`, start-up checks
               and interpreter start included), without -j (games in-process),
               with -j 1 and with -j 2.
  ms/move   -- in-process runs of games of --moves moves and of --short-moves
               moves; (wall(long) - wall(short)) / (moves(long) - moves(short)):
               the wall time per move with per-game costs (engine start-up,
               board set-up, scoring, SGF and state files) cancelled out.  It is
               an upper bound on the ringmaster + GTP overhead per move; the
               engines' own time per move (measured by replaying the same GTP
               commands into one engine from a file) is subtracted to give the
               overhead estimate.

Gomill is Python 2 only.  Get it with
    pip download gomill==0.8.3 --no-deps --no-binary :all: -d /tmp/gomill
    tar -xzf /tmp/gomill/gomill-0.8.3.tar.gz -C /tmp/gomill
and pass --gomill /tmp/gomill/gomill-0.8.3 (or set GOMILL_DIR), with a
Python 2.7 in --python2 (or GOMILL_PYTHON; default ~/.pyenv/versions/2.7.18).
Without Gomill only our figures are printed.

    python bench/bench_ringmaster.py --gomill /tmp/gomill/gomill-0.8.3
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "fast_engine.py")
DEFAULT_PYTHON2 = os.path.expanduser("~/.pyenv/versions/2.7.18/bin/python")
GNUGO = "/usr/games/gnugo"

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


class Ringmaster:
    """How to launch one ringmaster implementation."""

    def __init__(self, label: str, argv: list[str], env: dict[str, str] | None = None):
        self.label = label
        self.argv = argv
        self.env = env

    def run(self, ctl: str, parallel: int | None) -> float:
        """Run CTL to completion; returns the wall time in seconds."""
        argv = self.argv + [ctl, "run", "-q"]
        if parallel is not None:
            argv += ["-j", str(parallel)]
        env = dict(os.environ)
        env.update(self.env or {})
        start = time.perf_counter()
        proc = subprocess.run(argv, cwd=os.path.dirname(ctl), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"{self.label} failed (exit {proc.returncode}) on {ctl}:\n"
                             f"{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
        return elapsed


_MOVE = re.compile(r";\s*[BW]\[")
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
        total += len(_MOVE.findall(sgf))
    return total


def write_control_file(directory: str, name: str, engine: list[str], games: int,
                       board_size: int, engine2: list[str] | None = None) -> str:
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + ".ctl")
    with open(path, "w", encoding="utf-8") as f:
        f.write(CONTROL_FILE.format(p1=engine, p2=engine2 or engine, games=games,
                                    board_size=board_size))
    return path


class Bench:
    def __init__(self, args, implementations: list[Ringmaster]):
        self.args = args
        self.impls = implementations
        self.tmp = tempfile.mkdtemp(prefix="bench_ringmaster_")
        self.counter = 0

    def fresh_ctl(self, engine: list[str], games: int, board_size: int = 9) -> str:
        self.counter += 1
        return write_control_file(os.path.join(self.tmp, f"run{self.counter}"), "bench",
                                  engine, games, board_size)

    def fast_engine(self, moves: int) -> list[str]:
        # -S: no site import, so the engines start as fast as the interpreter can.
        return [self.args.engine_python, "-S", ENGINE, "--moves", str(moves)]

    def timed(self, impl: Ringmaster, engine: list[str], games: int, parallel: int | None,
              board_size: int = 9) -> tuple[float, int]:
        ctl = self.fresh_ctl(engine, games, board_size)
        elapsed = impl.run(ctl, parallel)
        moves = check_games(ctl, games)
        shutil.rmtree(os.path.dirname(ctl), ignore_errors=True)
        return elapsed, moves

    def games_per_second(self) -> dict:
        """{(label, mode): median games/s} for modes None, 1, 2 (interleaved runs)."""
        samples: dict = {}
        engine = self.fast_engine(self.args.moves)
        for rep in range(self.args.repeat):
            for mode in (None, 1, 2):
                for impl in self.impls:
                    elapsed, _ = self.timed(impl, engine, self.args.games, mode)
                    samples.setdefault((impl.label, mode), []).append(self.args.games / elapsed)
                    self.progress(f"games/s {impl.label} -j {mode}: "
                                  f"{self.args.games / elapsed:.2f}")
        return {key: statistics.median(values) for key, values in samples.items()}

    def per_move(self) -> dict:
        """{label: median wall ms per move}, from long and short in-process runs."""
        samples: dict = {}
        games = self.args.move_games
        for rep in range(self.args.repeat):
            for impl in self.impls:
                t_long, m_long = self.timed(impl, self.fast_engine(self.args.moves), games, None)
                t_short, m_short = self.timed(impl, self.fast_engine(self.args.short_moves),
                                              games, None)
                ms = 1000 * (t_long - t_short) / (m_long - m_short)
                samples.setdefault(impl.label, []).append(ms)
                self.progress(f"ms/move {impl.label}: {ms:.3f} "
                              f"({m_long} vs {m_short} moves in {games} games)")
        return {label: statistics.median(values) for label, values in samples.items()}

    def engine_ms_per_move(self) -> float:
        """The engines' own wall time per move: one engine replays a game's commands from a file.

        Per move of a game, one engine answers genmove and the other play;
        both are replayed here (genmove for every move into one engine, then
        play for every move into another).
        """
        def replay(moves: int) -> tuple[float, int]:
            lines = ["boardsize 9", "clear_board", "komi 7.5"]
            lines += [f"genmove {'bw'[i % 2]}" for i in range(moves + 2)]
            script = "\n".join(lines + ["quit"]) + "\n"
            start = time.perf_counter()
            out = subprocess.run(self.fast_engine(moves), input=script, text=True,
                                 capture_output=True, check=True).stdout
            t_genmove = time.perf_counter() - start
            vertices = [line[2:].strip() for line in out.splitlines() if line.startswith("=")]
            vertices = vertices[3:3 + moves + 2]
            plays = ["boardsize 9", "clear_board", "komi 7.5"]
            plays += [f"play {'bw'[i % 2]} {v}" for i, v in enumerate(vertices)]
            script = "\n".join(plays + ["quit"]) + "\n"
            start = time.perf_counter()
            subprocess.run(self.fast_engine(moves), input=script, text=True,
                           capture_output=True, check=True)
            t_play = time.perf_counter() - start
            return t_genmove + t_play, len(vertices)

        samples = []
        for _ in range(max(3, self.args.repeat)):
            t_long, m_long = replay(self.args.moves)
            t_short, m_short = replay(self.args.short_moves)
            samples.append(1000 * (t_long - t_short) / (m_long - m_short))
        return statistics.median(samples)

    def gnugo(self) -> dict:
        samples: dict = {}
        engine = [GNUGO, "--mode", "gtp", "--level", "0"]
        for rep in range(self.args.repeat):
            for impl in self.impls:
                elapsed, moves = self.timed(impl, engine, self.args.gnugo_games, None)
                samples.setdefault(impl.label, []).append(
                    (self.args.gnugo_games / elapsed, 1000 * elapsed / moves))
                self.progress(f"gnugo {impl.label}: {self.args.gnugo_games / elapsed:.3f} "
                              f"games/s, {moves} moves")
        return {label: (statistics.median(v[0] for v in values),
                        statistics.median(v[1] for v in values))
                for label, values in samples.items()}

    def profile(self, ours: Ringmaster) -> str:
        import pstats
        ctl = self.fresh_ctl(self.fast_engine(self.args.moves), self.args.games)
        prof = os.path.join(self.tmp, "ours.prof")
        argv = [sys.executable, "-m", "cProfile", "-o", prof, "-m", "ringmaster.cli",
                ctl, "run", "-q"]
        subprocess.run(argv, cwd=os.path.dirname(ctl), check=True,
                       stdout=subprocess.DEVNULL)
        moves = check_games(ctl, self.args.games)
        import io
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        stats.strip_dirs()
        out.write(f"cProfile of our in-process run: {self.args.games} games, {moves} moves "
                  "(main thread only)\n")
        stats.sort_stats("tottime").print_stats(self.args.profile_lines)
        stats.sort_stats("cumulative").print_stats(self.args.profile_lines)
        return out.getvalue()

    def progress(self, message: str) -> None:
        if not self.args.quiet:
            print(f"  .. {message}", file=sys.stderr, flush=True)


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gomill", default=os.environ.get("GOMILL_DIR"),
                        help="Gomill 0.8.3 sdist directory (has ringmaster and gomill/); "
                             "default $GOMILL_DIR")
    parser.add_argument("--python2", default=os.environ.get("GOMILL_PYTHON", DEFAULT_PYTHON2),
                        help="Python 2.7 to run Gomill with (default $GOMILL_PYTHON or %(default)s)")
    parser.add_argument("--engine-python", default=None,
                        help="interpreter for bench/fast_engine.py, run with -S (default: the "
                             "Python 2.7 if there is one, it starts fastest; else this one)")
    parser.add_argument("--games", type=int, default=20, help="games per games/s run")
    parser.add_argument("--moves", type=int, default=150,
                        help="moves in a fast-engine game, before the two passes")
    parser.add_argument("--short-moves", type=int, default=0,
                        help="moves in the short games of the ms/move measurement")
    parser.add_argument("--move-games", type=int, default=10,
                        help="games per run in the ms/move measurement")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--gnugo-games", type=int, default=2,
                        help="games per GNU Go level 0 run (0: skip)")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile one of our in-process runs")
    parser.add_argument("--profile-lines", type=int, default=25)
    parser.add_argument("--only", choices=("gps", "move", "gnugo"), action="append",
                        help="run only these parts (repeatable)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    if args.engine_python is None:
        args.engine_python = args.python2 if os.path.isfile(args.python2) else sys.executable

    ours = Ringmaster("ringmaster", [sys.executable, "-m", "ringmaster.cli"])
    impls = [ours]
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
    bench = Bench(args, impls)
    try:
        gps = bench.games_per_second() if "gps" in parts else {}
        per_move = bench.per_move() if "move" in parts else {}
        engine_ms = bench.engine_ms_per_move() if "move" in parts else None
        gnugo = bench.gnugo() if "gnugo" in parts and args.gnugo_games > 0 \
            and os.path.exists(GNUGO) else {}
        profile = bench.profile(ours) if args.profile else None
    finally:
        shutil.rmtree(bench.tmp, ignore_errors=True)

    have_gomill = gomill is not None
    print(f"ringmaster vs Gomill 0.8.3: 9x9 playoff, fast_engine games of {args.moves}+2 moves "
          f"(engine interpreter {os.path.basename(args.engine_python)}), "
          f"median of {args.repeat} interleaved runs")
    print(f"python {sys.version.split()[0]} (ours), cpus {os.cpu_count()}")
    head = f"{'measure':<38}{'ours':>10}" + (f"{'gomill':>10}{'ratio':>8}" if have_gomill else "")
    print(head)
    print("-" * len(head))

    def row(name: str, ours_v, gomill_v, digits: int = 2, higher_is_better: bool = True):
        line = f"{name:<38}{fmt(ours_v, digits):>10}"
        if have_gomill:
            ratio = None
            if ours_v and gomill_v:
                ratio = ours_v / gomill_v if higher_is_better else gomill_v / ours_v
            line += f"{fmt(gomill_v, digits):>10}{fmt(ratio, 2) + 'x':>8}"
        print(line)

    for mode, name in ((None, "games/s, no -j (in-process)"), (1, "games/s, -j 1"),
                       (2, "games/s, -j 2")):
        if gps:
            row(f"{name} [{args.games} games]", gps.get(("ringmaster", mode)),
                gps.get(("gomill", mode)))
    if per_move:
        row("wall ms/move, in-process (upper bound)", per_move.get("ringmaster"),
            per_move.get("gomill"), 3, higher_is_better=False)
        row("  engines' own ms/move (replayed)", engine_ms, engine_ms if have_gomill else None, 3,
            higher_is_better=False)
        over = {k: v - engine_ms for k, v in per_move.items()}
        row("overhead ms/move (wall - engines)", over.get("ringmaster"), over.get("gomill"), 3,
            higher_is_better=False)
    for label_key, name in ((0, "gnugo L0 games/s, in-process"),
                            (1, "gnugo L0 wall ms/move, in-process")):
        if gnugo:
            row(f"{name} [{args.gnugo_games} games]",
                gnugo.get("ringmaster", (None, None))[label_key],
                gnugo.get("gomill", (None, None))[label_key] if have_gomill else None,
                3, higher_is_better=(label_key == 0))
    if have_gomill:
        print("ratio: ours/gomill for games/s, gomill/ours for ms/move (above 1: ours is faster)")
    if gps and have_gomill:
        worst = min(gps[("ringmaster", m)] / gps[("gomill", m)] for m in (None, 1, 2))
        print(f"goal >= 2x Gomill games/s: worst ratio {worst:.2f}x -> "
              f"{'met' if worst >= 2 else 'NOT met'}")
    if per_move:
        value = per_move["ringmaster"] - engine_ms
        print(f"goal < 1 ms overhead/move: {value:.3f} ms (wall upper bound "
              f"{per_move['ringmaster']:.3f} ms) -> {'met' if value < 1 else 'NOT met'}")
    if profile:
        print()
        print(profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
