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


def opening_rows(results: list[GameResult], suite: OpeningSuite, player_1: str) -> list[OpeningRow]:
    """Each opening that has games, in the suite's order."""
    rows = {index: OpeningRow(o.name) for index, o in enumerate(suite.openings)}
    for r in results:
        row = rows[suite.index_for_game(game_number(r.game_id))]
        row.games += 1
        score = score_for(r, player_1)
        if score is None:
            continue
        row.decided += 1
        row.wins_1 += score
        row.black_wins += score if r.player_b == player_1 else 1 - score
    return [row for row in rows.values() if row.games]


def pair_counts(results: list[GameResult], player_1: str) -> list[int]:
    """Complete pairs (games 2k and 2k+1, both with a result) by player 1's pair score 0,
    1/4, 1/2, 3/4, 1: the SPRT's pentanomial bins."""
    scores = {game_number(r.game_id): score_for(r, player_1) for r in results}
    counts = [0] * 5
    for number, score in scores.items():
        partner = scores.get(number + 1)
        if number % 2 == 0 and score is not None and partner is not None:
            counts[pentanomial_bin(score, partner)] += 1
    return counts


def opening_report(results: list[GameResult], suite: OpeningSuite, player_1: str) -> list[str]:
    """The report's lines on the openings: the suite, the pairs, Black's rate over all, and
    each opening's Black wins (the colour bias that pairs cancel) and player 1's score."""
    rows = opening_rows(results, suite, player_1)
    lines = [f"openings: {suite.describe()}"]
    counts = pair_counts(results, player_1)
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
    return {"suite": suite.describe(), "count": len(suite.openings),
            "pairs": pair_counts(results, player_1),
            "by_opening": [row.to_json() for row in opening_rows(results, suite, player_1)]}
