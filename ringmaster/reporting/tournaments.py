"""Pages in FILE.html for playoffs and all-play-alls: each matchup's Elo and SPRT plots, the cross table,
an all-play-all's colours."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ringmaster.reporting import svg
from ringmaster.stats.win_rates import elo_interval, format_elo, likelihood_of_superiority

ELO_PLOT_LIMIT = 800.0


def elo_path(results: list[dict[str, Any]], player: str) -> svg.Series:
    """Elo of `player` after each game with a result, with its 95% interval.

    Infinite values (every game won, or lost, so far) are drawn at +-ELO_PLOT_LIMIT.
    """
    points, lows, highs = [], [], []
    score = decided = 0.0
    for r in results:
        if r["sgf_result"] == "0":
            score += 0.5
        elif r["winning_colour"] is None:
            continue
        elif (r["player_b"] if r["winning_colour"] == "b" else r["player_w"]) == player:
            score += 1
        decided += 1
        point, low, high = (max(-ELO_PLOT_LIMIT, min(ELO_PLOT_LIMIT, v))
                            for v in elo_interval(score, decided))
        points.append((decided, point))
        lows.append(low)
        highs.append(high)
    return svg.Series("Elo", points, lows, highs)


def playoff_context(report: dict[str, Any]) -> dict[str, Any]:
    """Each matchup's line, its Elo over games and its SPRT; the cross table with ratings."""
    return {**_tournament_context(report, matchup_plots=True,
                                  cross=report.get("ratings") is not None), "colours": None}


def allplayall_context(report: dict[str, Any]) -> dict[str, Any]:
    """Each pairing's line, the cross table (no plot a pairing: there are many) and each
    competitor's games and score by colour."""
    return {**_tournament_context(report, matchup_plots=False, cross=True),
            "colours": report.get("colours")}


def _tournament_context(report: dict[str, Any], matchup_plots: bool, cross: bool) -> dict[str, Any]:
    plots = []
    matchups = []
    for m in report["matchups"]:
        s = m["stats"]
        entry = {"m": m, "s": s, "los": likelihood_of_superiority(
            s["wins_1"] - s["jigos"] / 2, s["wins_2"] - s["jigos"] / 2),
            "elo_text": format_elo(s["wins_1"], s["decided"]), "who": who(m)}
        matchups.append(entry)
        if matchup_plots:
            plots += _matchup_plots(report, m)
    return {"matchups": matchups, "plots": plots, "cross": cross_table(report) if cross else None,
            "ratings_left_out": ratings_left_out(report)}


def who(m: dict[str, Any]) -> str:
    """'a − b', or 'a as Black − b as White' for a matchup whose colours don't alternate."""
    s, black = m["stats"], m.get("fixed_black")
    if black is None:
        return f"{s['player_1']} − {s['player_2']}"
    return " − ".join(f"{p} as {'Black' if p == black else 'White'}" for p in (s["player_1"], s["player_2"]))


def ratings_left_out(report: dict[str, Any]) -> str | None:
    """The line naming the matchups the joint ratings leave out (games not even, colours fixed), or None:
    the competition's own (TournamentReports.ratings_left_out_line)."""
    return report.get("ratings_left_out")


def _matchup_plots(report: dict[str, Any], m: dict[str, Any]) -> list[str]:
    plots = []
    s = m["stats"]
    series = elo_path(m["results"], s["player_1"])
    if len(series.points) >= 2:
        clipped = any(abs(v) >= ELO_PLOT_LIMIT for _, v in series.points)
        prefix = f"{m['name'] or m['id']}: " if len(report["matchups"]) > 1 else ""
        plots.append(svg.line_chart(
            f"{prefix}Elo of {s['player_1']}"
            + (f" as {'Black' if m['fixed_black'] == s['player_1'] else 'White'}"
               if m.get("fixed_black") else "")
            + " over games (95% band"
            + (f"; ±inf drawn at ±{ELO_PLOT_LIMIT:.0f}" if clipped else "") + ")",
            [series], "games with a result", "Elo", hlines=[(0.0, "", "#555")]))
    sprt = m.get("sprt")
    if sprt and sprt["path"]:
        plots.append(svg.line_chart(
            f"{m['name'] or m['id']}: SPRT log-likelihood ratio",
            [svg.Series("LLR", [(0, 0.0)] + [(g, llr) for g, llr in sprt["path"]])],
            "games counted", "LLR",
            hlines=[(sprt["upper_bound"], f"accept H1: elo > {sprt['elo0']:g}", "#2e9d4a"),
                    (sprt["lower_bound"], f"accept H0: elo < {sprt['elo1']:g}", "#c0392b")]))
    return plots


def cross_table(report: dict[str, Any]) -> dict[str, Any]:
    """Player x player: score and games of the row player against the column one, in the matchups
    the joint ratings pool (those with games that are not even are left out, as there)."""
    players: list[str] = []
    cells: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    excluded = set(report.get("ratings_excluded") or [])
    for m in report["matchups"]:
        if m["id"] in excluded:
            continue
        s = m["stats"]
        a, b = s["player_1"], s["player_2"]
        for p in (a, b):
            if p not in players:
                players.append(p)
        cells[(a, b)][0] += s["wins_1"]
        cells[(b, a)][0] += s["wins_2"]
        cells[(a, b)][1] += s["decided"]
        cells[(b, a)][1] += s["decided"]
    rows = []
    for a in players:
        row = []
        for b in players:
            won, games = cells.get((a, b), [0.0, 0.0]) if a != b else (None, None)
            row.append(None if won is None else {"won": won, "games": games,
                                                 "rate": won / games if games else None})
        rows.append((a, row))
    return {"players": players, "rows": rows}
