"""Chart blocks drawn as PNG with matplotlib's Agg canvas (no pyplot, so no global state)."""

from __future__ import annotations

import io
import math
import warnings

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, PercentFormatter

from finance.note.model import Chart
from finance.note.plain_text import without_control_characters

DEFAULT_WIDTH_PX = 1200
DEFAULT_HEIGHT_PX = 600
DEFAULT_DPI = 150
LEGEND_COLUMNS = 4  # series names per legend row


def chart_png(
    block: Chart,
    *,
    width_px: int = DEFAULT_WIDTH_PX,
    height_px: int = DEFAULT_HEIGHT_PX,
    dpi: int = DEFAULT_DPI,
) -> bytes:
    """The chart as a PNG of exactly width_px x height_px; None values are left as gaps."""
    figure = chart_figure(block, width_px=width_px, height_px=height_px, dpi=dpi)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # Characters DejaVu lacks (CJK, emoji) are drawn as boxes; that is not worth a warning.
        warnings.filterwarnings(
            "ignore", message="Glyph .* missing from font", category=UserWarning
        )
        figure.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    return buffer.getvalue()


def chart_figure(
    block: Chart,
    *,
    width_px: int = DEFAULT_WIDTH_PX,
    height_px: int = DEFAULT_HEIGHT_PX,
    dpi: int = DEFAULT_DPI,
) -> Figure:
    """The chart's figure; a legend (two series or more) sits below the plot, never over it."""
    figure = Figure(figsize=(width_px / dpi, height_px / dpi), dpi=dpi, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    positions = list(range(len(block.x)))
    if block.kind == "line":
        for series in block.series:
            values = [math.nan if v is None else v for v in series.values]
            axes.plot(positions, values, marker="o", markersize=4, label=_plain(series.name))
    else:
        width = 0.8 / max(len(block.series), 1)
        for i, series in enumerate(block.series):
            offset = (i - (len(block.series) - 1) / 2) * width
            present = [
                (p + offset, v)
                for p, v in zip(positions, series.values, strict=True)
                if v is not None
            ]
            axes.bar(
                [p for p, _ in present],
                [v for _, v in present],
                width=width,
                label=_plain(series.name),
            )
        axes.axhline(0, color="#444444", linewidth=0.8)
    axes.set_xticks(positions, labels=[_plain(x) for x in block.x])
    if len(block.x) > 8:
        axes.tick_params(axis="x", labelrotation=45)
    axes.set_title(_plain(block.title))
    if block.unit == "%":
        axes.yaxis.set_major_formatter(PercentFormatter(xmax=100, decimals=None))
    else:
        axes.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:,g}"))
        if block.unit:
            axes.set_ylabel(_plain(block.unit))
    if len(block.series) > 1:
        # Outside the axes (constrained layout makes room): a legend inside covers lines
        # wherever the series fill the plot, as margins and growth rates over years do.
        figure.legend(
            loc="outside lower center",
            ncols=min(len(block.series), LEGEND_COLUMNS),
            frameon=False,
        )
    axes.grid(axis="y", alpha=0.3)
    axes.spines[["top", "right"]].set_visible(False)
    return figure


def chart_alt_text(block: Chart) -> str:
    """A sentence describing the chart and its values, for people who cannot see it."""
    kind = "Line chart" if block.kind == "line" else "Bar chart"
    span = f" for {block.x[0]} to {block.x[-1]}" if block.x else ""
    values = "; ".join(
        f"{series.name}: "
        + ", ".join(
            f"{x} {format_value(v, block.unit)}"
            for x, v in zip(block.x, series.values, strict=True)
        )
        for series in block.series
    )
    return f"{kind} of {block.title}{span}. {values}".strip()


def format_value(value: float | None, unit: str) -> str:
    """A chart value as text: "38.2%", "1,234.5 USD m", or "n/a" for a gap."""
    if value is None:
        return "n/a"
    text = f"{value:,.2f}".rstrip("0").rstrip(".")
    if unit == "%":
        return f"{text}%"
    return f"{text} {unit}" if unit else text


def _plain(text: str) -> str:
    # matplotlib reads "$...$" as mathtext; a lone "$" in "Revenue ($m)" would fail to draw.
    return without_control_characters(text).replace("$", r"\$")
