"""Run metrics: rows to metrics.json and metrics.csv, a one-line summary, and a small SVG plot."""

from __future__ import annotations

import csv
import json
import math
import os
from pathlib import Path

PLOTTED = (("loss", "total loss"), ("policy_entropy", "policy entropy"),
           ("selfplay_positions_per_s", "self-play positions/s"), ("elo", "Elo (random = 0)"),
           ("vs_random_score", "score vs random"), ("value_loss", "value loss"))


def append_row(csv_path: Path, json_path: Path, row: dict) -> None:
    """Add one iteration's row; the CSV is rewritten with the union of all columns."""
    rows = json.loads(json_path.read_text()) if json_path.exists() else []
    rows = [r for r in rows if r.get("iteration") != row.get("iteration")] + [row]
    tmp = json_path.with_name(json_path.name + ".tmp")
    tmp.write_text(json.dumps(rows, indent=1))
    os.replace(tmp, json_path)
    columns: list[str] = []
    for r in rows:
        columns += [k for k in r if k not in columns]
    tmp = csv_path.with_name(csv_path.name + ".tmp")
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    os.replace(tmp, csv_path)


def summary_line(row: dict) -> str:
    text = (f"iter {row['iteration']:4d}  games {row['games']:6d}  loss {row['loss']:.3f} "
            f"(p {row['policy_loss']:.3f} v {row['value_loss']:.3f})  "
            f"entropy {row['policy_entropy']:.2f}  self-play {row['selfplay_positions_per_s']:.0f} pos/s")
    if "elo" in row:
        text += f"  vs random {row['vs_random_score']:.2f}  elo {row['elo']:.0f}"
    return text


def _ticks(low: float, high: float, count: int = 4, integer: bool = False) -> list[float]:
    """Round values covering [low, high], about count of them (whole numbers if integer)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / count
    if integer:
        raw = max(raw, 1.0)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def _panel(rows: list[dict], key: str, title: str, x0: float, y0: float, w: float, h: float) -> str:
    """One curve by iteration, with both axes ticked and labelled."""
    points = [(r["iteration"], float(r[key])) for r in rows if key in r and r[key] is not None]
    left, right, top, bottom = x0 + 48, x0 + w - 10, y0 + 22, y0 + h - 30
    parts = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#ccc"/>',
             f'<text x="{x0 + w / 2}" y="{y0 + 15}" font-size="12" text-anchor="middle">{title}</text>',
             f'<text x="{(left + right) / 2}" y="{y0 + h - 4}" font-size="10" '
             f'text-anchor="middle">iteration</text>']
    if not points:
        return "\n".join(parts)
    xs, ys = zip(*points)
    xmin, xmax = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    y_ticks = _ticks(min(ys), max(ys))
    ymin, ymax = min(min(ys), y_ticks[0]), max(max(ys), y_ticks[-1])
    if ymax <= ymin:
        ymax = ymin + 1
    sx = lambda x: left + (x - xmin) / (xmax - xmin) * (right - left)  # noqa: E731
    sy = lambda y: bottom - (y - ymin) / (ymax - ymin) * (bottom - top)  # noqa: E731
    for value in y_ticks:
        parts.append(f'<line x1="{left}" y1="{sy(value):.1f}" x2="{right}" y2="{sy(value):.1f}" '
                     'stroke="#eee"/>')
        parts.append(f'<text x="{left - 4}" y="{sy(value) + 3:.1f}" font-size="9" '
                     f'text-anchor="end">{value:.4g}</text>')
    for value in _ticks(xmin, xmax, integer=True):
        parts.append(f'<line x1="{sx(value):.1f}" y1="{bottom}" x2="{sx(value):.1f}" y2="{bottom + 3}" '
                     'stroke="#444"/>')
        parts.append(f'<text x="{sx(value):.1f}" y="{bottom + 13}" font-size="9" '
                     f'text-anchor="middle">{value:g}</text>')
    parts.append(f'<polyline points="{left},{top} {left},{bottom} {right},{bottom}" fill="none" '
                 'stroke="#444"/>')
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>')
    return "\n".join(parts)


def write_plot(svg_path: Path, json_path: Path) -> None:
    """An SVG of the main curves by iteration (matplotlib is not a dependency)."""
    rows = json.loads(json_path.read_text()) if json_path.exists() else []
    w, h, cols = 320, 180, 2
    panels = [_panel(rows, key, title, 10 + (i % cols) * (w + 10), 10 + (i // cols) * (h + 10), w, h)
              for i, (key, title) in enumerate(PLOTTED)]
    rows_n = (len(PLOTTED) + cols - 1) // cols
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{cols * (w + 10) + 10}" '
           f'height="{rows_n * (h + 10) + 10}" font-family="sans-serif">\n'
           + "\n".join(panels) + "\n</svg>\n")
    tmp = svg_path.with_name(svg_path.name + ".tmp")
    tmp.write_text(svg)
    os.replace(tmp, svg_path)
