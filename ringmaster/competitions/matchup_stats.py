"""Statistics of a matchup's results, and the tables that report them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ringmaster.game.result import GameResult, format_float
from ringmaster.stats.win_rates import elo_json, format_elo, likelihood_of_superiority, wilson_interval


def game_number(game_id: str) -> int:
    """The number in a matchup's game id 'mid_007'."""
    return int(game_id.rsplit("_", 1)[1])


def score_for(result: GameResult, player: str) -> float | None:
    """The player's score in a game: 1, 0.5 (jigo) or 0; None if it has no result."""
    if result.is_jigo:
        return 0.5
    if result.winning_colour is None:
        return None
    return 1.0 if result.winning_player == player else 0.0


def format_percent(n: float, baseline: float) -> str:
    """'55.00%' of baseline; '--' when the baseline is 0."""
    if baseline == 0:
        return "--"
    return f"{100.0 * n / baseline:.2f}%"


@dataclass
class MatchupStats:
    """Counts for one pairing of players, computed from its results.

    Jigos count half a win to each player. Unlike Gomill, a jigo's half point
    goes only into the colour each player actually had in that game, so the
    black and white columns add up to the wins column. Games with no result
    (unknown) count in total but in no percentage: every rate is over the
    decided games (decided, decided_1b, decided_2b).

    Public attributes:
      player_1, player_2, total, wins_1, wins_2, unknown, jigos, forfeits_1, forfeits_2,
      time_losses_1, time_losses_2 (games each lost on time: no forfeits),
      played_1b, played_2b (games with that player as black), wins_1b, wins_1w,
      wins_2b, wins_2w, wins_b, wins_w, average_time_1, average_time_2, alternating,
      adjudicated (games the referee engine's score ended)
    """

    player_1: str
    player_2: str
    total: int = 0
    wins_1: float = 0
    wins_2: float = 0
    unknown: int = 0
    jigos: int = 0
    forfeits_1: int = 0
    forfeits_2: int = 0
    time_losses_1: int = 0
    time_losses_2: int = 0
    played_1b: int = 0
    played_2b: int = 0
    decided_1b: int = 0
    decided_2b: int = 0
    wins_1b: float = 0
    wins_1w: float = 0
    wins_2b: float = 0
    wins_2w: float = 0
    average_time_1: float | None = None
    average_time_2: float | None = None
    times: dict[str, list[float]] = field(default_factory=dict)
    adjudicated: int = 0

    @property
    def alternating(self) -> bool:
        return self.played_1b > 0 and self.played_2b > 0

    @property
    def wins_b(self) -> float:
        return self.wins_1b + self.wins_2b

    @property
    def wins_w(self) -> float:
        return self.wins_1w + self.wins_2w

    @property
    def decided(self) -> float:
        """Games that count for the win rate: all but those with no result."""
        return self.total - self.unknown

    @property
    def los_1(self) -> float | None:
        """Likelihood that player 1 is the stronger (jigos left out)."""
        return likelihood_of_superiority(self.wins_1 - self.jigos / 2, self.wins_2 - self.jigos / 2)

    def to_json(self) -> dict[str, Any]:
        elo = elo_json(self.wins_1, self.decided)
        rate_low, rate_high = wilson_interval(self.wins_1, self.decided)
        return {
            "player_1": self.player_1, "player_2": self.player_2, "games": self.total,
            "wins_1": self.wins_1, "wins_2": self.wins_2, "jigos": self.jigos,
            "unknown": self.unknown, "forfeits_1": self.forfeits_1,
            "forfeits_2": self.forfeits_2, "time_losses_1": self.time_losses_1,
            "time_losses_2": self.time_losses_2, "played_1_as_black": self.played_1b,
            "played_2_as_black": self.played_2b, "wins_1_as_black": self.wins_1b,
            "wins_1_as_white": self.wins_1w, "wins_2_as_black": self.wins_2b,
            "wins_2_as_white": self.wins_2w, "average_cpu_1": self.average_time_1,
            "average_cpu_2": self.average_time_2,
            "decided": self.decided,
            "win_rate_1": self.wins_1 / self.decided if self.decided else None,
            "win_rate_1_95": [rate_low, rate_high] if self.decided else None,
            "elo_1_minus_2": elo["elo"], "elo_1_minus_2_95": [elo["elo_low"], elo["elo_high"]],
            "los_1": self.los_1, "adjudicated": self.adjudicated,
        }


class StatsTally:
    """A matchup's MatchupStats kept up to date one result at a time (add): compute_stats's counts,
    without a pass over every result for each look (the live display redraws on the clock)."""

    def __init__(self, player_1: str, player_2: str) -> None:
        self.counts = MatchupStats(player_1, player_2, times={player_1: [], player_2: []})
        self._stats: MatchupStats | None = None

    def add(self, r: GameResult) -> None:
        s = self.counts
        player_1, player_2 = s.player_1, s.player_2
        self._stats = None
        s.total += 1
        s.adjudicated += r.is_adjudicated
        one_is_black = r.player_b == player_1
        if one_is_black:
            s.played_1b += 1
        else:
            s.played_2b += 1
        if not r.is_unknown:
            if one_is_black:
                s.decided_1b += 1
            else:
                s.decided_2b += 1
        if r.is_jigo:
            s.jigos += 1
            s.wins_1 += 0.5
            s.wins_2 += 0.5
            if one_is_black:
                s.wins_1b += 0.5
                s.wins_2w += 0.5
            else:
                s.wins_1w += 0.5
                s.wins_2b += 0.5
        elif r.winning_colour is None:
            s.unknown += 1
        else:
            winner_is_1 = r.winning_player == player_1
            if winner_is_1:
                s.wins_1 += 1
                if r.winning_colour == "b":
                    s.wins_1b += 1
                else:
                    s.wins_1w += 1
                if r.is_forfeit:
                    s.forfeits_2 += 1
                if r.is_time_loss:
                    s.time_losses_2 += 1
            else:
                s.wins_2 += 1
                if r.winning_colour == "b":
                    s.wins_2b += 1
                else:
                    s.wins_2w += 1
                if r.is_forfeit:
                    s.forfeits_1 += 1
                if r.is_time_loss:
                    s.time_losses_1 += 1
        for code in (player_1, player_2):
            t = r.cpu_times.get(code)
            if t is not None:
                s.times[code].append(t)

    def stats(self) -> MatchupStats:
        """The statistics of the results added so far (computed once per new result: the average
        CPU times sum their lists, in order, as compute_stats always has). Its `times` are the
        tally's lists, which grow as results are added."""
        if self._stats is None:
            s = replace(self.counts)
            times_1, times_2 = s.times[s.player_1], s.times[s.player_2]
            if times_1:
                s.average_time_1 = sum(times_1) / len(times_1)
            if times_2:
                s.average_time_2 = sum(times_2) / len(times_2)
            self._stats = s
        return self._stats


def compute_stats(results: list[GameResult], player_1: str, player_2: str) -> MatchupStats:
    """Statistics for player_1 against player_2 (player codes) from their results."""
    tally = StatsTally(player_1, player_2)
    for r in results:
        tally.add(r)
    return tally.stats()


def render_table(rows: list[list[str]], right_align_from: int = 1) -> list[str]:
    """Lay out rows of cells in columns two spaces apart; columns after the first right-aligned."""
    widths = [max(len(row[i]) for row in rows if i < len(row))
              for i in range(max(len(r) for r in rows))]
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            cells.append(cell.ljust(widths[i]) if i < right_align_from else cell.rjust(widths[i]))
        lines.append("  ".join(cells).rstrip())
    return lines


def matchup_table(s: MatchupStats) -> list[str]:
    """The per-matchup table, with a header row: wins, by colour, forfeits, losses on time,
    average CPU time.

    Percentages are over the games with a result (see MatchupStats).
    """
    show_forfeits = s.forfeits_1 or s.forfeits_2
    show_time_losses = s.time_losses_1 or s.time_losses_2
    show_cpu = s.average_time_1 is not None or s.average_time_2 is not None
    header = ["player", "wins", "%"]
    if s.alternating:
        header += ["as black", "%", "as white", "%"]
    else:
        header += ["colour"]
    if show_forfeits:
        header += ["forfeits"]
    if show_time_losses:
        header += ["lost on time"]
    if show_cpu:
        header += ["avg cpu (s)"]
    rows = [header]
    for code, wins, wb, ww, db, dw, pb, forfeits, time_losses, avg in (
            (s.player_1, s.wins_1, s.wins_1b, s.wins_1w, s.decided_1b, s.decided_2b, s.played_1b,
             s.forfeits_1, s.time_losses_1, s.average_time_1),
            (s.player_2, s.wins_2, s.wins_2b, s.wins_2w, s.decided_2b, s.decided_1b, s.played_2b,
             s.forfeits_2, s.time_losses_2, s.average_time_2)):
        row = [code, format_float(wins), format_percent(wins, s.decided)]
        if s.alternating:
            row += [format_float(wb), format_percent(wb, db),
                    format_float(ww), format_percent(ww, dw)]
        else:
            row += ["black" if pb else "white"]
        if show_forfeits:
            row += [str(forfeits)]
        if show_time_losses:
            row += [str(time_losses)]
        if show_cpu:
            row += [f"{avg:.2f}" if avg is not None else "--"]
        rows.append(row)
    if s.alternating:
        rows.append(["both", "", "", format_float(s.wins_b), format_percent(s.wins_b, s.decided),
                     format_float(s.wins_w), format_percent(s.wins_w, s.decided)])
    return render_table(rows)


def colour_terms(s: MatchupStats, black: str | None) -> str:
    """'a - b', or 'a as Black - b as White' when `black` had Black in every game."""
    if black is None:
        return f"{s.player_1} - {s.player_2}"
    colour = {p: "Black" if p == black else "White" for p in (s.player_1, s.player_2)}
    return f"{s.player_1} as {colour[s.player_1]} - {s.player_2} as {colour[s.player_2]}"


def fixed_colour_note(black: str) -> str:
    """What a matchup whose colours don't alternate measures."""
    return (f"colours don't alternate: {black} had Black in every game, so the Elo, LOS and SPRT "
            "measure the players with these colours, Black's advantage not separated from the "
            "players' difference (alternating=True separates it)")


def elo_line(s: MatchupStats, terms: str | None = None, black: str | None = None) -> str:
    """'Elo p1 - p2: +35 [-20, +93] (95%), LOS 87.1%, score 55.0% [45.2%, 64.4%] over 20 games';
    games that are not even name their terms: 'Elo p1 - p2 (4 handicap stones, komi 0.5): ...';
    a matchup where `black` had Black in every game names the colours: 'Elo p1 as Black - p2 as White'."""
    who = colour_terms(s, black) + (f" ({terms})" if terms else "")
    if not s.decided:
        return f"Elo {who}: no games with a result yet"
    low, high = wilson_interval(s.wins_1, s.decided)
    rate = s.wins_1 / s.decided
    los = s.los_1
    los_text = "--" if los is None else f"{100 * los:.1f}%"
    return (f"Elo {who}: {format_elo(s.wins_1, s.decided)} (95%), "
            f"LOS {los_text}, score {100 * rate:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] "
            f"over {s.decided} game{'' if s.decided == 1 else 's'} with a result")
