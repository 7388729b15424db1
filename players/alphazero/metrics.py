"""Run metrics: rows to metrics.json and metrics.csv, a one-line summary, and a small SVG plot."""

from __future__ import annotations

import csv
import json
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


def _panel(rows: list[dict], key: str, title: str, x0: float, y0: float, w: float, h: float) -> str:
    points = [(r["iteration"], float(r[key])) for r in rows if key in r and r[key] is not None]
    parts = [f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#888"/>',
             f'<text x="{x0 + 4}" y="{y0 + 14}" font-size="12">{title}</text>']
    if not points:
        return "\n".join(parts)
    xs, ys = zip(*points)
    xmin, xmax = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    ymin, ymax = min(ys), max(ys) if max(ys) > min(ys) else min(ys) + 1
    sx = lambda x: x0 + 30 + (x - xmin) / (xmax - xmin) * (w - 40)  # noqa: E731
    sy = lambda y: y0 + h - 10 - (y - ymin) / (ymax - ymin) * (h - 30)  # noqa: E731
    path = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in points)
    parts.append(f'<polyline points="{path}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>')
    parts.append(f'<text x="{x0 + w - 4}" y="{y0 + 14}" font-size="10" text-anchor="end">'
                 f'{ymin:.3g} .. {ymax:.3g} (iter {xmin}-{xmax})</text>')
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
