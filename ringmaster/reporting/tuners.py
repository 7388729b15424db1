"""Pages in FILE.html for mc_tuner (candidates, a heat map, the best candidate) and ce_tuner (generations)."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

from ringmaster.reporting import svg
from ringmaster.stats.win_rates import format_elo, wilson_interval


def mc_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    plots = []
    codes = report["parameter_codes"]
    splits = report["splits"]
    candidates = [c for c in report["candidates"] if c["games"]]
    best = report.get("best")
    best_path = best["path"] if best else None
    for i, code in enumerate(codes):
        if splits[i] <= 1:
            continue
        groups: dict[tuple[int, float], list[Any]] = {}
        for c in candidates:
            key = (len(c["path"]), round(c["optimiser_parameters"][i], 9))
            entry = groups.setdefault(key, [0, 0, _value_text(c["parameter_labels"][i], code),
                                            False])
            entry[0] += c["wins"]
            entry[1] += c["games"]
            if best_path is not None and c["path"] == best_path:
                entry[3] = True
        estimates, ticks = [], {}
        for (depth, x), (won, games, label, highlight) in sorted(groups.items()):
            low, high = wilson_interval(won, games)
            estimates.append(svg.Estimate(x, won / games, low, high, games, highlight,
                                          group=depth - 1))
            if depth == 1:
                ticks[x] = _short(label)
        if not ticks:
            ticks = {x: "" for (_, x) in groups}
        legend = [f"depth {d}" for d in range(1, report["max_depth"] + 1)] \
            if report["max_depth"] > 1 else []
        title = f"Win rate by {code}" + (" (over the other parameters)" if len(codes) > 1 else "")
        plots.append(svg.error_bar_chart(
            title + "; red: the leader; bars: 95%; size: games", estimates,
            sorted(ticks.items()), code, "win rate against the opponent",
            hlines=[(0.5, "even", "#888")], legend=legend))
    tuned = [i for i, split in enumerate(splits) if split > 1]
    if len(tuned) == 2:
        plots.append(heat_map_plot(report, tuned[0], tuned[1]))
    plots.append(best_candidate_plot(report))
    first_level = [c for c in report["candidates"] if len(c["path"]) == 1]
    return {"plots": [p for p in plots if p], "tree": report["tree"] if report["max_depth"] > 1
            else None, "best_path": best_path,
            "untried": [c for c in first_level if not c["games"]], "first_level": first_level,
            "best_elo": format_elo(best["wins"], best["games"]) if best else ""}


def _value_text(label: str, code: str) -> str:
    """'0.067' from 'c: 0.067' (a format that names its parameter)."""
    for prefix in (f"{code}: ", f"{code}:", f"{code}="):
        if label.startswith(prefix):
            return label[len(prefix):].strip()
    return label


def _short(label: str) -> str:
    return label if len(label) <= 9 else f"{float(label):.3g}" if _is_number(label) else label[:9]


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def heat_map_plot(report: dict[str, Any], i: int, j: int) -> str:
    """Win rates of the first generation over two parameters."""
    codes, splits = report["parameter_codes"], report["splits"]
    first = [c for c in report["candidates"] if len(c["path"]) == 1]
    xs = sorted({round(c["optimiser_parameters"][i], 9) for c in first})
    ys = sorted({round(c["optimiser_parameters"][j], 9) for c in first})
    grid: dict[tuple[float, float], list[int]] = defaultdict(lambda: [0, 0])
    labels_x: dict[float, str] = {}
    labels_y: dict[float, str] = {}
    for c in first:
        x, y = round(c["optimiser_parameters"][i], 9), round(c["optimiser_parameters"][j], 9)
        grid[(x, y)][0] += c["wins"]
        grid[(x, y)][1] += c["games"]
        labels_x[x] = _short(_value_text(c["parameter_labels"][i], codes[i]))
        labels_y[y] = _short(_value_text(c["parameter_labels"][j], codes[j]))
    cells = [[((grid[(x, y)][0] / grid[(x, y)][1]) if grid[(x, y)][1] else None, grid[(x, y)][1])
              for x in xs] for y in ys]
    del splits
    return svg.heat_map(f"Win rate over {codes[i]} and {codes[j]} (numbers: games; red is "
                        "better)", cells, [labels_x[x] for x in xs], [labels_y[y] for y in ys],
                        codes[i], codes[j])


def best_candidate_plot(report: dict[str, Any]) -> str:
    """The leading candidate's win rate over its tuning games, with its 95% band."""
    best = report.get("best")
    if not best:
        return ""
    path = best["path"]
    opponent = report["opponent"]
    points, lows, highs = [], [], []
    won, games = 0.0, 0
    for g in report.get("games") or []:
        data = g.get("data")
        if g["result"] == "void" or not isinstance(data, list) or len(data) != 2 \
                or data[0] == "confirm" or list(data[1])[:len(path)] != path:
            continue
        if g.get("winner") is None and g["result"] != "0":
            continue   # no result: left out, as the tuner leaves it out of the record
        games += 1
        won += 0.5 if g.get("winner") is None else int(g["winner"] != opponent)
        low, high = wilson_interval(won, games)
        points.append((games, won / games))
        lows.append(low)
        highs.append(high)
    if len(points) < 2:
        return ""
    return svg.line_chart("The leader: win rate over its games (band: 95%)",
                          [svg.Series("win rate", points, lows, highs)],
                          "games of this candidate", "win rate", y_range=(0.0, 1.0),
                          hlines=[(0.5, "even", "#888")])


def ce_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    plots = []
    history = report.get("history") or []
    for i, code in enumerate(report["parameter_codes"]):
        generations = [h["generation"] for h in history]
        means = [h["means"][i] for h in history]
        spreads = [math.sqrt(max(h["variances"][i], 0.0)) for h in history]
        if len(generations) < 1:
            continue
        plots.append(svg.line_chart(
            f"{code}: mean by generation (band: +-1 standard deviation), optimiser units",
            [svg.Series(code, list(zip(generations, means)),
                        [m - s for m, s in zip(means, spreads)],
                        [m + s for m, s in zip(means, spreads)])],
            "generation", code))
    return {"plots": plots}
