"""Playouts per second on an empty 9x9 board: ours (light, heavy), naive baselines and Pachi, side by side.

Usage: python bench/bench_playouts.py [--seconds S] [--pachi PATH]   (or PACHI=PATH)

Every figure comes from this one run on this machine, so the ratios hold
even when the machine is shared. Pachi is measured through GTP: the time of
one genmove at a fixed playout count (-t =N, threads=1), with and without
playout=light; our search is measured the same way through our engine's
search. Pachi is not packaged here; build it from its public source and
pass the binary.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time

import numpy as np
from numba import njit

from players.engines.go_uct import patterns, playout
from players.engines.go_uct.rng import new_rng_state
from players.engines.go_uct.search import SearchConfig, make_searcher
from players.engines.go_uct.uct import UctParams
from players.games import go_board
from players.games.go import GoGame

SIZE = 9
KOMI = 7.5


def python_playout(size: int, rng: random.Random) -> int:
    """A naive pure-Python light playout (lists, flood fills); returns the area score."""
    board = [[0] * size for _ in range(size)]

    def neighbours(r, c):
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < size and 0 <= cc < size:
                yield rr, cc

    def group(r, c):
        colour = board[r][c]
        stones, liberties, todo = {(r, c)}, set(), [(r, c)]
        while todo:
            p = todo.pop()
            for q in neighbours(*p):
                v = board[q[0]][q[1]]
                if v == 0:
                    liberties.add(q)
                elif v == colour and q not in stones:
                    stones.add(q)
                    todo.append(q)
        return stones, liberties

    def try_play(r, c, colour):
        board[r][c] = colour
        captured = []
        for q in neighbours(r, c):
            if board[q[0]][q[1]] == 3 - colour:
                stones, libs = group(*q)
                if not libs:
                    captured.extend(stones)
        for q in captured:
            board[q[0]][q[1]] = 0
        if not captured and not group(r, c)[1]:
            board[r][c] = 0
            return False, None
        ko = captured[0] if len(captured) == 1 and len(group(r, c)[0]) == 1 else None
        return True, ko

    colour, passes, ko, moves = 1, 0, None, 0
    while passes < 2 and moves < 3 * size * size:
        empties = [(r, c) for r in range(size) for c in range(size) if board[r][c] == 0]
        rng.shuffle(empties)
        played = False
        for r, c in empties:
            if (r, c) == ko or all(board[q[0]][q[1]] == colour for q in neighbours(r, c)):
                continue
            ok, new_ko = try_play(r, c, colour)
            if ok:
                played, ko = True, new_ko
                break
        passes = 0 if played else passes + 1
        if not played:
            ko = None
        colour = 3 - colour
        moves += 1
    score = 0
    for r in range(size):
        for c in range(size):
            v = board[r][c]
            if v == 0:
                seen = {board[q[0]][q[1]] for q in neighbours(r, c)} - {0}
                v = seen.pop() if len(seen) == 1 else 0
            score += 1 if v == 1 else -1 if v == 2 else 0
    return score


@njit(cache=True)
def naive_numba_playouts(board_in, n, count, seed):
    """A naive numba light playout: flood-fill captures and legality, no incremental groups."""
    np.random.seed(seed)
    total = 0
    candidates = np.empty(n * n, dtype=np.int64)
    for _ in range(count):
        board = board_in.copy()
        colour, passes, ko, moves = 1, 0, -1, 0
        while passes < 2 and moves < 3 * n * n:
            k = 0
            for a in range(n * n):
                p = go_board.point_of(n, a)
                if board[p] == go_board.EMPTY and p != ko:
                    candidates[k] = p
                    k += 1
            played = -1
            while k > 0:
                i = np.random.randint(k)
                p = candidates[i]
                candidates[i] = candidates[k - 1]
                k -= 1
                if go_board.is_own_eye(board, n, p, colour):
                    continue
                if go_board.is_suicide(board, n, p, colour):
                    continue
                played = p
                break
            if played < 0:
                passes += 1
                ko = -1
            else:
                passes = 0
                ko = go_board.play_point(board, n, played, colour)
            colour = 3 - colour
            moves += 1
        total += go_board.area_score(board, n)
    return total


def rate(run, seconds: float) -> float:
    """Playouts per second of run(k) -> k done, repeated for about `seconds`."""
    run(1)  # compile / warm up
    done, start = 0, time.perf_counter()
    batch = 1
    while time.perf_counter() - start < seconds:
        done += run(batch)
        batch = min(batch * 2, 4096)
    return done / (time.perf_counter() - start)


def ours(heavy: bool, seconds: float) -> float:
    board = GoGame(SIZE).initial_state().board
    table = patterns.default_table()
    rng = new_rng_state(1)

    def run(k):
        playout.playout_many(board, SIZE, go_board.BLACK, -1, -1, 0, 3 * SIZE * SIZE,
                             heavy, table, rng, k, KOMI)
        return k
    return rate(run, seconds)


def our_search(heavy: bool, playouts: int, **options: bool) -> float:
    """Playouts per second of our fast engine's search (tree + playouts) from the empty board;
    options are UctParams switches (lgrf, ladders, ladder_chase)."""
    game = GoGame(SIZE, KOMI)
    searcher = make_searcher(game, SearchConfig(engine="fast", seed=1,
                                                uct=UctParams(heavy=heavy, **options)))
    state = game.initial_state()
    searcher.search(state, 200)
    start = time.perf_counter()
    searcher.search(state, playouts)
    elapsed = time.perf_counter() - start
    searcher.close()
    return playouts / elapsed


def pachi(binary: str, playouts: int, light: bool) -> float | None:
    """Playouts per second of one Pachi genmove at a fixed playout count, one thread."""
    args = "threads=1,pondering=0" + (",playout=light" if light else "")
    command = [binary, "-t", f"={playouts}", "--nodcnn", args]
    try:
        proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError as exc:
        print(f"  (could not start Pachi: {exc})")
        return None

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        response = []
        while True:
            text = proc.stdout.readline()
            if not text:
                raise RuntimeError("Pachi exited")
            if text.strip() == "" and response:
                return response
            if text.strip():
                response.append(text.strip())

    try:
        send(f"boardsize {SIZE}")
        send("clear_board")
        send(f"komi {KOMI}")
        start = time.perf_counter()
        send("genmove b")
        elapsed = time.perf_counter() - start
        send("quit")
    finally:
        proc.kill()
    return playouts / elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--playouts", type=int, default=20000,
                        help="playouts per genmove for the search measurements")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds; each round measures every row once, in turn")
    parser.add_argument("--pachi", default=os.environ.get("PACHI"),
                        help="path to a Pachi binary (or set PACHI)")
    options = parser.parse_args(argv)
    s, k = options.seconds, options.playouts
    board = GoGame(SIZE).initial_state().board
    rng = random.Random(1)
    rows = [
        ("ours, light playout (numba, incremental groups)", lambda: ours(False, s)),
        ("ours, heavy playout (captures, atari escape, 3x3 patterns)", lambda: ours(True, s)),
        ("naive numba playout (flood fills)",
         lambda: rate(lambda n: (naive_numba_playouts(board, SIZE, n, 1), n)[1], s)),
        ("naive pure-Python playout",
         lambda: rate(lambda n: sum(1 for _ in range(n) if python_playout(SIZE, rng) or 1), s)),
        (f"ours, search light, {k} playouts (tree + playouts)", lambda: our_search(False, k)),
        (f"ours, search heavy, {k} playouts (tree + playouts, ladders read)",
         lambda: our_search(True, k)),
        (f"ours, search heavy without ladder reading (--no-ladders), {k} playouts",
         lambda: our_search(True, k, ladders=False)),
        (f"ours, search heavy + LGRF-1 (--lgrf), {k} playouts",
         lambda: our_search(True, k, lgrf=True)),
        (f"ours, search heavy + ladder chase (--ladder-chase), {k} playouts",
         lambda: our_search(True, k, ladder_chase=True)),
    ]
    if options.pachi:
        rows.append((f"Pachi -t ={k} threads=1, playout=light",
                     lambda: pachi(options.pachi, k, True)))
        rows.append((f"Pachi -t ={k} threads=1 (moggy playouts)",
                     lambda: pachi(options.pachi, k, False)))
    else:
        print("(no Pachi binary given: pass --pachi PATH or set PACHI)")
    results: list[list[float]] = [[] for _ in rows]
    for _ in range(options.repeats):
        for i, (_, measure) in enumerate(rows):
            value = measure()
            if value is not None:
                results[i].append(value)
    medians = [float(np.median(r)) if r else float("nan") for r in results]
    light = medians[0]
    print(f"Playouts per second, empty {SIZE}x{SIZE}, one thread, median of "
          f"{options.repeats} interleaved rounds in this run (load average "
          f"{os.getloadavg()[0]:.1f} at the end, {os.cpu_count()} CPUs):")
    for (label, _), value, values in zip(rows, medians, results):
        spread = f"[{min(values):.0f}-{max(values):.0f}]" if values else ""
        print(f"  {label:72s} {value:8.0f} {spread:>15s}   {value / light:5.2f} x ours light")
    return 0


if __name__ == "__main__":
    sys.exit(main())
