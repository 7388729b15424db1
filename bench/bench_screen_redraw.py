"""What a redraw of the live display costs a playoff as its results grow, against counting them all.

    python bench/bench_screen_redraw.py [--sizes 1000,10000,100000] [--repeats 20]

The live display redraws about every 0.5 s, new result or not. For each size this
bench fills a playoff's matchup with that many results (wins, jigos and games
with no result, CPU times), then times, median of --repeats: its screen report
redrawn with no new result; redrawn after one new result; and, for the scale,
the report's counts made from scratch (compute_stats and unknown_reasons over
every result: what each redraw cost before the counts were kept as results
arrive). It prints each, and the from-scratch count over the idle redraw.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ringmaster.competitions.matchup_stats import compute_stats  # noqa: E402
from ringmaster.control_file import load_control_file  # noqa: E402
from ringmaster.game.result import GameResult, unknown_reasons  # noqa: E402

CONTROL_FILE = """competition_type = 'playoff'
players = {'a': Player('a'), 'b': Player('b')}
board_size = 9
komi = 7.5
matchups = [Matchup('a', 'b', alternating=True)]
"""


def result(number: int) -> GameResult:
    """Game `number`: colours alternating; mostly wins, some jigos, some with no result."""
    b, w = ("a", "b") if number % 2 == 0 else ("b", "a")
    kind = number % 10
    colour, sgf = (None, "0") if kind == 0 else (None, "?") if kind == 1 else \
        ("b" if kind % 2 else "w", "B+3.5" if kind % 2 else "W+0.5")
    return GameResult(f"0_{number}", b, w, colour, sgf, detail="no score reported" if kind == 1 else None,
                      cpu_times={b: 0.5 + kind / 10, w: 0.25})


def median_seconds(action, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(path: str, size: int, repeats: int) -> tuple[float, float, float]:
    """(idle redraw, redraw after a new result, count from scratch) seconds, a playoff of size results."""
    comp = load_control_file(path).make_competition()
    comp.set_clean_status()
    results = comp.results["0"]
    results.extend(result(n) for n in range(size))

    def redraw() -> None:
        comp.write_screen_report(io.StringIO())

    def new_result_and_redraw() -> None:
        results.append(result(len(results)))
        redraw()

    redraw()   # the first: counts every result once
    idle = median_seconds(redraw, repeats)
    after = median_seconds(new_result_and_redraw, repeats)
    scratch = median_seconds(lambda: (compute_stats(results, "a", "b"), unknown_reasons(results)),
                             max(3, repeats // 4))
    return idle, after, scratch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="results in the matchup (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=20, help="timings per figure (default: %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "redraw.ctl")
        with open(path, "w", encoding="utf-8") as f:
            f.write(CONTROL_FILE)
        print(f"{'results':>8}  {'idle redraw ms':>14}  {'after a result ms':>17}  {'from scratch ms':>15}  "
              f"{'scratch/idle':>12}")
        for size in (int(s) for s in args.sizes.split(",")):
            idle, after, scratch = measure(path, size, args.repeats)
            print(f"{size:>8}  {idle * 1e3:>14.3f}  {after * 1e3:>17.3f}  {scratch * 1e3:>15.1f}  "
                  f"{scratch / idle:>12.0f}")


if __name__ == "__main__":
    main()
