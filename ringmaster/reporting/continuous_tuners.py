"""Plots in FILE.html for spsa_tuner (parameter trajectories) and bayes_tuner (its model per parameter)."""

from __future__ import annotations

import math
from typing import Any

from ringmaster.reporting import svg


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def log_ticks(low: float, high: float) -> list[tuple[float, str]]:
    """Ticks of a log axis plotted as log10: at 1, 2 and 5 times each power of ten within
    [low, high] (1 and 10 times only where that gives three or more), labelled in the
    parameter's own units."""
    values: list[float] = []
    for multiples in ((1.0,), (1.0, 2.0, 5.0)):
        values = [m * 10.0 ** k for k in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1)
                  for m in multiples if low * (1 - 1e-9) <= m * 10.0 ** k <= high * (1 + 1e-9)]
        if len(values) >= 3:
            break
    return [(math.log10(v), svg.format_tick(v)) for v in values]


def _axis(code: str, engine: list[Any],
          optimiser: list[float]) -> tuple[list[float], str, list[tuple[float, str]] | None]:
    """Values to plot, their label and their ticks (None: round ones): engine values; for a LOG
    scale (values spanning 20 times or more) their log10, ticked in engine units; positions on
    the scale (0 to 1) when they aren't numbers."""
    if not _numeric(engine):
        return list(optimiser), f"{code} (position on its scale)", None
    if min(engine) > 0 and max(engine) >= 20 * min(engine):
        return [math.log10(v) for v in engine], f"{code} (log scale)", log_ticks(min(engine), max(engine))
    return [float(v) for v in engine], code, None


def _plotted(position: float, optimiser: list[float], plotted: list[float]) -> float:
    """Where a point at this position on the scale (0 to 1) goes on the plot's x axis:
    interpolated between the slice's grid points (exact for LINEAR and LOG scales)."""
    pairs = sorted(zip(optimiser, plotted))
    for (o0, x0), (o1, x1) in zip(pairs, pairs[1:]):
        if o0 <= position <= o1:
            return x0 if o1 == o0 else x0 + (position - o0) / (o1 - o0) * (x1 - x0)
    return pairs[0][1] if position < pairs[0][0] else pairs[-1][1]


def spsa_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    """One line chart per parameter: its value after each stretch of games (engine units when
    numeric), and the answer as a horizontal line."""
    plots = []
    trajectory = report.get("trajectory") or []
    answer = report.get("recommended") or {}
    for i, code in enumerate(report["parameter_codes"]):
        engine = [t["engine_parameters"][i] for t in trajectory]
        optimiser = [t["optimiser_parameters"][i] for t in trajectory]
        if "engine_parameters" in answer:   # plotted on the same axis as the trajectory
            engine.append(answer["engine_parameters"][i])
            optimiser.append(answer["optimiser_parameters"][i])
        values, label, ticks = _axis(code, engine, optimiser)
        points = [(t["games"], v) for t, v in zip(trajectory, values)]
        if len(points) < 2:
            continue
        hlines = [(values[-1], "answer", "#c60")] if "engine_parameters" in answer else []
        plots.append(svg.line_chart(f"{code} over the run", [svg.Series(code, points)], "games",
                                    f"log10 {code}" if ticks else label, hlines=hlines))
    return {"plots": plots}


def bayes_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    """One line chart per parameter: the model's win rate and 95% band with the others at the
    recommendation, x in the parameter's units; dots: every point played against the opponent
    (its win rate, sized by its games), projected onto that parameter. A head-to-head match's
    rate is against another candidate, not the opponent, so it has no dot."""
    plots = []
    matches = [p for p in report.get("points") or [] if p.get("games")]
    played = [p for p in matches if "against_optimiser_parameters" not in p]
    what = "points played" if len(played) == len(matches) else "points played against the opponent"
    for j, curve in enumerate(report.get("slices") or []):
        xs, label, ticks = _axis(curve["code"], curve["engine_values"], curve["optimiser_values"])
        points = list(zip(xs, curve["win_rate"]))
        dots = [(_plotted(p["optimiser_parameters"][j], curve["optimiser_values"], xs),
                 p["wins"] / p["games"], float(p["games"])) for p in played]
        plots.append(svg.line_chart(
            f"{curve['code']}: modelled win rate, 95% band; dots: {what}",
            [svg.Series("win rate", points, curve["low"], curve["high"])],
            label + " (others at the answer)", "win rate against the opponent",
            hlines=[(0.5, "50%", "#888")], x_ticks=ticks, dots=dots))
    return {"plots": plots}
