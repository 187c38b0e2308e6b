"""The SVG charts, without a database: points land where their values say, text is escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta

from agents.evaluation.charts import Bar, Point, Series, bar_chart, line_chart

SVG = "{http://www.w3.org/2000/svg}"
T0 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def parse(svg: str) -> ET.Element:
    """The markup is well-formed XML (a browser would otherwise drop or mangle it)."""
    return ET.fromstring(svg)


def circles(root: ET.Element) -> list[ET.Element]:
    return [c for c in root.iter(f"{SVG}circle") if "point" in c.get("class", "")]


def chart(*series: Series, **options) -> ET.Element:
    defaults = {"title": "Pass rate", "y_label": "pass rate", "x_label": "finished (UTC)"}
    return parse(line_chart(list(series), **{**defaults, **options}))


def test_a_line_chart_has_one_marker_per_point_at_its_value():
    rates = [0.5, 1.0, 0.0]
    points = [Point(T0 + timedelta(days=day), rate) for day, rate in enumerate(rates)]

    root = chart(Series("offline", points))

    markers = circles(root)
    assert [m.get("data-value") for m in markers] == ["0.5", "1", "0"]
    heights = [float(m.attrib["cy"]) for m in markers]
    assert heights[1] < heights[0] < heights[2]  # higher rate, higher on the page
    xs = [float(m.attrib["cx"]) for m in markers]
    assert xs == sorted(xs) and xs[0] < xs[2]
    line = root.find(f".//{SVG}polyline")
    assert line is not None and len(line.get("points").split()) == 3


def test_hollow_points_are_drawn_but_not_joined():
    points = [
        Point(T0, 0.5),
        Point(T0 + timedelta(hours=1), 0.9, hollow=True),
        Point(T0 + timedelta(hours=2), 0.75),
    ]

    root = chart(Series("offline", points))

    markers = circles(root)
    assert [m.get("class") for m in markers] == ["point", "point hollow", "point"]
    assert markers[1].get("fill") == "#fff"
    assert len(root.find(f".//{SVG}polyline").get("points").split()) == 2
    assert "subset" in line_chart([Series("x", points)], title="t", y_label="y", x_label="x")


def test_axes_are_labelled_and_the_floor_is_drawn():
    root = chart(Series("offline", [Point(T0, 0.8)]), floor=0.7)

    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "pass rate" in texts and "finished (UTC)" in texts
    assert "0%" in texts and "100%" in texts and "floor 70%" in texts
    floor = root.find(f".//{SVG}g[@class='floor']")
    assert floor is not None and floor.get("data-value") == "0.7"


def test_a_reward_chart_shows_decimals_and_colours_markers_by_tone():
    points = [Point(T0, 1.0, tone="ok"), Point(T0 + timedelta(days=1), 0.25, tone="bad")]

    root = chart(Series("reward", points), percent=False)

    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "1.00" in texts and "0.50" in texts and "100%" not in texts
    assert [m.get("fill") for m in circles(root)] == ["#1a7f37", "#cf222e"]


def test_a_chart_without_points_says_so():
    root = chart(Series("offline", []), empty="No finished evaluations.")

    assert not circles(root)
    assert "No finished evaluations." in [t.text for t in root.iter(f"{SVG}text")]


def test_a_single_point_or_equal_times_do_not_divide_by_zero():
    root = chart(Series("a", [Point(T0, 0.4), Point(T0, 0.6)]))

    assert {m.get("cx") for m in circles(root)} == {circles(root)[0].get("cx")}


def test_every_text_and_link_is_escaped():
    hostile = '<script>alert("x")</script>&'
    point = Point(T0, 0.5, label=hostile, href='/e/1/?a="b"&c=<d>', key=hostile)

    svg = line_chart([Series(hostile, [point])], title=hostile, y_label=hostile, x_label=hostile)
    bars = bar_chart([Bar(hostile, 2, href="?check=<x>")], title=hostile, x_label=hostile)

    for markup in (svg, bars):
        assert "<script>" not in markup and '"x")' not in markup
        root = parse(markup)  # still well-formed: nothing broke out of its attribute
        assert root.find(f"{SVG}title").text == hostile
    link = parse(svg).find(f".//{SVG}a")
    assert link.get("href") == '/e/1/?a="b"&c=<d>'


def test_a_bar_chart_counts_each_bar_and_scales_to_the_largest():
    bars = [Bar("object_count", 4, href="?check=object_count"), Bar("size", 1)]

    root = parse(bar_chart(bars, title="Failed checks", x_label="failed checks"))

    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "bar"]
    assert [(g.get("data-label"), g.get("data-value")) for g in groups] == [
        ("object_count", "4"),
        ("size", "1"),
    ]
    widths = [float(g.find(f"{SVG}rect").attrib["width"]) for g in groups]
    assert abs(widths[0] - 4 * widths[1]) < 0.5
    assert root.find(f"{SVG}a").get("href") == "?check=object_count"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "4" in texts and "1" in texts


def test_long_bar_labels_are_shortened_but_kept_whole_in_the_tooltip():
    name = "a_verifier_with_a_very_long_descriptive_name"

    svg = bar_chart([Bar(name, 3)], title="t", x_label="x")

    assert re.search(r">a_verifier_with_a_very_long_d…<", svg)
    assert f"<title>{name}: 3</title>" in svg


def test_an_empty_bar_chart_says_so():
    svg = bar_chart([], title="t", x_label="x", empty="No failed checks.")

    assert "No failed checks." in svg and "<rect" not in svg
