"""Small inline-SVG plots for the HTML report: lines with bands, error bars, histograms, heat maps.

Our own module rather than a plotting library: the report needs five simple
chart types, and SVG text written here is crisp at any zoom, adds nothing to
the install (matplotlib would add tens of megabytes with numpy-compiled
parts and fonts) and needs no JavaScript or network when the page is opened.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 460, 250
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 58, 16, 28, 44
COLOURS = ["#1f6fb2", "#d9622b", "#2e9d4a", "#8e44ad", "#c0392b", "#7f8c8d"]


TITLE_LINE_HEIGHT = 15
TITLE_CHARACTER_WIDTH = 6.9
"""A wide character of the 12 px semi-bold title, in pixels: titles are wrapped to fit the plot."""


def nice_ticks(low: float, high: float, count: int = 5, integer: bool = False) -> list[float]:
    """Round tick values covering [low, high] (about `count` of them); whole numbers only if integer
    (counts of games: no tick at half a game)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return []
    if high <= low:
        high = low + 1.0
    raw = (high - low) / max(1, count)
    if integer and raw < 1:
        raw = 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    steps = (1, 2, 5, 10) if integer else (1, 2, 2.5, 5, 10)
    step = next(m * magnitude for m in steps if m * magnitude >= raw)
    first = math.ceil(low / step - 1e-9) * step
    ticks = []
    value = first
    while value <= high + step * 1e-9:
        ticks.append(round(value, 12) + 0.0)
        value += step
    return ticks


def format_tick(value: float) -> str:
    """'0.5', '1200', '-20'."""
    return f"{value:.4g}"


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def title_lines(title: str, width: int) -> list[str]:
    """The title wrapped at spaces into lines that fit a plot this wide."""
    most = max(10, int((width - 12) / TITLE_CHARACTER_WIDTH))
    lines: list[str] = []
    for word in title.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def svg_with_title(title: str, width: int, height: int, body: str) -> str:
    """A plot's SVG: its title wrapped above the body, which is moved down by the lines it took."""
    lines = title_lines(title, width)
    extra = TITLE_LINE_HEIGHT * (len(lines) - 1)
    heading = "".join(f'<text x="{width / 2:.1f}" y="{17 + TITLE_LINE_HEIGHT * i}" '
                      f'text-anchor="middle" class="title">{_esc(line)}</text>'
                      for i, line in enumerate(lines))
    moved = f'<g transform="translate(0 {extra})">{body}</g>' if extra else body
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{width}" '
            f'height="{height + extra}" viewBox="0 0 {width} {height + extra}" role="img">'
            f'<title>{_esc(title)}</title>{heading}{moved}</svg>')


@dataclass
class Frame:
    """A plot's data ranges and pixel box; maps data to pixels."""

    x_low: float
    x_high: float
    y_low: float
    y_high: float
    width: int = WIDTH
    height: int = HEIGHT

    def __post_init__(self) -> None:
        if self.x_high <= self.x_low:
            self.x_low, self.x_high = self.x_low - 0.5, self.x_low + 0.5
        if self.y_high <= self.y_low:
            self.y_low, self.y_high = self.y_low - 0.5, self.y_low + 0.5

    def x(self, value: float) -> float:
        span = self.width - MARGIN_LEFT - MARGIN_RIGHT
        return MARGIN_LEFT + (value - self.x_low) / (self.x_high - self.x_low) * span

    def y(self, value: float) -> float:
        span = self.height - MARGIN_TOP - MARGIN_BOTTOM
        value = min(max(value, self.y_low), self.y_high)
        return self.height - MARGIN_BOTTOM - (value - self.y_low) / (self.y_high - self.y_low) * span


@dataclass
class Chart:
    """An SVG drawing being built: a frame, axes, and shapes in order."""

    frame: Frame
    title: str
    x_label: str = ""
    y_label: str = ""
    parts: list[str] = field(default_factory=list)

    def axes(self, x_ticks: Sequence[tuple[float, str]] | None = None,
             y_ticks: Sequence[float] | None = None) -> None:
        f = self.frame
        left, right = MARGIN_LEFT, f.width - MARGIN_RIGHT
        top, bottom = MARGIN_TOP, f.height - MARGIN_BOTTOM
        for value in (nice_ticks(f.y_low, f.y_high) if y_ticks is None else y_ticks):
            y = f.y(value)
            self.parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
                              'class="grid"/>')
            self.parts.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">'
                              f'{_esc(format_tick(value))}</text>')
        if x_ticks is None:
            x_ticks = [(v, format_tick(v)) for v in nice_ticks(f.x_low, f.x_high)]
        for value, label in x_ticks:
            x = f.x(value)
            self.parts.append(f'<line x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}" '
                              'class="axis"/>')
            self.parts.append(f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">'
                              f'{_esc(label)}</text>')
        self.parts.append(f'<rect x="{left}" y="{top}" width="{right - left}" '
                          f'height="{bottom - top}" class="frame"/>')
        if self.x_label:
            self.parts.append(f'<text x="{(left + right) / 2:.1f}" y="{f.height - 8}" '
                              f'text-anchor="middle" class="label">{_esc(self.x_label)}</text>')
        if self.y_label:
            self.parts.append(f'<text x="14" y="{(top + bottom) / 2:.1f}" text-anchor="middle" '
                              f'class="label" transform="rotate(-90 14 {(top + bottom) / 2:.1f})">'
                              f'{_esc(self.y_label)}</text>')

    def polyline(self, points: Sequence[tuple[float, float]], colour: str,
                 dashed: bool = False, width: float = 1.8) -> None:
        if not points:
            return
        text = " ".join(f"{self.frame.x(x):.1f},{self.frame.y(y):.1f}" for x, y in points)
        dash = ' stroke-dasharray="5 4"' if dashed else ""
        self.parts.append(f'<polyline points="{text}" fill="none" stroke="{colour}" '
                          f'stroke-width="{width}"{dash}/>')

    def band(self, xs: Sequence[float], lows: Sequence[float], highs: Sequence[float],
             colour: str) -> None:
        if not xs:
            return
        upper = [f"{self.frame.x(x):.1f},{self.frame.y(h):.1f}" for x, h in zip(xs, highs)]
        lower = [f"{self.frame.x(x):.1f},{self.frame.y(lo):.1f}"
                 for x, lo in reversed(list(zip(xs, lows)))]
        self.parts.append(f'<polygon points="{" ".join(upper + lower)}" fill="{colour}" '
                          'fill-opacity="0.18" stroke="none"/>')

    def hline(self, y: float, colour: str, label: str = "") -> None:
        f = self.frame
        py = f.y(y)
        self.parts.append(f'<line x1="{MARGIN_LEFT}" y1="{py:.1f}" x2="{f.width - MARGIN_RIGHT}" '
                          f'y2="{py:.1f}" stroke="{colour}" stroke-dasharray="6 3"/>')
        if label:
            self.parts.append(f'<text x="{f.width - MARGIN_RIGHT - 4}" y="{py - 4:.1f}" '
                              f'text-anchor="end" fill="{colour}">{_esc(label)}</text>')

    def legend(self, entries: Sequence[tuple[str, str]]) -> None:
        x = MARGIN_LEFT + 8
        for label, colour in entries:
            self.parts.append(f'<rect x="{x}" y="{MARGIN_TOP + 6}" width="10" height="10" '
                              f'fill="{colour}"/>')
            self.parts.append(f'<text x="{x + 14}" y="{MARGIN_TOP + 15}">{_esc(label)}</text>')
            x += 24 + 7 * len(label)

    def render(self) -> str:
        return svg_with_title(self.title, self.frame.width, self.frame.height, "".join(self.parts))


@dataclass
class Series:
    """A line: points (x, y), and optionally its band (low, high per point)."""

    label: str
    points: list[tuple[float, float]]
    lows: list[float] | None = None
    highs: list[float] | None = None


LINE_POINTS = 1000
"""The most points a line and its band are drawn through: a plot is under 400 px wide, so a
matchup's Elo over 50,000 games looks the same through 1,000 of them, in a page a tenth the size."""


def thinned(s: Series) -> Series:
    """s through at most LINE_POINTS of its points, evenly spread, its first and last kept."""
    n = len(s.points)
    if n <= LINE_POINTS:
        return s
    keep = sorted({round(i * (n - 1) / (LINE_POINTS - 1)) for i in range(LINE_POINTS)})
    lows, highs = ([values[i] for i in keep] if values is not None else None for values in (s.lows, s.highs))
    return Series(s.label, [s.points[i] for i in keep], lows, highs)


def _finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if isinstance(v, (int, float)) and math.isfinite(v)]


def line_chart(title: str, series: Sequence[Series], x_label: str, y_label: str,
               hlines: Sequence[tuple[float, str, str]] = (),
               y_range: tuple[float, float] | None = None,
               x_ticks: Sequence[tuple[float, str]] | None = None,
               dots: Sequence[tuple[float, float, float]] = ()) -> str:
    """Lines with optional bands and dashed horizontal lines (value, label, colour); x_ticks
    (position, label) replace the round ticks (a log scale labelled in its own units); dots
    (x, y, weight) are drawn over the lines, their area growing with the weight."""
    xs = _finite([x for s in series for x, _ in s.points] + [x for x, _, _ in dots])
    ys = _finite([y for s in series for _, y in s.points]
                 + [v for s in series for v in (s.lows or []) + (s.highs or [])]
                 + [h for h, _, _ in hlines] + [y for _, y, _ in dots])
    if y_range is not None:
        y_low, y_high = y_range
    else:
        y_low, y_high = (min(ys), max(ys)) if ys else (0.0, 1.0)
        pad = 0.05 * (y_high - y_low or 1.0)
        y_low, y_high = y_low - pad, y_high + pad
    frame = Frame(min(xs) if xs else 0.0, max(xs) if xs else 1.0, y_low, y_high)
    chart = Chart(frame, title, x_label, y_label)
    chart.axes(x_ticks)
    series = [thinned(s) for s in series]   # the frame holds every point; the lines are drawn through fewer
    for i, s in enumerate(series):
        colour = COLOURS[i % len(COLOURS)]
        if s.lows is not None and s.highs is not None:
            chart.band([x for x, _ in s.points], s.lows, s.highs, colour)
    for value, label, colour in hlines:
        chart.hline(value, colour, label)
    for i, s in enumerate(series):
        chart.polyline(s.points, COLOURS[i % len(COLOURS)])
    heaviest = max((w for _, _, w in dots), default=1.0) or 1.0
    for x, y, weight in dots:
        radius = 1.5 + 3.0 * math.sqrt(max(weight, 0.0) / heaviest)
        chart.parts.append(f'<circle cx="{frame.x(x):.1f}" cy="{frame.y(y):.1f}" r="{radius:.1f}" '
                           f'class="dot" fill="{COLOURS[1]}" fill-opacity="0.55"/>')
    if len(series) > 1:
        chart.legend([(s.label, COLOURS[i % len(COLOURS)]) for i, s in enumerate(series)])
    return chart.render()


@dataclass
class Estimate:
    """A point with its 95% interval; weight sets the marker's size (games)."""

    x: float
    y: float
    low: float
    high: float
    weight: float
    highlight: bool = False
    group: int = 0


def error_bar_chart(title: str, estimates: Sequence[Estimate],
                    x_ticks: Sequence[tuple[float, str]], x_label: str, y_label: str,
                    y_range: tuple[float, float] = (0.0, 1.0),
                    hlines: Sequence[tuple[float, str, str]] = (),
                    legend: Sequence[str] = ()) -> str:
    """Points with vertical 95% intervals, marker area proportional to weight."""
    xs = [x for x, _ in x_ticks] + [e.x for e in estimates]
    low, high = (min(xs), max(xs)) if xs else (0.0, 1.0)
    pad = 0.06 * (high - low or 1.0)
    chart = Chart(Frame(low - pad, high + pad, *y_range), title, x_label, y_label)
    chart.axes(x_ticks=x_ticks)
    for value, label, colour in hlines:
        chart.hline(value, colour, label)
    biggest = max([e.weight for e in estimates] + [1.0])
    f = chart.frame
    for e in estimates:
        colour = "#c0392b" if e.highlight else COLOURS[e.group % len(COLOURS)]
        x = f.x(e.x)
        chart.parts.append(f'<line x1="{x:.1f}" y1="{f.y(e.low):.1f}" x2="{x:.1f}" '
                           f'y2="{f.y(e.high):.1f}" stroke="{colour}" stroke-width="1.4"/>')
        radius = 2.5 + 9.0 * math.sqrt(max(e.weight, 0.0) / biggest)
        chart.parts.append(f'<circle cx="{x:.1f}" cy="{f.y(e.y):.1f}" r="{radius:.1f}" '
                           f'fill="{colour}" fill-opacity="0.75"><title>'
                           f'{_esc(f"{e.y:.3f} [{e.low:.3f}, {e.high:.3f}], {e.weight:g} games")}'
                           '</title></circle>')
    if legend:
        chart.legend([(label, COLOURS[i % len(COLOURS)]) for i, label in enumerate(legend)])
    return chart.render()


def histogram(title: str, values: Sequence[float], x_label: str, bins: int = 20,
              integer: bool = False) -> str:
    """Counts of values in equal bins; integer: whole-number values (moves), each bin
    covering whole numbers and the x axis ticked at whole numbers only."""
    values = _finite(values)
    if not values:
        return ""
    low, high = min(values), max(values)
    if integer:   # bins of whole numbers, centred on them: [low - 0.5, low + width - 0.5)...
        width = float(math.ceil((high - low + 1) / bins))
        bins = math.ceil((high - low + 1) / width)
        low -= 0.5
        high = low + bins * width
    else:
        if high == low:
            high = low + 1
        width = (high - low) / bins
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - low) / width))] += 1
    chart = Chart(Frame(low, high, 0, max(counts) * 1.1), title, x_label, "games")
    x_ticks = [(v, format_tick(v)) for v in nice_ticks(low, high, integer=True)] if integer else None
    chart.axes(x_ticks=x_ticks, y_ticks=nice_ticks(0, max(counts) * 1.1, integer=True))
    f = chart.frame
    for i, count in enumerate(counts):
        x0, x1 = f.x(low + i * width), f.x(low + (i + 1) * width)
        y = f.y(count)
        chart.parts.append(f'<rect x="{x0:.1f}" y="{y:.1f}" width="{max(0.5, x1 - x0 - 1):.1f}" '
                           f'height="{f.y(0) - y:.1f}" fill="{COLOURS[0]}"><title>{count}</title>'
                           '</rect>')
    return chart.render()


def bar_chart(title: str, bars: Sequence[tuple[str, float, float, float]], y_label: str) -> str:
    """One bar per label at its mean, with a whisker from low to high."""
    if not bars:
        return ""
    top = max(high for _, _, _, high in bars) * 1.1 or 1.0
    chart = Chart(Frame(-0.5, len(bars) - 0.5, 0, top), title, "", y_label)
    chart.axes(x_ticks=[(i, label) for i, (label, _, _, _) in enumerate(bars)])
    f = chart.frame
    half = 0.3 * (f.x(1) - f.x(0))
    for i, (_, mean, low, high) in enumerate(bars):
        x = f.x(i)
        chart.parts.append(f'<rect x="{x - half:.1f}" y="{f.y(mean):.1f}" width="{2 * half:.1f}" '
                           f'height="{f.y(0) - f.y(mean):.1f}" fill="{COLOURS[i % len(COLOURS)]}"/>')
        chart.parts.append(f'<line x1="{x:.1f}" y1="{f.y(low):.1f}" x2="{x:.1f}" '
                           f'y2="{f.y(high):.1f}" stroke="#333"/>')
    return chart.render()


def heat_colour(value: float) -> str:
    """Blue (0) through white (0.5) to red (1)."""
    value = min(1.0, max(0.0, value))
    if value < 0.5:
        t = value / 0.5
        r, g, b = int(40 + 215 * t), int(100 + 155 * t), 255
    else:
        t = (value - 0.5) / 0.5
        r, g, b = 255, int(255 - 155 * t), int(255 - 215 * t)
    return f"#{r:02x}{g:02x}{b:02x}"


def heat_map(title: str, cells: Sequence[Sequence[tuple[float | None, int]]],
             x_labels: Sequence[str], y_labels: Sequence[str], x_label: str,
             y_label: str) -> str:
    """A grid of (win rate or None, games): colour for the rate, the games written in."""
    rows, columns = len(cells), len(x_labels)
    cell = max(18, min(56, 360 // max(rows, columns, 1)))
    width = MARGIN_LEFT + 50 + cell * columns + MARGIN_RIGHT
    height = MARGIN_TOP + cell * rows + MARGIN_BOTTOM
    parts = []
    for r in range(rows):
        y = MARGIN_TOP + (rows - 1 - r) * cell
        parts.append(f'<text x="{MARGIN_LEFT + 44}" y="{y + cell / 2 + 4:.1f}" '
                     f'text-anchor="end">{_esc(y_labels[r])}</text>')
        for c in range(columns):
            x = MARGIN_LEFT + 50 + c * cell
            rate, games = cells[r][c]
            fill = "#eeeeee" if rate is None else heat_colour(rate)
            tip = "no games" if rate is None else f"{rate:.3f} over {games} games"
            parts.append(f'<rect x="{x}" y="{y}" width="{cell - 1}" height="{cell - 1}" '
                         f'fill="{fill}"><title>{_esc(tip)}</title></rect>')
            parts.append(f'<text x="{x + cell / 2:.1f}" y="{y + cell / 2 + 4:.1f}" '
                         f'text-anchor="middle" class="small">{games}</text>')
    for c in range(columns):
        x = MARGIN_LEFT + 50 + c * cell + cell / 2
        parts.append(f'<text x="{x:.1f}" y="{MARGIN_TOP + rows * cell + 14}" '
                     f'text-anchor="middle" class="small">{_esc(x_labels[c])}</text>')
    parts.append(f'<text x="{MARGIN_LEFT + 50 + cell * columns / 2:.1f}" y="{height - 8}" '
                 f'text-anchor="middle" class="label">{_esc(x_label)}</text>')
    parts.append(f'<text x="14" y="{MARGIN_TOP + rows * cell / 2:.1f}" text-anchor="middle" '
                 f'class="label" transform="rotate(-90 14 {MARGIN_TOP + rows * cell / 2:.1f})">'
                 f'{_esc(y_label)}</text>')
    return svg_with_title(title, width, height, "".join(parts))
