"""Run one bench script in two commits' trees alternately and print each figure's head/base ratio.

    python bench/compare_commits.py --base REV [--head REV] [--rounds 3] [--warmup]
        [--metric REGEX ...] [--base-script PATH] [--json PATH] [--timeout S]
        -- bench/bench_selfplay.py --simulations 32 --games 16

The base tree is a temporary `git worktree add --detach` of --base, removed at
the end (also on Ctrl-C or an error). The head tree is, by default, the
checkout this script lives in, uncommitted changes included; --head REV makes
a second temporary worktree instead. Each tree runs its OWN copy of the bench
script (`python SCRIPT ARGS` with the same interpreter, cwd = the tree and
PYTHONPATH = the tree, so `import players` and `import ringmaster` resolve to
that tree's code, not to the editable install); --base-script gives the
script's path in the base tree when it moved. Runs alternate base, head,
base, head, ... so that the load of a shared machine drifts over both alike.

Every number on a line of a run's stdout is a figure. A line is identified by
its text with the numbers taken out (and, if that text repeats, by which
occurrence it is), so the trees' lines match even when their numbers differ;
a figure by its place on the line. Its label is the line with the figure
shown as '{#}', the numbers that were the same in every run as printed, and
the others as '#'. --metric REGEX (repeatable) keeps only lines that match;
a capture group in the regex makes that group the line's one figure. The wall
time of each whole run is a figure too. Lines whose numbers are the same in
every run of both trees (settings the bench echoes) are left out of the table.
Per figure it prints the base and head medians, head/base of the medians and
the range of the per-round paired ratios head/base; figures that only one
tree printed are listed apart. --json PATH writes the same data.

A run that fails stops the comparison with exit status 1, naming the tree and
showing the end of its stderr.

The first round includes numba's compilation (each tree has its own cache)
and torch's start-up, unless --warmup runs each tree once, unmeasured, first.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

# A sign counts only where it is not a dash after a word or number ("[9812-9950]").
NUMBER = re.compile(r"(?:(?<![\w.])[-+])?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
MARK = "{#}"
WALL_KEY: tuple[tuple[str, ...], int] = (("wall time of the whole run: ", " s"), 1)
SIDES = ("base", "head")


class CompareError(Exception):
    """A failure reported to the user as one line (plus optional detail lines)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


@dataclass
class Tree:
    """One side of the comparison: where its code is and how to run its script."""

    side: str
    path: Path
    commit: str
    script: str


@dataclass
class Figure:
    """One figure's values: one list per side, one value per measured round (None: not printed)."""

    label: str
    line: str
    values: dict[str, list[float | None]] = field(default_factory=lambda: {s: [] for s in SIDES})


# --- git -------------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    """Run a git command in repo and return its stripped stdout; raise CompareError on failure."""
    result = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if result.returncode != 0:
        why = (result.stderr.strip().splitlines() or [f"exit status {result.returncode}"])[-1]
        raise CompareError(f"git {' '.join(args)} failed: {why}")
    return result.stdout.strip()


def resolve_commit(repo: Path, rev: str) -> str:
    """The full commit id that rev names."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except CompareError:
        raise CompareError(f"{rev!r} names no commit in {repo}") from None


def working_tree_id(repo: Path) -> str:
    """HEAD's commit id, with '+uncommitted' when the working tree differs from it."""
    commit = git(repo, "rev-parse", "HEAD")
    dirty = git(repo, "status", "--porcelain", "--untracked-files=no")
    return commit + ("+uncommitted" if dirty else "")


def add_worktree(repo: Path, commit: str, path: Path) -> None:
    """Check out commit, detached, as a new worktree at path."""
    git(repo, "worktree", "add", "--detach", str(path), commit)


def remove_worktree(repo: Path, path: Path) -> None:
    """Remove a worktree made by add_worktree, whatever state it is in; never raises."""
    subprocess.run(["git", "-C", str(repo), "worktree", "remove", "--force", str(path)],
                   capture_output=True)
    shutil.rmtree(path, ignore_errors=True)
    subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)


@contextmanager
def trees(repo: Path, options: argparse.Namespace) -> Iterator[dict[str, Tree]]:
    """The base and head trees, temporary worktrees made on entry and removed on exit."""
    base_commit = resolve_commit(repo, options.base)
    head_commit = resolve_commit(repo, options.head) if options.head else None
    tmp = Path(tempfile.mkdtemp(prefix="compare_commits."))
    made: list[Path] = []
    try:
        result = {}
        base_path = tmp / "base"
        made.append(base_path)
        add_worktree(repo, base_commit, base_path)
        result["base"] = Tree("base", base_path, base_commit, options.base_script or options.script)
        if head_commit:
            head_path = tmp / "head"
            made.append(head_path)
            add_worktree(repo, head_commit, head_path)
            result["head"] = Tree("head", head_path, head_commit, options.script)
        else:
            result["head"] = Tree("head", repo, working_tree_id(repo), options.script)
        yield result
    finally:
        for path in made:
            remove_worktree(repo, path)
        shutil.rmtree(tmp, ignore_errors=True)


# --- running ---------------------------------------------------------------


def tree_env(tree: Tree) -> dict[str, str]:
    """The environment for a run in tree: PYTHONPATH is the tree alone."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree.path)
    return env


def check_tree(tree: Tree) -> None:
    """Fail unless the tree has the script and its top-level packages import from the tree."""
    if not (tree.path / tree.script).is_file():
        hint = " (give its path there with --base-script)" if tree.side == "base" else ""
        raise CompareError(f"{tree.side} tree ({tree.commit[:12]}) has no {tree.script}{hint}")
    packages = sorted(p.parent.name for p in tree.path.glob("*/__init__.py"))
    if not packages:
        return
    code = ("import importlib.util, sys\n"
            "for name in sys.argv[1:]:\n"
            "    spec = importlib.util.find_spec(name)\n"
            "    print(name, spec.origin if spec else '?')\n")
    result = subprocess.run([sys.executable, "-c", code, *packages], cwd=tree.path,
                            env=tree_env(tree), capture_output=True, text=True)
    for line in result.stdout.splitlines():
        name, origin = line.split(" ", 1)
        if not Path(origin).resolve().is_relative_to(tree.path.resolve()):
            raise CompareError(f"{tree.side} tree: package {name} imports from {origin}, "
                               f"not from {tree.path}")


def run_bench(tree: Tree, args: list[str], timeout: float | None) -> tuple[str, float]:
    """Run the bench script once in tree; return its stdout and its wall time in seconds."""
    command = [sys.executable, tree.script, *args]
    start = time.perf_counter()
    try:
        result = subprocess.run(command, cwd=tree.path, env=tree_env(tree), capture_output=True,
                                text=True, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        raise CompareError(f"{tree.side} tree ({tree.commit[:12]}): run timed out after "
                           f"{timeout:g}s", tail(exc.stderr)) from None
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        raise CompareError(f"{tree.side} tree ({tree.commit[:12]}, {tree.path}): "
                           f"{shlex.join(command)} exited with status {result.returncode}",
                           tail(result.stderr or result.stdout))
    return result.stdout, seconds


def tail(text: str | bytes | None, lines: int = 12) -> str:
    """The last lines of a process's output, indented."""
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return "\n".join("    " + line for line in (text or "").splitlines()[-lines:])


# --- figures ---------------------------------------------------------------

# A line of output, split around its number slots: (the text between them, whitespace runs
# collapsed, which identifies the line) and which occurrence of that text it is in the run.
LineKey = tuple[tuple[str, ...], int]
# What one run printed on such a line: the number slots' text, and which slots are figures.
Reading = tuple[list[str], list[int]]
# Each side's runs, in order.
Runs = dict[str, list[dict[LineKey, Reading]]]


def tokenize(text: str) -> tuple[list[str], list[str]]:
    """The text between numbers (one more than the numbers) and the numbers themselves."""
    pieces, numbers, pos = [], [], 0
    for m in NUMBER.finditer(text):
        pieces.append(text[pos:m.start()])
        numbers.append(m.group())
        pos = m.end()
    pieces.append(text[pos:])
    return [re.sub(r"\s+", " ", piece) for piece in pieces], numbers


def split_line(line: str,
               metrics: list[re.Pattern[str]]) -> tuple[list[str], list[str], list[int]] | None:
    """A line's pieces, numbers and figure slots; None if --metric leaves the line out."""
    pattern_match = next((m for m in (p.search(line) for p in metrics) if m), None)
    if metrics and pattern_match is None:
        return None
    if pattern_match is None or not pattern_match.re.groups or pattern_match.group(1) is None:
        pieces, numbers = tokenize(line)
        return pieces, numbers, list(range(len(numbers)))
    start, end = pattern_match.span(1)
    value = NUMBER.search(pattern_match.group(1))
    if value is None:
        raise CompareError(f"--metric group matched {pattern_match.group(1)!r}, not a number")
    before, before_numbers = tokenize(line[:start])
    after, after_numbers = tokenize(line[end:])
    return before + after, before_numbers + [value.group()] + after_numbers, [len(before_numbers)]


def parse_output(stdout: str, metrics: list[re.Pattern[str]]) -> dict[LineKey, Reading]:
    """The readings of one run, by line."""
    readings: dict[LineKey, Reading] = {}
    seen: dict[tuple[str, ...], int] = {}
    for line in stdout.splitlines():
        split = split_line(line, metrics)
        if split is None or not split[2]:
            continue
        pieces, numbers, chosen = split
        text = tuple(pieces)
        seen[text] = seen.get(text, 0) + 1
        readings[(text, seen[text])] = (numbers, chosen)
    return readings


def label(key: LineKey, slot: int, readings: list[Reading]) -> str:
    """The line: the figure's slot as MARK, numbers the same in every run as printed, others '#'."""
    pieces = key[0]
    parts = [pieces[0]]
    for i in range(len(pieces) - 1):
        printed = {numbers[i] for numbers, _ in readings}
        parts.append(MARK if i == slot else printed.pop() if len(printed) == 1 else "#")
        parts.append(pieces[i + 1])
    return "".join(parts).strip()


def collect(runs: Runs) -> list[Figure]:
    """One Figure per figure slot of each line, in first-seen order; None where a run lacked it."""
    keys: dict[LineKey, None] = {}
    for side in SIDES:
        for run in runs[side]:
            keys.update(dict.fromkeys(run))
    figures, labels = [], {}
    for key in keys:
        readings = [run[key] for side in SIDES for run in runs[side] if key in run]
        for slot in readings[0][1]:
            name = label(key, slot, readings)
            labels[name] = labels.get(name, 0) + 1
            figure = Figure(name if labels[name] == 1 else f"{name} ({labels[name]})",
                            label(key, -1, readings))
            for side in SIDES:
                figure.values[side] = [float(run[key][0][slot]) if key in run else None
                                       for run in runs[side]]
            figures.append(figure)
    return figures


# --- summary ---------------------------------------------------------------


def ratio(head: float | None, base: float | None) -> float | None:
    """head / base, or None when it is undefined."""
    if head is None or base is None or base == 0:
        return None
    return head / base


def summarize(figure: Figure) -> dict[str, object]:
    """Medians, ratio of medians and the range of paired per-round ratios of one figure."""
    base = [v for v in figure.values["base"] if v is not None]
    head = [v for v in figure.values["head"] if v is not None]
    base_median = statistics.median(base) if base else None
    head_median = statistics.median(head) if head else None
    paired = [r for r in map(ratio, figure.values["head"], figure.values["base"]) if r is not None]
    return {
        "label": figure.label,
        "base": figure.values["base"],
        "head": figure.values["head"],
        "base_median": base_median,
        "head_median": head_median,
        "ratio": ratio(head_median, base_median),
        "paired_min": min(paired) if paired else None,
        "paired_max": max(paired) if paired else None,
    }


def is_constant(figure: Figure) -> bool:
    """Whether the figure is one number in every run of both trees (a setting, not a result)."""
    values = figure.values["base"] + figure.values["head"]
    return None not in values and len(set(values)) == 1


def fmt(value: float | None) -> str:
    """A figure for the table: whole from 1000 up, else 4 significant digits; '-' when missing."""
    if value is None or math.isnan(value):
        return "-"
    return f"{value:.0f}" if abs(value) >= 1000 else f"{value:.4g}"


def fmt_ratio(value: float | None) -> str:
    """A ratio for the table, or '-' when undefined."""
    return "-" if value is None else f"{value:.3f}"


def report_text(report: dict[str, object]) -> str:
    """The human-readable report."""
    out = [f"command: {report['command']}"]
    for side in SIDES:
        info = report["trees"][side]
        out.append(f"{side}: {info['commit']}  ({info['rev']}; script {info['script']})")
    out.append(f"rounds: {report['rounds']} per tree, interleaved base/head"
               + (", after one unmeasured warm-up run each" if report["warmup"] else
                  " (round 1 includes compilation)"))
    out.append("load average (1, 5, 15 min): start {} end {}".format(
        *(" ".join(f"{x:.2f}" for x in report[k]) for k in ("load_start", "load_end"))))
    out.append("")
    out.append(f"{'base':>10} {'head':>10}  {'head/base':>9}  {'paired':>13}  "
               "figure (medians of the rounds; paired: min..max of head/base per round)")
    for s in report["figures"]:
        paired = fmt_ratio(s["paired_min"]) + ".." + fmt_ratio(s["paired_max"])
        out.append(f"{fmt(s['base_median']):>10} {fmt(s['head_median']):>10}  "
                   f"{fmt_ratio(s['ratio']):>9}  {paired:>13}  {s['label']}")
    for side, other in (("base", "head"), ("head", "base")):
        only = [s["label"] for s in report["unmatched"] if s[f"{other}_median"] is None
                and s[f"{side}_median"] is not None]
        if only:
            out.append(f"\nonly in {side} (unmatched):")
            out.extend(f"  {label}" for label in only)
    if report["constant"]:
        out.append("\nlines with the same numbers in every run (settings), left out:")
        out.extend(f"  {line}" for line in report["constant"])
    return "\n".join(out)


# --- main ------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Options before '--'; the bench script and its arguments after it."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        usage="%(prog)s --base REV [options] -- SCRIPT [ARGS...]")
    parser.add_argument("--base", required=True, help="revision for the base tree")
    parser.add_argument("--head", default=None,
                        help="revision for the head tree (default: this checkout, as it is now)")
    parser.add_argument("--rounds", type=int, default=3, help="measured runs per tree")
    parser.add_argument("--warmup", action="store_true",
                        help="run each tree once, unmeasured, first (numba compilation)")
    parser.add_argument("--metric", action="append", default=[], metavar="REGEX",
                        help="keep only lines matching; a capture group selects the figure")
    parser.add_argument("--base-script", default=None, metavar="PATH",
                        help="the bench script's path in the base tree, if it differs")
    parser.add_argument("--json", default=None, metavar="PATH", help="also write the report here")
    parser.add_argument("--timeout", type=float, default=None, metavar="S",
                        help="fail if one run takes longer than this")
    ours = argv[:argv.index("--")] if "--" in argv else argv
    if "-h" in ours or "--help" in ours:
        parser.parse_args(["--help"])   # prints the options and exits 0
    if "--" not in argv:
        parser.error("give the bench command after '--'")
    split = argv.index("--")
    options = parser.parse_args(argv[:split])
    if split + 1 >= len(argv):
        parser.error("give the bench script after '--'")
    options.script, options.args = argv[split + 1], argv[split + 2:]
    if options.rounds < 1:
        parser.error("--rounds must be at least 1")
    options.metrics = [re.compile(m) for m in options.metric]
    return options


def measure(sides: dict[str, Tree], options: argparse.Namespace) -> Runs:
    """Run the bench alternately in both trees; return each run's readings, per side."""
    runs: Runs = {s: [] for s in SIDES}
    schedule = [(0, s) for s in SIDES] if options.warmup else []
    schedule += [(r, s) for r in range(1, options.rounds + 1) for s in SIDES]
    for round_number, side in schedule:
        stdout, seconds = run_bench(sides[side], options.args, options.timeout)
        what = "warm-up" if round_number == 0 else f"round {round_number}/{options.rounds}"
        print(f"[{what} {side}: {seconds:.1f}s]", file=sys.stderr, flush=True)
        if round_number:
            readings = parse_output(stdout, options.metrics)
            readings[WALL_KEY] = ([f"{seconds:.3f}"], [0])
            runs[side].append(readings)
    return runs


def build_report(sides: dict[str, Tree], options: argparse.Namespace, load_start: tuple,
                 runs: Runs) -> dict[str, object]:
    """Everything the text and JSON reports show."""
    figures = collect(runs)
    summaries = [summarize(f) for f in figures if not is_constant(f)]
    both = [s["base_median"] is not None and s["head_median"] is not None for s in summaries]
    revs = {"base": options.base, "head": options.head or "working tree"}
    return {
        "command": shlex.join([Path(sys.executable).name, options.script, *options.args]),
        "trees": {side: {"rev": revs[side], "commit": tree.commit, "script": tree.script}
                  for side, tree in sides.items()},
        "rounds": options.rounds,
        "warmup": options.warmup,
        "metrics": options.metric,
        "load_start": list(load_start),
        "load_end": list(os.getloadavg()),
        "figures": [s for s, matched in zip(summaries, both, strict=True) if matched],
        "unmatched": [s for s, matched in zip(summaries, both, strict=True) if not matched],
        "constant": settings_lines(figures),
    }


def settings_lines(figures: list[Figure]) -> list[str]:
    """The lines all of whose figures were the same in every run (settings the bench echoes)."""
    varying = {f.line for f in figures if not is_constant(f)}
    return list(dict.fromkeys(f.line for f in figures if f.line not in varying))


def raise_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C, so that the worktrees are removed."""
    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


def main(argv: list[str] | None = None) -> int:
    """Compare, print the report; the exit status: 0, 1 on a failure, 130 when interrupted."""
    options = parse_args(sys.argv[1:] if argv is None else argv)
    raise_on_sigterm()
    try:
        repo = Path(git(Path(__file__).resolve().parent, "rev-parse", "--show-toplevel"))
        with trees(repo, options) as sides:
            for tree in sides.values():
                check_tree(tree)
            load_start = os.getloadavg()
            runs = measure(sides, options)
            report = build_report(sides, options, load_start, runs)
    except CompareError as exc:
        print(f"compare_commits: {exc}", file=sys.stderr)
        if exc.detail:
            print(exc.detail, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("compare_commits: interrupted; temporary worktrees removed", file=sys.stderr)
        return 130
    print(report_text(report))
    if options.json:
        Path(options.json).write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
