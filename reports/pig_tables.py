"""Tables for the Pig reports from JSON records: each agent's rate first, second and overall, and z-tests.

Usage: python reports/pig_tables.py FILE.games [--opponent hold20]

Every agent that played the opponent gets a row: its win rate moving first
(black), moving second (white) and overall, each with its 95% Wilson
interval, over the games with a result (games that hit the turn limit are
counted apart); then every pair of agents gets a two-proportion z-test of
their overall rates (pooled standard error, two-sided p-value).
"""

from __future__ import annotations

import argparse
import glob
import itertools
import json
import os
from collections import defaultdict

from ringmaster.stats.win_rates import two_proportion_z_test, wilson_interval


def tally(directory: str, opponent: str) -> dict[str, dict[str, list[int]]]:
    """{agent: {'first': [wins, games], 'second': [...], 'void': [count, 0]}} from the records."""
    counts: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {"first": [0, 0], "second": [0, 0], "void": [0, 0]})
    for path in glob.glob(os.path.join(directory, "*.json")):
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        black, white = record["black"], record["white"]
        if opponent not in (black, white) or black == white:
            continue
        agent, seat = (black, "first") if white == opponent else (white, "second")
        winner = record.get("winner")
        if winner is None:
            counts[agent]["void"][0] += 1
            continue
        counts[agent][seat][1] += 1
        if (winner == "b") == (seat == "first"):
            counts[agent][seat][0] += 1
    return counts


def rate(wins: int, games: int) -> str:
    if games == 0:
        return "--"
    low, high = wilson_interval(wins, games)
    return f"{100 * wins / games:.1f}% [{100 * low:.1f}, {100 * high:.1f}] ({wins}/{games})"


def tables(counts: dict[str, dict[str, list[int]]], opponent: str) -> str:
    lines = [f"| agent | first (vs {opponent}) | second | overall | no result |",
             "| --- | --- | --- | --- | --- |"]
    overall = {}
    for agent in sorted(counts):
        c = counts[agent]
        wins = c["first"][0] + c["second"][0]
        games = c["first"][1] + c["second"][1]
        overall[agent] = (wins, games)
        lines.append(f"| {agent} | {rate(*c['first'])} | {rate(*c['second'])} | {rate(wins, games)} "
                     f"| {c['void'][0]} |")
    lines += ["", "| pair | difference | z | p (two-sided) |", "| --- | --- | --- | --- |"]
    for a, b in itertools.combinations(sorted(overall), 2):
        (wa, na), (wb, nb) = overall[a], overall[b]
        try:
            z, p = two_proportion_z_test(wa, na, wb, nb)
        except ValueError:
            continue
        lines.append(f"| {a} - {b} | {100 * (wa / na - wb / nb):+.1f} points | {z:+.2f} | {p:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="a competition's FILE.games directory")
    parser.add_argument("--opponent", default="hold20")
    options = parser.parse_args()
    print(tables(tally(options.games, options.opponent), options.opponent))


if __name__ == "__main__":
    main()
