"""Each player's games as Black and as White over a whole event, and its score with each colour."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ringmaster.competitions.matchup_stats import format_percent, render_table, score_for
from ringmaster.game.result import GameResult, format_float


@dataclass
class ColourCounts:
    """One player's games by colour: how many, how many with a result, and its score (a jigo
    counts half)."""

    player: str
    black: int = 0
    white: int = 0
    decided_black: int = 0
    decided_white: int = 0
    score_black: float = 0.0
    score_white: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player,
                "games_as_black": self.black, "games_as_white": self.white,
                "decided_as_black": self.decided_black, "decided_as_white": self.decided_white,
                "score_as_black": self.score_black, "score_as_white": self.score_white,
                "rate_as_black": self.score_black / self.decided_black if self.decided_black
                else None,
                "rate_as_white": self.score_white / self.decided_white if self.decided_white
                else None}


def colour_counts(results: Iterable[GameResult], players: list[str]) -> list[ColourCounts]:
    """Each of players' counts over results, in the order of players (a player of a result
    not among them is left out)."""
    counts = {p: ColourCounts(p) for p in players}
    for r in results:
        score = score_for(r, r.player_b)
        for code, as_black in ((r.player_b, True), (r.player_w, False)):
            c = counts.get(code)
            if c is None:
                continue
            mine = None if score is None else score if as_black else 1 - score
            if as_black:
                c.black += 1
                c.decided_black += mine is not None
                c.score_black += mine or 0.0
            else:
                c.white += 1
                c.decided_white += mine is not None
                c.score_white += mine or 0.0
    return list(counts.values())


def colour_table(counts: list[ColourCounts], labels: list[str]) -> list[str]:
    """The text report's table, a row a player headed by its label (a competitor's letter):
    games as Black and as White, the score with each and its rate over the games with a result."""
    rows = [["", "player", "black", "score", "%", "white", "score", "%"]]
    for label, c in zip(labels, counts):
        rows.append([label, c.player,
                     str(c.black), format_float(c.score_black),
                     format_percent(c.score_black, c.decided_black),
                     str(c.white), format_float(c.score_white),
                     format_percent(c.score_white, c.decided_white)])
    return render_table(rows, right_align_from=2)
