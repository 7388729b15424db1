"""What the reports cost on a large state: FILE.html's render, `report` and `show --json`.

    python bench/bench_reports.py DIR [DIR...]

Each DIR holds a competition's X.ctl and X.status (and X.hist), such as a long run's. The
files are copied to a temporary directory, so that DIR is not written. For each it prints
one JSON line: the games in the state; in one process after load_state, the CPU seconds of
RunReports.json() and of one rewrite of FILE.html (what blocks the ringmaster while it runs;
the best of three), and the page's size; and for `ringmaster report` and `ringmaster show
--json` in fresh processes, their CPU seconds (user and system), wall-clock seconds and peak
RSS (GNU time's %M). CPU time, because on a shared machine the wall clock is the load's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

MEASURE = """
import json, os, sys, time
from ringmaster.run.ringmaster import Ringmaster
rm = Ringmaster(sys.argv[1])
rm.load_state(required=True)
row = {"games": len(rm.game_index)}
for name, call in (("json_cpu_s", rm.reports.json), ("html_cpu_s", rm.reports.write_html)):
    took = []
    for _ in range(3):
        started = time.process_time()
        call()
        took.append(time.process_time() - started)
    row[name] = round(min(took), 3)
row["html_MB"] = round(os.path.getsize(rm.paths.html) / 1e6, 2)
print(json.dumps(row))
"""


def timed(command: list[str], cwd: str) -> tuple[float, float, float]:
    """CPU seconds, wall-clock seconds and peak RSS in MB of a command, by GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%U %S %e %M", *command], cwd=cwd, check=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    user, system, wall, rss_kb = out.stderr.strip().splitlines()[-1].split()
    return round(float(user) + float(system), 2), float(wall), round(int(rss_kb) / 1024)


def measure(directory: str) -> dict[str, object]:
    """The figures for one state directory (see the module's docstring)."""
    ctl = next(name for name in os.listdir(directory) if name.endswith(".ctl"))
    stem = ctl.removesuffix(".ctl")
    with tempfile.TemporaryDirectory() as work:
        for suffix in (".ctl", ".status", ".hist", ".journal"):
            if os.path.exists(os.path.join(directory, stem + suffix)):
                shutil.copy(os.path.join(directory, stem + suffix), work)
        out = subprocess.run([sys.executable, "-c", MEASURE, ctl], cwd=work, check=True,
                             capture_output=True, text=True)
        row = {"state": directory, **json.loads(out.stdout)}
        for name, command in (("report", ["report", ctl]), ("show_json", ["show", ctl, "--json"])):
            row[f"{name}_cpu_s"], row[f"{name}_s"], row[f"{name}_MB"] = timed(
                [sys.executable, "-m", "ringmaster", *command], work)
    return row


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", metavar="DIR",
                        help="a directory holding a competition's X.ctl and X.status (and X.hist)")
    for state in parser.parse_args().dirs:
        started = time.perf_counter()
        row = measure(os.path.abspath(state))
        print(json.dumps({**row, "bench_s": round(time.perf_counter() - started)}), flush=True)
