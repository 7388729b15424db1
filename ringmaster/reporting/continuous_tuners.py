"""Plots in FILE.html for spsa_tuner (parameter trajectories) and bayes_tuner (its model per parameter)."""

from __future__ import annotations

from typing import Any

from ringmaster.reporting import svg


def _numeric(values: list[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def spsa_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    """One line chart per parameter: its value after each stretch of games (engine units when numeric)."""
    plots = []
    trajectory = report.get("trajectory") or []
    for i, code in enumerate(report["parameter_codes"]):
        engine = [t["engine_parameters"][i] for t in trajectory]
        numeric = _numeric(engine)
        values = engine if numeric else [t["optimiser_parameters"][i] for t in trajectory]
        points = [(t["games"], float(v)) for t, v in zip(trajectory, values)]
        if len(points) < 2:
            continue
        unit = "" if numeric else " (optimiser units)"
        plots.append(svg.line_chart(f"{code}: value over the run{unit}",
                                    [svg.Series(code, points)], "games", code + unit))
    return {"plots": plots}


def bayes_tuner_context(report: dict[str, Any]) -> dict[str, Any]:
    """One line chart per parameter: the model's win rate, 95% band, others at the recommendation."""
    plots = []
    for curve in report.get("slices") or []:
        numeric = _numeric(curve["engine_values"])
        xs = curve["engine_values"] if numeric else curve["optimiser_values"]
        unit = "" if numeric else " (optimiser units)"
        points = [(float(x), y) for x, y in zip(xs, curve["win_rate"])]
        plots.append(svg.line_chart(
            f"{curve['code']}: modelled win rate (band: 95%), other parameters at the recommendation",
            [svg.Series("win rate", points, curve["low"], curve["high"])],
            curve["code"] + unit, "win rate against the opponent", hlines=[(0.5, "50%", "#888")]))
    return {"plots": plots}
