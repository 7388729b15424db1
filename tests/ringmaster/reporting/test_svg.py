"""The SVG plot module: ticks, scales, and well-formed drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

from ringmaster.reporting import svg


def test_nice_ticks_are_round_and_lie_in_the_range():
    assert svg.nice_ticks(0, 1) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert svg.nice_ticks(-3, 3) == [-2.0, 0.0, 2.0]   # step 2: the round step above 6/5
    assert svg.nice_ticks(0, 237)[:3] == [0.0, 50.0, 100.0]
    assert svg.nice_ticks(5, 5) == svg.nice_ticks(5, 6)


def test_frame_maps_data_to_the_plot_box():
    f = svg.Frame(0, 10, 0, 1)
    assert f.x(0) == svg.MARGIN_LEFT and f.x(10) == svg.WIDTH - svg.MARGIN_RIGHT
    assert f.y(0) == svg.HEIGHT - svg.MARGIN_BOTTOM and f.y(1) == svg.MARGIN_TOP
    assert f.y(5) == f.y(1)   # clipped to the box


def test_every_chart_is_well_formed_svg_with_escaped_text():
    charts = [
        svg.line_chart("a < b & c", [svg.Series("s", [(0, 0.1), (1, 0.4)], [0, 0.2], [0.3, 0.6])],
                       "x", "y", hlines=[(0.5, "even", "#888")]),
        svg.error_bar_chart("e", [svg.Estimate(0.2, 0.5, 0.3, 0.7, 10, True)], [(0.2, "0.2")],
                            "c", "rate"),
        svg.histogram("h", [1, 2, 2, 3, 9], "moves"),
        svg.bar_chart("b", [("x", 1.0, 0.5, 2.0), ("y", 0.5, 0.2, 0.9)], "s"),
        svg.heat_map("m", [[(0.2, 3), (None, 0)], [(0.9, 5), (0.5, 1)]], ["1", "2"], ["a", "b"],
                     "x", "y"),
    ]
    for text in charts:
        root = ElementTree.fromstring(text)
        assert root.tag.endswith("svg")
    assert "a &lt; b &amp; c" in charts[0]
    assert svg.histogram("h", [], "x") == "" and svg.bar_chart("b", [], "s") == ""


def test_heat_colour_runs_blue_white_red():
    assert svg.heat_colour(0.0) == "#2864ff"
    assert svg.heat_colour(0.5) == "#ffffff"
    assert svg.heat_colour(1.0) == "#ff6428"


def _title_texts(chart: str) -> tuple[int, list[str]]:
    root = ElementTree.fromstring(chart)
    titles = [e.text for e in root if e.tag.endswith("text") and e.get("class") == "title"]
    return int(root.get("width")), titles


def test_a_long_title_is_wrapped_to_the_plots_width_not_clipped():
    title = ("Win rate by c (over the other parameters); red: recommended; bars: 95%; size: games")
    for chart in (svg.line_chart(title, [svg.Series("s", [(0, 0.1), (1, 0.4)])], "x", "y"),
                  svg.heat_map(title, [[(0.2, 3), (0.5, 1)]], ["1", "2"], ["a"], "x", "y")):
        width, lines = _title_texts(chart)
        assert len(lines) > 1 and " ".join(lines) == title
        assert all(len(line) * svg.TITLE_CHARACTER_WIDTH <= width - 12 for line in lines)
        # The plot is as much taller as its title's extra lines, and drawn below them.
        root = ElementTree.fromstring(chart)
        extra = svg.TITLE_LINE_HEIGHT * (len(lines) - 1)
        assert f'translate(0 {extra})' in chart and int(root.get("height")) > extra
    width, lines = _title_texts(svg.line_chart("short", [svg.Series("s", [(0, 1), (1, 2)])], "x", "y"))
    assert lines == ["short"]


def test_a_histogram_of_few_games_has_ticks_at_whole_games():
    chart = svg.histogram("Game length", [30, 31, 45], "moves", bins=5)
    root = ElementTree.fromstring(chart)
    ticks = [e.text for e in root.iter() if e.tag.endswith("text") and e.get("text-anchor") == "end"]
    assert ticks and all(float(t) == int(float(t)) for t in ticks), ticks
    assert svg.nice_ticks(0, 2.2, integer=True) == [0.0, 1.0, 2.0]
    # Whole-number values: whole-number x ticks (8.5 and 9.5 were ticked for 8 to 10 moves),
    # each bar over whole numbers, centred on its value at one number a bar.
    chart = svg.histogram("Game length", [8, 9, 10, 10], "moves", bins=5, integer=True)
    root = ElementTree.fromstring(chart)
    x_ticks = [e.text for e in root.iter() if e.tag.endswith("text") and e.get("text-anchor") == "middle"
               and e.get("class") is None]
    assert x_ticks == ["8", "9", "10"]
    bars = [e for e in root.iter() if e.tag.endswith("rect") and e.get("fill")]
    assert [b.find("{http://www.w3.org/2000/svg}title").text for b in bars] == ["1", "1", "2"]
    wide = svg.histogram("Game length", list(range(30, 131)), "moves", bins=20, integer=True)
    labels = [e.text for e in ElementTree.fromstring(wide).iter() if e.tag.endswith("text")]
    assert "50" in labels and not any("." in t for t in labels if t[0].isdigit())
    assert svg.nice_ticks(0, 33, integer=True) == [0.0, 10.0, 20.0, 30.0]


def test_a_long_line_is_drawn_through_at_most_line_points_on_the_frame_of_every_point():
    """A matchup's Elo over 50,000 games was a polyline and a band of 50,000 points each: 1.8 MB
    of a 1.9 MB page, on a plot under 400 px wide."""
    n = 5000
    points = [(float(i), 10.0 if i == 1234 else 0.0) for i in range(n)]   # the peak is not kept
    series = svg.Series("elo", points, [y - 1 for _, y in points], [y + 1 for _, y in points])
    chart = svg.line_chart("t", [series], "games", "Elo")
    polyline = ElementTree.fromstring(chart).find(".//{*}polyline").get("points").split()
    band = ElementTree.fromstring(chart).find(".//{*}polygon").get("points").split()
    assert len(polyline) == svg.LINE_POINTS and len(band) == 2 * svg.LINE_POINTS
    frame = svg.Frame(0.0, n - 1.0, -1.6, 11.6)   # every point's range (-1 to 11), padded 5%
    assert polyline[0] == f"{frame.x(0):.1f},{frame.y(0):.1f}"
    assert polyline[-1] == f"{frame.x(n - 1):.1f},{frame.y(0):.1f}"
    assert ">10<" in chart   # a tick for the peak's height: the frame holds every point
    short = svg.Series("elo", points[:svg.LINE_POINTS])
    assert svg.thinned(short) is short
