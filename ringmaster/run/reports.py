"""A run's reports from its state: the text report, FILE.report, JSON, CSV, and FILE.html at a steady pace."""

from __future__ import annotations

import io
import math
import os
import time
from collections import Counter
from typing import Any, Protocol

from ringmaster import __version__
from ringmaster.competitions.base import Competition
from ringmaster.files import write_atomically
from ringmaster.run.game_index import (
    DUPLICATE_HINT,
    GameEntry,
    duplicates_in_order,
    duplicates_report,
    game_id_order,
    games_csv,
)
from ringmaster.run.paths import CompetitionPaths
from ringmaster.stats.host_stats import HostComparison, compare_hosts, host_report
from ringmaster.stats.time_use import PlayerTimeUse, time_use, time_use_report
from ringmaster.stats.timing import RunClock, progress, progress_line
from ringmaster.stats.win_rates import json_float

HTML_INTERVAL = 1.0
"""Least seconds between rewrites of FILE.html during a run (0: after every result)."""

HTML_SHARE = 0.05
"""The largest share of the run's time that rewriting FILE.html may take: a page that
took 0.2 s to render waits 4 s for the next rewrite, so a long run's growing report
never slows the games (a small one renders in about 50 ms, so once a second)."""


def finite(value: Any) -> Any:
    """value with every float that isn't finite as json_float gives it ('+inf', '-inf', None
    for NaN): standard JSON (no NaN, no Infinity) for show --json and the page, whatever a
    statistic gave. A dict or list with nothing to change is value itself, not a copy (a
    tuple becomes a list)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else json_float(value)
    if isinstance(value, dict):
        changed = {}
        for key, item in value.items():
            if isinstance(item, (float, dict, list, tuple)):
                new = finite(item)
                if new is not item:
                    changed[key] = new
        return {**value, **changed} if changed else value
    if isinstance(value, (list, tuple)):
        fixed = list(value) if isinstance(value, tuple) else None
        for i, item in enumerate(value):
            if isinstance(item, (float, dict, list, tuple)):
                new = finite(item)
                if new is not item:
                    fixed = list(value) if fixed is None else fixed
                    fixed[i] = new
        return value if fixed is None else fixed
    return value


GAME_NUMBERS = ("seconds", "cpu_black", "cpu_white", "clock_black", "clock_white", "data")
"""The fields of a game's JSON (GameEntry.to_json) that may hold a float: the only ones finite()
looks at, a game at a time, so that the games aren't walked and copied whole."""


def game_json(entry: GameEntry, duplicate_of: str | None, record: str | None) -> dict[str, Any]:
    """One game as show --json gives it: its entry, the game it repeats and its record's path,
    every float finite (see finite)."""
    game = entry.to_json()
    for name in GAME_NUMBERS:
        value = game[name]
        if value is not None and not (type(value) is float and math.isfinite(value)):
            game[name] = finite(value)
    game["duplicate_of"] = duplicate_of
    game["record"] = record
    return game


RECORD_EXTENSIONS = (".sgf", ".json")
"""A game's record: ID.sgf, or a Pig game's ID.json (game/play.py's record_extension)."""


def record_links(entries: list[GameEntry], games: str, void: str) -> dict[int, str | None]:
    """Each entry's record (by id(entry)) as a path relative to the report: 'x.games/0_1.sgf',
    'x.void/0_1_2.sgf' for the second void attempt at 0_1 (game/records.py's
    record_pathname), or None where there is none (record_games = False, a file gone): the
    reports link only records that are there. One listing of each directory."""
    names = {False: _names(games), True: _names(void)}
    attempts: Counter[str] = Counter()
    links: dict[int, str | None] = {}
    for entry in entries:   # in the order the results came in, as the void attempts were written
        stem = entry.game_id
        if entry.is_void:
            attempts[entry.game_id] += 1
            if attempts[entry.game_id] > 1:
                stem = f"{entry.game_id}_{attempts[entry.game_id]}"
        found = [stem + extension for extension in RECORD_EXTENSIONS
                 if stem + extension in names[entry.is_void]]
        folder = os.path.basename(void if entry.is_void else games)
        links[id(entry)] = f"{folder}/{found[0]}" if found else None
    return links


def _names(directory: str) -> set[str]:
    """The names in a directory; none if it can't be listed (not made: no game recorded)."""
    try:
        return set(os.listdir(directory))
    except OSError:
        return set()


class ReportedRun(Protocol):
    """What the reports read of a run (the Ringmaster)."""

    competition: Competition
    paths: CompetitionPaths
    clock: RunClock
    void_game_count: int
    game_index: list[GameEntry]


class RunReports:
    """The reports of one run, read from its state whenever they are asked for.

    FILE.html is rewritten at most once every HTML_INTERVAL seconds while
    results come in, and less often when rendering it is slow (HTML_SHARE).
    """

    def __init__(self, run: ReportedRun) -> None:
        self.run = run
        self.html_due = False              # a result has come in since FILE.html was written
        self._html_written_at = float("-inf")
        self._html_pause = HTML_INTERVAL   # seconds from one rewrite to the next

    def text(self, full: bool) -> str:
        """The text report: the competition's (full: what `show` prints), hosts, void games, progress."""
        run = self.run
        out = io.StringIO()
        if full:
            run.competition.write_full_report(out)
        else:
            run.competition.write_short_report(out)
        clock = time_use_report(self.time_use())
        if clock:
            out.write("\n" + clock)
        hosts = host_report(self.host_comparison())
        if hosts:
            out.write("\n" + hosts)
        duplicates = duplicates_report(run.game_index)
        if duplicates:
            out.write("\n" + duplicates)
        if full and run.void_game_count:
            out.write(f"\n{run.void_game_count} void games; see log file.\n")
        out.write(f"\nprogress: {progress_line(self.progress())}\n")
        return out.getvalue()

    def progress(self) -> dict[str, Any]:
        """Elapsed time, games per hour and ETA (see timing.progress)."""
        competition = self.run.competition
        return progress(competition.games_played(), competition.games_wanted(), self.run.clock)

    def host_comparison(self) -> HostComparison:
        """Results per host, compared (see host_stats)."""
        return compare_hosts((g.host, g.black, g.white, g.winner) for g in self.run.game_index
                             if not g.is_void)

    def time_use(self) -> list[PlayerTimeUse]:
        """Each player's clock over the timed games (see time_use)."""
        sides = []
        for g in self.run.game_index:
            if g.is_void:
                continue
            sides.append((g.black, g.clock_black, g.time_loss and g.winner == g.white))
            sides.append((g.white, g.clock_white, g.time_loss and g.winner == g.black))
        return time_use(sides)

    def json(self) -> dict[str, Any]:
        """Every result and statistic as JSON-able data (show --json, and FILE.html's source)."""
        return self._json()[0]

    def page(self) -> str:
        """FILE.html's text: the JSON report as a page that lists the GAMES_LISTED games that came
        in last (every figure on it counts every game)."""
        from ringmaster.reporting.html import GAMES_LISTED, render_html  # jinja2: only once a result is in
        report, arrival = self._json()
        first = len(arrival) - GAMES_LISTED
        return render_html(report, listed=[place for place, index in enumerate(arrival) if index >= first])

    def _json(self) -> tuple[dict[str, Any], list[int]]:
        """The JSON report, and for each of its games in turn (game id order) its place in the
        game index (the order the results came in)."""
        run = self.run
        index = run.game_index
        report = finite(run.competition.get_json_report())
        report["void_games"] = run.void_game_count
        report["ringmaster_version"] = __version__
        report["progress"] = finite(self.progress())
        arrival = sorted(range(len(index)), key=lambda i: game_id_order(index[i].game_id))
        ordered = [index[i] for i in arrival]
        duplicates = duplicates_in_order(ordered)
        records = record_links(index, run.paths.games, run.paths.void)
        report["games"] = [game_json(g, duplicates.get(g.game_id), records[id(g)]) for g in ordered]
        report["duplicates"] = {"count": len(duplicates),
                                "hint": DUPLICATE_HINT if duplicates else None}
        report["games_directory"] = os.path.basename(run.paths.games)
        report["time_use"] = finite([use.to_json() for use in self.time_use()])
        comparison = self.host_comparison()
        if comparison.games:
            report["hosts"] = finite(comparison.to_json())
        return report, arrival

    def csv(self) -> str:
        """One CSV row per game (show --csv)."""
        return games_csv(self.run.game_index)

    def write(self) -> None:
        """Write FILE.report and FILE.html from the state, each atomically."""
        write_atomically(self.run.paths.report, self.text(full=False).encode("utf-8"), durable=False)
        self.write_html()

    def write_html(self) -> None:
        """Write FILE.html (atomically) from the state."""
        started = time.monotonic()
        write_atomically(self.run.paths.html, self.page().encode("utf-8"), durable=False)
        self.html_due = False
        self._html_written_at = time.monotonic()
        took = self._html_written_at - started
        self._html_pause = max(HTML_INTERVAL, took / HTML_SHARE) if HTML_INTERVAL > 0 else 0.0

    def run_started(self) -> None:
        """The run's first rewrite of FILE.html waits a pause as if it had been written now."""
        self._html_written_at = time.monotonic()

    def result_in(self) -> None:
        """A result came in: the run's rate may start (RunClock.note_result); FILE.html is due
        (see write_html_if_due)."""
        self.run.clock.note_result()
        self.html_due = True
        self.write_html_if_due()

    def write_html_if_due(self) -> None:
        """Rewrite FILE.html if a result came in and the pause since the last has passed.

        The pause is HTML_INTERVAL, or longer when rendering is slow (HTML_SHARE);
        the first rewrite of a run waits as long after its start. Called after each
        result and while games run (at least once a second); the end of a run
        always rewrites it.
        """
        if self.html_due and time.monotonic() - self._html_written_at >= self._html_pause:
            self.write_html()
