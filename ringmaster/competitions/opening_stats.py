"""A matchup's results by opening: each opening's colour bias, and its colour-swapped pairs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ringmaster.competitions.matchup_stats import format_percent, game_number, render_table, score_for
from ringmaster.competitions.openings import OpeningSuite
from ringmaster.game.result import GameResult, format_float
from ringmaster.stats.sprt import pentanomial_bin
from ringmaster.stats.win_rates import wilson_interval

SHOWN_OPENINGS = 20
"""The most openings the text report lists (show --json and FILE.html list them all)."""

PAIR_LABELS = ("0", "1/4", "1/2", "3/4", "1")


@dataclass
class OpeningRow:
    """One opening's games in a matchup: how many, how many with a result, Black's wins and
    player 1's (a jigo counts half)."""

    name: str
    games: int = 0
    decided: int = 0
    black_wins: float = 0.0
    wins_1: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"opening": self.name, "games": self.games, "decided": self.decided,
                "black_wins": self.black_wins, "wins_1": self.wins_1,
                "black_rate": self.black_wins / self.decided if self.decided else None}


class OpeningTally:
    """A matchup's games by opening (each opening's row) and its colour-swapped pairs' scores,
    kept up to date one result at a time (add), without a pass over every result for each look."""

    def __init__(self, suite: OpeningSuite, player_1: str) -> None:
        self.suite = suite
        self.player_1 = player_1
        self.rows = {index: OpeningRow(o.name) for index, o in enumerate(suite.openings)}
        self.scores: dict[int, float | None] = {}   # player 1's by game number: the last given
        self.counts = [0] * 5                       # the complete pairs by pentanomial bin
        self._lines: list[str] | None = None

    def _pair_bin(self, even: int) -> int | None:
        """The bin of pair (even, even + 1), or None while it isn't complete with results."""
        first, second = self.scores.get(even), self.scores.get(even + 1)
        return None if first is None or second is None else pentanomial_bin(first, second)

    def add(self, r: GameResult) -> None:
        self._lines = None
        number = game_number(r.game_id)
        score = score_for(r, self.player_1)
        row = self.rows[self.suite.index_for_game(number)]
        row.games += 1
        if score is not None:
            row.decided += 1
            row.wins_1 += score
            row.black_wins += score if r.player_b == self.player_1 else 1 - score
        even = number - number % 2
        before = self._pair_bin(even)
        if before is not None:   # a game number given twice: its last result counts, as in a dict
            self.counts[before] -= 1
        self.scores[number] = score
        after = self._pair_bin(even)
        if after is not None:
            self.counts[after] += 1

    def opening_rows(self) -> list[OpeningRow]:
        """Each opening that has games, in the suite's order."""
        return [row for row in self.rows.values() if row.games]

    def report(self) -> list[str]:
        """opening_report's lines, made once per new result."""
        if self._lines is None:
            self._lines = report_lines(self.opening_rows(), self.counts, self.suite, self.player_1)
        return list(self._lines)

    def to_json(self) -> dict[str, Any]:
        """The openings' part of a matchup's JSON report."""
        return {"suite": self.suite.describe(), "count": len(self.suite.openings),
                "pairs": list(self.counts),
                "by_opening": [row.to_json() for row in self.opening_rows()]}


def tally_openings(results: list[GameResult], suite: OpeningSuite, player_1: str) -> OpeningTally:
    """An OpeningTally of results."""
    tally = OpeningTally(suite, player_1)
    for r in results:
        tally.add(r)
    return tally


def opening_report(results: list[GameResult], suite: OpeningSuite, player_1: str) -> list[str]:
    """The report's lines on the openings: the suite, the pairs, Black's rate over all, and
    each opening's Black wins (the colour bias that pairs cancel) and player 1's score."""
    return tally_openings(results, suite, player_1).report()


def report_lines(rows: list[OpeningRow], counts: list[int], suite: OpeningSuite,
                 player_1: str) -> list[str]:
    """opening_report's lines from the rows with games and the pairs' counts."""
    lines = [f"openings: {suite.describe()}"]
    if sum(counts):
        lines.append(f"pairs (games 2k and 2k+1, one opening, colours swapped), by {player_1}'s "
                     "score in both: " + ", ".join(f"{label}: {n}" for label, n in
                                                  zip(PAIR_LABELS, counts)))
    decided = sum(row.decided for row in rows)
    if decided:
        black = sum(row.black_wins for row in rows)
        low, high = wilson_interval(black, decided)
        lines.append(f"black won {format_float(black)} of {decided} games with a result "
                     f"({format_percent(black, decided)}, 95% [{100 * low:.1f}%, "
                     f"{100 * high:.1f}%])")
    table = [["opening", "games", "black won", "%", f"{player_1} scored"]]
    for row in rows[:SHOWN_OPENINGS]:
        table.append([row.name, str(row.games), f"{format_float(row.black_wins)}/{row.decided}",
                      format_percent(row.black_wins, row.decided),
                      f"{format_float(row.wins_1)}/{row.decided}"])
    if len(table) > 1:
        lines += ["  " + line for line in render_table(table)]
    if len(rows) > SHOWN_OPENINGS:
        lines.append(f"  ... and {len(rows) - SHOWN_OPENINGS} more openings (show --json, "
                     "FILE.html)")
    return lines


def opening_report_json(results: list[GameResult], suite: OpeningSuite,
                        player_1: str) -> dict[str, Any]:
    """The openings' part of a matchup's JSON report."""
    return tally_openings(results, suite, player_1).to_json()
