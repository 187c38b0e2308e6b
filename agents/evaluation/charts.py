"""Charts as inline SVG built on the server: plain functions from points to markup, no script.

Every text and attribute value placed in the markup is escaped here, so a caller may mark the
result safe. Colours follow static/css/app.css.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from html import escape

SERIES_COLOURS = ("#2f6feb", "#8250df", "#bf8700", "#1b7c83", "#6b7385")
TONES = {"ok": "#1a7f37", "bad": "#cf222e", "muted": "#6b7385"}
INK, MUTED, LINE = "#1d2330", "#6b7385", "#dde2ea"
WIDTH = 960
LINE_HEIGHT = 260
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 56, 40, 34, 46
BAR_ROW, BAR_LABEL_WIDTH, BAR_LABEL_CHARS = 26, 210, 30


@dataclass(frozen=True)
class Point:
    """One value at one time; `hollow` points are drawn but not joined by the series' line."""

    when: datetime
    value: float
    label: str = ""
    """The tooltip."""
    href: str = ""
    key: str = ""
    """Written as data-key, so a page (or a test) can tell which row a point stands for."""
    hollow: bool = False
    tone: str = ""
    """ok, bad or muted: the marker's colour instead of the series colour."""


@dataclass(frozen=True)
class Series:
    name: str
    points: Sequence[Point]


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    href: str = ""


def line_chart(
    series: Sequence[Series],
    *,
    title: str,
    y_label: str,
    x_label: str,
    floor: float | None = None,
    percent: bool = True,
    empty: str = "No data yet.",
) -> str:
    """Values in [0, 1] over time, one line per series, with axes, a legend and a floor line."""
    points = [point for line in series for point in line.points]
    plot = _Plot(points)
    parts = [_open(WIDTH, LINE_HEIGHT, title), *_y_axis(percent), *plot.x_axis()]
    parts += _axis_labels(y_label, x_label)
    if floor is not None and 0 <= floor <= 1:
        parts += _floor(floor, percent)
    if not points:
        parts.append(_text(WIDTH / 2, LINE_HEIGHT / 2, empty, anchor="middle", fill=MUTED))
    for index, line in enumerate(series):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        parts += _series(plot, line, colour)
    parts += _legend(series, hollow=any(point.hollow for point in points))
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(bars: Sequence[Bar], *, title: str, x_label: str, empty: str = "Nothing.") -> str:
    """Horizontal bars, longest first as given, each labelled with its name and count."""
    rows = max(len(bars), 1)
    height = MARGIN_TOP + rows * BAR_ROW + 8
    left, right = BAR_LABEL_WIDTH, WIDTH - MARGIN_RIGHT - 32
    top_value = max((bar.value for bar in bars), default=0) or 1
    parts = [_open(WIDTH, height, title)]
    parts.append(_text(left, MARGIN_TOP - 12, x_label, fill=MUTED))
    if not bars:
        parts.append(_text(left, MARGIN_TOP + BAR_ROW / 2 + 4, empty, fill=MUTED))
    for index, bar in enumerate(bars):
        y = MARGIN_TOP + index * BAR_ROW
        length = max((right - left) * bar.value / top_value, 2)
        label = bar.label if len(bar.label) <= BAR_LABEL_CHARS else bar.label[:29] + "…"
        shapes = (
            f'<g class="bar" data-label="{_attr(bar.label)}" data-value="{bar.value}">'
            f"<title>{_attr(bar.label)}: {bar.value}</title>"
            + _text(left - 8, y + 17, label, anchor="end")
            + f'<rect x="{left}" y="{y + 4}" width="{length:.1f}" height="{BAR_ROW - 8}" '
            f'rx="3" fill="{TONES["bad"]}"/>'
            + _text(left + length + 6, y + 17, str(bar.value))
            + "</g>"
        )
        parts.append(_link(bar.href, shapes))
    parts.append("</svg>")
    return "".join(parts)


class _Plot:
    """Where a time and a value land inside the plotting area."""

    def __init__(self, points: Sequence[Point]) -> None:
        stamps = [point.when.timestamp() for point in points]
        self.first, self.last = (min(stamps), max(stamps)) if stamps else (0.0, 0.0)
        self.left, self.right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
        self.top, self.bottom = MARGIN_TOP, LINE_HEIGHT - MARGIN_BOTTOM
        self.times = sorted(point.when for point in points)

    def x(self, when: datetime) -> float:
        span = self.last - self.first
        if span <= 0:
            return (self.left + self.right) / 2
        inner = self.right - self.left - 20
        return self.left + 10 + inner * (when.timestamp() - self.first) / span

    def y(self, value: float) -> float:
        clamped = min(max(value, 0.0), 1.0)
        return self.bottom - (self.bottom - self.top) * clamped

    def x_axis(self) -> list[str]:
        parts = [_line(self.left, self.bottom, self.right, self.bottom, INK)]
        if not self.times:
            return parts
        first, last = self.times[0], self.times[-1]
        ticks = [first] if first == last else [first + (last - first) * i / 4 for i in range(5)]
        long_span = (last - first).total_seconds() > 2 * 86400
        for when in ticks:
            x = self.x(when)
            text = f"{when.day} {when:%b}" if long_span else f"{when.day} {when:%b %H:%M}"
            parts.append(_line(x, self.bottom, x, self.bottom + 4, INK))
            parts.append(_text(x, self.bottom + 17, text, anchor="middle", size=11, fill=MUTED))
        return parts


def _y_axis(percent: bool) -> list[str]:
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    top, bottom = MARGIN_TOP, LINE_HEIGHT - MARGIN_BOTTOM
    parts = [_line(left, top, left, bottom, INK)]
    for step in range(5):
        value = step / 4
        y = bottom - (bottom - top) * value
        if step:
            parts.append(_line(left, y, right, y, LINE))
        parts.append(_text(left - 6, y + 4, _format(value, percent), anchor="end", size=11))
    return parts


def _axis_labels(y_label: str, x_label: str) -> list[str]:
    middle = (MARGIN_TOP + LINE_HEIGHT - MARGIN_BOTTOM) / 2
    centre = (MARGIN_LEFT + WIDTH - MARGIN_RIGHT) / 2
    return [
        f'<text x="14" y="{middle:.1f}" transform="rotate(-90 14 {middle:.1f})" '
        f'text-anchor="middle" font-size="12" fill="{MUTED}">{_attr(y_label)}</text>',
        _text(centre, LINE_HEIGHT - 8, x_label, anchor="middle", size=12, fill=MUTED),
    ]


def _floor(floor: float, percent: bool) -> list[str]:
    y = MARGIN_TOP + (LINE_HEIGHT - MARGIN_BOTTOM - MARGIN_TOP) * (1 - floor)
    right = WIDTH - MARGIN_RIGHT
    label = f"floor {_format(floor, percent)}"
    return [
        f'<g class="floor" data-value="{floor:g}">'
        f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}" '
        f'stroke="{TONES["bad"]}" stroke-dasharray="6 4" stroke-width="1.2"/>'
        + _text(right - 4, y - 5, label, anchor="end", size=11, fill=TONES["bad"])
        + "</g>"
    ]


def _series(plot: _Plot, line: Series, colour: str) -> list[str]:
    ordered = sorted(line.points, key=lambda point: point.when)
    joined = [point for point in ordered if not point.hollow]
    parts = [f'<g class="series" data-series="{_attr(line.name)}">']
    if len(joined) > 1:
        path = " ".join(f"{plot.x(p.when):.1f},{plot.y(p.value):.1f}" for p in joined)
        parts.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for point in ordered:
        parts.append(_link(point.href, _marker(plot, point, colour)))
    parts.append("</g>")
    return parts


def _marker(plot: _Plot, point: Point, colour: str) -> str:
    stroke = TONES.get(point.tone, colour)
    fill = "#fff" if point.hollow else stroke
    kind = "point hollow" if point.hollow else "point"
    return (
        f'<circle class="{kind}" cx="{plot.x(point.when):.1f}" cy="{plot.y(point.value):.1f}" '
        f'r="4.5" fill="{fill}" stroke="{stroke}" stroke-width="2" '
        f'data-key="{_attr(point.key)}" data-value="{round(point.value, 4):g}">'
        f"<title>{_attr(point.label)}</title></circle>"
    )


def _legend(series: Sequence[Series], *, hollow: bool) -> list[str]:
    parts, x = [], float(MARGIN_LEFT)
    for index, line in enumerate(series):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        parts.append(_line(x, 14, x + 18, 14, colour, width=2.5))
        parts.append(_text(x + 23, 18, line.name, size=12))
        x += 23 + 7 * len(line.name) + 18
    if hollow:
        parts.append(
            f'<circle cx="{x + 5:.1f}" cy="14" r="4" fill="#fff" stroke="{MUTED}" '
            'stroke-width="2"/>'
        )
        parts.append(_text(x + 14, 18, "subset (--quick / --tasks), not joined", size=12))
    return parts


def _open(width: int, height: int, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{_attr(title)}">'
        f"<title>{_attr(title)}</title>"
    )


def _link(href: str, inner: str) -> str:
    return f'<a href="{_attr(href)}">{inner}</a>' if href else inner


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: float = 1) -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="{width}"/>'
    )


def _text(
    x: float, y: float, text: str, *, anchor: str = "start", size: int = 12, fill: str = INK
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" '
        f'fill="{fill}">{_attr(text)}</text>'
    )


def _format(value: float, percent: bool) -> str:
    return f"{value:.0%}" if percent else f"{value:.2f}"


def _attr(text: str) -> str:
    return escape(text, quote=True)
