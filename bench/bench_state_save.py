#!/usr/bin/env python3
"""What saving the state costs as a run grows: ours now, and an earlier commit beside it.

The ringmaster saves the state after every result, and the state holds
every game played. Rewriting FILE.status whole (atomically, with its fsyncs)
at each save cost more as the run grew, even with each game's record
encoded once (state.encoding.EncodedList): 1.6 / 7.5 / 23.2 ms a save at 200 /
2,000 / 10,000 games on this project's 2-core machine (12.8 / 76.9 / 367.5
ms before that, at 6f033fc). Now a save appends a line to FILE.journal
(state.journal.StateStore), and the whole state is written only when the
journal outgrows it and when the run ends.

This bench records N simulated results in a playoff (no engines: the
results are made up), in a fresh process for each tree. At each size in
--sizes it makes one untimed save (a run's first), then --repeat times
records one more result and times the save after it (median): what a run
pays a game. 'whole' is, for a tree with a journal, the end of a run at that
size (the state read back from FILE.status and FILE.journal and written
whole to FILE.status, once a run); for a tree without one, a save, which
wrote the whole state every time.

    python bench/bench_state_save.py --sizes 200,2000,10000
    git worktree add /tmp/before COMMIT
    python bench/bench_state_save.py --before /tmp/before

Runs in a temporary directory on the disk of --dir (default: the system's).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Run in a fresh interpreter with PYTHONPATH set to the tree measured.
MEASURE = r"""
import json, os, sys, time
from ringmaster.game.job import GameJobResult
from ringmaster.game.result import GameResult
from ringmaster.run.ringmaster import Ringmaster

directory, sizes, repeat = sys.argv[1], [int(n) for n in sys.argv[2].split(",")], int(sys.argv[3])
ctl = os.path.join(directory, "bench.ctl")
with open(ctl, "w") as f:
    f.write("competition_type = 'playoff'\n"
            "players = {'p1': Player('p1'), 'p2': Player('p2')}\n"
            "board_size = 9\nkomi = 7.5\n"
            f"matchups = [Matchup('p1', 'p2', alternating=True, number_of_games={max(sizes) + repeat})]\n")
ringmaster = Ringmaster(ctl)
ringmaster.open_log()
ringmaster.load_state()
ringmaster.save_state = lambda: None   # recording the results: not timed, not saved
ringmaster.reports.write_html_if_due = lambda: None   # nor FILE.html
journaled = hasattr(ringmaster, "state_store")
played = 0
out = {}


def one_more_result() -> None:
    global played
    job = ringmaster.get_job()
    codes = job.player_b.code, job.player_w.code
    result = GameResult(job.game_id, codes[0], codes[1], "b", "B+3.5",
                        cpu_times={codes[0]: 0.5, codes[1]: 0.25})
    ringmaster.process_response(GameJobResult(
        game_id=job.game_id, game_data=job.game_data, game_result=result,
        engine_names={}, engine_descriptions={}, warnings=[], moves=150))
    played += 1


for size in sizes:
    while played < size:
        one_more_result()
    del ringmaster.save_state
    ringmaster.save_state()   # untimed: a run's first save (which begins the journal)
    saves = []
    for _ in range(repeat):
        ringmaster.save_state = lambda: None
        one_more_result()
        del ringmaster.save_state
        start = time.perf_counter()
        ringmaster.save_state()
        saves.append(time.perf_counter() - start)
    start = time.perf_counter()
    if journaled:
        ringmaster.close_state()   # the journal folded into FILE.status
    else:
        ringmaster.save_state()    # every save wrote the whole state
    whole = time.perf_counter() - start
    ringmaster.save_state = lambda: None
    out[size] = {"save": saves, "whole": whole,
                 "status_bytes": os.path.getsize(ringmaster.paths.status)}
import ringmaster as package
out["tree"] = os.path.dirname(os.path.dirname(os.path.abspath(package.__file__)))
print(json.dumps(out))
"""


def measure(tree: str, sizes: str, repeat: int, parent: str | None) -> dict:
    directory = tempfile.mkdtemp(prefix="bench_state_", dir=parent)
    try:
        env = dict(os.environ, PYTHONPATH=tree)
        # Run in the temporary directory: with -c, the current directory comes first on
        # sys.path, and from a checkout it would shadow the tree in PYTHONPATH.
        out = subprocess.run([sys.executable, "-c", MEASURE, directory, sizes, str(repeat)],
                             env=env, capture_output=True, text=True, cwd=directory)
        if out.returncode != 0:
            raise SystemExit(f"measuring {tree} failed:\n{out.stderr[-2000:]}")
        figures = json.loads(out.stdout)
        if os.path.realpath(figures.pop("tree")) != os.path.realpath(tree):
            raise SystemExit(f"the code measured for {tree} came from elsewhere")
        return {int(k): v for k, v in figures.items()}
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="200,2000,10000", help="games in the state (comma-separated)")
    parser.add_argument("--repeat", type=int, default=5, help="saves timed at each size (median)")
    parser.add_argument("--before", default=None, help="a checkout of an earlier commit, timed too")
    parser.add_argument("--dir", default=None, help="where the temporary competition goes")
    args = parser.parse_args(argv)
    trees = [("now", os.path.dirname(HERE))]
    if args.before:
        trees.append(("before", os.path.abspath(args.before)))
    results = {label: measure(tree, args.sizes, args.repeat, args.dir) for label, tree in trees}
    load = os.getloadavg()[0]
    print(f"state save (ms, median of {args.repeat}); load average {load:.2f}")
    head = f"{'games':>8}{'state MB':>9}" + "".join(
        f"{label + ' save':>13}{label + ' whole':>14}" for label, _ in trees)
    if args.before:
        head += f"{'save before/now':>17}"
    print(head)
    for size in sorted(results["now"]):
        row = f"{size:>8}{results['now'][size]['status_bytes'] / 1e6:>9.2f}"
        medians = {}
        for label, _ in trees:
            figures = results[label][size]
            medians[label] = statistics.median(figures["save"])
            row += f"{1000 * medians[label]:>13.2f}{1000 * figures['whole']:>14.1f}"
        if args.before:
            row += f"{medians['before'] / medians['now']:>16.1f}x"
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
