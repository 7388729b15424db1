"""Plots in FILE.html for spsa_tuner (parameter trajectories) and bayes_tuner (its model per parameter)."""

from __future__ import annotations

import math
from typing import Any

from ringmaster.reporting import svg


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _axis(code: str, engine: list[Any], optimiser: list[float]) -> tuple[list[float], str]:
    """Values to plot and their label: engine values; their log10 when they span 20 times or more
    (a LOG scale); positions on the scale (0 to 1) when they aren't numbers."""
    if not _numeric(engine):
        return list(optimiser), f"{code} (position on its scale)"
    if min(engine) > 0 and max(engine) >= 20 * min(engine):
        return [math.log10(v) for v in engine], f"log10 {code}"
    return [float(v) for v in engine], code


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
        values, label = _axis(code, engine, optimiser)
        points = [(t["games"], v) for t, v in zip(trajectory, values)]
        if len(points) < 2:
            continue
        hlines = [(values[-1], "answer", "#c60")] if "engine_parameters" in answer else []
        plots.append(svg.line_chart(f"{code} over the run", [svg.Series(code, points)], "games", label,
                                    hlines=hlines))
    return {"plots": plots}


def bayes_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    """One line chart per parameter: the model's win rate, 95% band, others at the recommendation."""
    plots = []
    for curve in report.get("slices") or []:
        xs, label = _axis(curve["code"], curve["engine_values"], curve["optimiser_values"])
        points = list(zip(xs, curve["win_rate"]))
        plots.append(svg.line_chart(
            f"{curve['code']}: modelled win rate, 95% band",
            [svg.Series("win rate", points, curve["low"], curve["high"])],
            label + " (others at the answer)", "win rate against the opponent",
            hlines=[(0.5, "50%", "#888")]))
    return {"plots": plots}
