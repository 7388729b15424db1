"""bayes_tuner's reports: the answer's lines, the model's slices, where the optimum lies, matches in JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ringmaster.competitions.bayes_matches import LEVEL_EVERY
from ringmaster.competitions.bayes_model import candidates
from ringmaster.stats.win_rates import elo_from_rate
from ringmaster.tuning.parameters import ParameterSpec

ARGMAX_DRAWS = 200           # posterior draws for the optimum's location
ARGMAX_POINTS = 400          # uniform points they are drawn at (with the played and the best's neighbours)
OPTIMUM_QUANTILES = (0.025, 0.25, 0.5, 0.75, 0.975)   # of the draws' best points: 95%, the central half
OPTIMUM_NAMES = ("low", "low_50", "median", "high_50", "high")
SLICE_POINTS = 21
_FLATTERS = "the model's estimate where it is highest, from the games that chose the point, flatters it: by "
OPTIMISM = _FLATTERS + "2 to 5 win-rate points on the bench"   # reports/continuous_tuners.md, issue 34
OPTIMISM_WITH_PAIRS = _FLATTERS + "1 to 3 win-rate points on the bench"   # the same, head_to_head
LEVEL_NOTE = ("head-to-head matches measure differences: the model knows the win rate against the "
              f"opponent only from its matches against the opponent (every {LEVEL_EVERY}th match after "
              "the design is one, at the incumbent)")   # reports/continuous_tuners.md, issue 34

Convert = Callable[[list[float]], Sequence[Any]]   # optimiser units to the engine's, as the tuner's convert


def rate_interval(mean: float, sd: float) -> tuple[float, float, float]:
    """The win rate of a logit mean with its sd, and its 95% interval's ends."""
    from ringmaster.tuning.gaussian_process import logistic
    return logistic(mean), logistic(mean - 1.96 * sd), logistic(mean + 1.96 * sd)


def optimum_location(gp: Any, answer: list[float], results: int) -> list[tuple[float, ...]]:
    """Where the optimum lies by gp: per parameter the OPTIMUM_QUANTILES (2.5%, 25%, 50%, 75%,
    97.5%), in optimiser units, of the argmax of ARGMAX_DRAWS joint posterior draws of f over
    ARGMAX_POINTS uniform points, the points played and the answer's neighbours; seeded by the
    number of results.

    The central half is given beside the 95% interval: with two parameters the 95% interval
    spans most of the range at 1,200 games (uncertain points far from the answer top its peak
    in a few percent of draws), while the central half held the optimum about as often as it
    claims (reports/continuous_tuners.md, issue 34)."""
    import numpy as np

    from ringmaster.tuning.gaussian_process import posterior_samples

    rng = np.random.default_rng(results + 1)
    points = candidates(rng, np.array([answer]), 0.05, ARGMAX_POINTS)
    points = np.concatenate([points, gp.x])
    draws = posterior_samples(gp, points, ARGMAX_DRAWS, rng)
    argmax = points[np.argmax(draws, axis=1)]
    quantiles = np.quantile(argmax, OPTIMUM_QUANTILES, axis=0)
    return [tuple(float(q) for q in column) for column in quantiles.T]


def optimum_intervals(location: list[tuple[float, ...]], answer: list[float],
                      specs: Sequence[ParameterSpec], convert: Convert) -> list[dict[str, Any]]:
    """location per parameter in engine units, the others at the answer: code, low, low_50,
    median, high_50, high (the 95% interval's ends, the central half's and the median; each also
    as the parameter's format shows it)."""
    rows = []
    for j, (spec, quantiles) in enumerate(zip(specs, location)):
        row: dict[str, Any] = {"code": spec.code, "optimiser": list(quantiles)}
        for name, value in zip(OPTIMUM_NAMES, quantiles):
            point = list(answer)
            point[j] = value
            row[name] = convert(point)[j]
            row[f"shown_{name}"] = spec.format % (row[name],)
        rows.append(row)
    return rows


def slices(gp: Any, answer: list[float], specs: Sequence[ParameterSpec],
           convert: Convert) -> list[dict[str, Any]]:
    """gp along each parameter through the answer: values, win rate, 95% band."""
    import numpy as np

    result = []
    for j, spec in enumerate(specs):
        grid = [i / (SLICE_POINTS - 1) for i in range(SLICE_POINTS)]
        points = [list(answer) for _ in grid]
        for point, value in zip(points, grid):
            point[j] = value
        mean, sd = gp.predict(np.array(points))
        rows = [rate_interval(float(m), float(s)) for m, s in zip(mean, sd)]
        result.append({"code": spec.code, "optimiser_values": grid,
                       "engine_values": [convert(p)[j] for p in points],
                       "win_rate": [r[0] for r in rows], "low": [r[1] for r in rows],
                       "high": [r[2] for r in rows]})
    return result


def level_note(observed: list[dict[str, Any]]) -> str | None:
    """LEVEL_NOTE where head-to-head matches have been played (None otherwise)."""
    return LEVEL_NOTE if any("y" in p for p in observed) else None


def optimism(note: str | None) -> str:
    """How much the model's estimate at its answer flatters it on the bench: less once
    head-to-head matches are played (note, level_note's), since a quarter of the matches are then
    played at the incumbent itself."""
    return OPTIMISM_WITH_PAIRS if note else OPTIMISM


def answer_note(caution: float | None, smoothing: float | None) -> str:
    """How the answer was chosen, for the screen report: the caution and the smoothing in effect
    (None: none, as in a trust region)."""
    note = "" if caution in (None, 0.0) else f" less {caution:g} sd"
    return note + ("" if smoothing in (None, 1.0) else f", its lengthscales x{smoothing:g}")


def write_answer(out: TextIO, shown: str, mean: float, sd: float, note: str, warning: str,
                 level: str | None) -> None:
    """The screen report's lines on the answer (shown, its answer_note note): the model's win rate
    there and its Elo, the selection bias warning, and the level note where there is one."""
    rate, low, high = rate_interval(mean, sd)
    out.write(f"Recommended (the model's highest mean{note}): {shown}\n")
    out.write(f"  model's win rate there {rate:.3f} [{low:.3f}, {high:.3f}]  "
              f"Elo vs opponent {elo_from_rate(rate):+.0f} "
              f"[{elo_from_rate(low):+.0f}, {elo_from_rate(high):+.0f}]\n")
    out.write(f"  {warning}\n")
    if level:
        out.write(f"  ({level})\n")


def write_optimum(out: TextIO, intervals: list[dict[str, Any]]) -> None:
    """The screen report's lines on where the optimum lies (optimum_intervals' rows)."""
    out.write(f"Where the optimum lies, by the model (the best points of {ARGMAX_DRAWS} posterior "
              "draws: 95% of them, and the central half):\n")
    for row in intervals:
        out.write(f"  {row['shown_low']}  to  {row['shown_high']}  (median {row['shown_median']}; "
                  f"half {row['shown_low_50']}  to  {row['shown_high_50']})\n")


def write_slices(out: TextIO, found: list[dict[str, Any]], specs: Sequence[ParameterSpec]) -> None:
    """The screen report's table of the model along each parameter (slices' found), every 4th value."""
    out.write("\nThe model along each parameter, the others at the recommendation "
              "(win rate [95%]):\n")
    for s in found:
        out.write(f"  {s['code']}:\n")
        for i in range(0, SLICE_POINTS, 4):
            value = specs[[p.code for p in specs].index(s["code"])]
            shown = value.format % (s["engine_values"][i],)
            out.write(f"    {shown:<24} {s['win_rate'][i]:.3f} [{s['low'][i]:.3f}, {s['high'][i]:.3f}]\n")


def point_json(point: dict[str, Any], shown: Callable[[list[float]], str]) -> dict[str, Any]:
    """A match in the JSON report: its point, the other point where it was head to head (its wins
    are the first point's against the second), wins and games (with a result; a jigo counts half),
    and its games with no result; shown: the tuner's format_optimiser_parameters."""
    found = {"optimiser_parameters": point["x"], "parameters": shown(point["x"])}
    if "y" in point:
        found.update({"against_optimiser_parameters": point["y"], "against_parameters": shown(point["y"])})
    return {**found, "wins": point["wins"], "games": point["games"], "no_result": point.get("no_result", 0)}


def recommended_json(found: tuple[list[float], float, float], shown: str, smoothing: float | None,
                     caution: float | None, level: str | None,
                     intervals: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON report's answer: found (point, mean, sd) shown as the parameters' formats show it,
    the smoothing and caution in effect, the level note, the model's win rate and Elo there, and
    intervals (optimum_intervals)."""
    rate, low, high = rate_interval(found[1], found[2])
    return {"optimiser_parameters": found[0], "parameters": shown,
            "answer_smoothing": smoothing, "answer_caution": caution,
            "optimism": optimism(level), "level_note": level,
            "model_win_rate": rate, "model_win_rate_95": [low, high],
            "elo": elo_from_rate(rate), "optimum_95": intervals}
