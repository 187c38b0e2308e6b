"""Charts as PNG: the requested size, something drawn, gaps and odd labels handled."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from PIL import Image

from finance.note.charts import chart_alt_text, chart_png, format_value
from finance.note.model import Chart, Series


def _chart(kind="line", unit="%", series=None, title="Margins") -> Chart:
    return Chart(
        title=title,
        kind=kind,
        unit=unit,
        x=("FY2022", "FY2023", "FY2024"),
        series=series
        or (Series("Gross", (36.1, 37.0, 38.2)), Series("Operating", (11.4, None, 13.0))),
    )


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


@pytest.mark.parametrize(
    ("width", "height", "dpi"), [(1200, 600, 150), (1000, 500, 96), (777, 333, 72)]
)
def test_png_has_the_requested_size(width, height, dpi):
    image = _image(chart_png(_chart(), width_px=width, height_px=height, dpi=dpi))
    assert image.size == (width, height)


@pytest.mark.parametrize("kind", ["line", "bar"])
def test_png_is_not_blank_and_draws_each_series_in_its_own_colour(kind):
    image = _image(chart_png(_chart(kind=kind)))
    colours = {rgb for _, rgb in image.getcolors(maxcolors=1_000_000)}
    assert len(colours) > 10
    blue, orange = (31, 119, 180), (255, 127, 14)  # matplotlib's first two default colours
    assert blue in colours and orange in colours


def test_same_chart_gives_the_same_png():
    assert chart_png(_chart(kind="bar")) == chart_png(_chart(kind="bar"))


def test_gaps_zeros_negatives_and_dollar_signs_draw():
    chart = _chart(
        kind="bar",
        unit="USD m",
        title="Revenue ($m) and $cost$",
        series=(Series("A $", (None, 0.0, -5.0)), Series("B", (None, None, None))),
    )
    assert _image(chart_png(chart)).size == (1200, 600)


def test_alt_text_describes_kind_span_and_values():
    assert chart_alt_text(_chart(kind="bar")) == (
        "Bar chart of Margins for FY2022 to FY2024. "
        "Gross: FY2022 36.1%, FY2023 37%, FY2024 38.2%; "
        "Operating: FY2022 11.4%, FY2023 n/a, FY2024 13%"
    )


def test_format_value_uses_the_unit():
    assert format_value(38.25, "%") == "38.25%"
    assert format_value(11692.7, "USD m") == "11,692.7 USD m"
    assert format_value(None, "%") == "n/a"


def test_drawing_a_chart_leaves_pyplot_alone():
    # A web worker drawing charts through pyplot would keep every figure alive between requests.
    code = (
        "import sys; from finance.note.charts import chart_png; "
        "from finance.note.model import Chart, Series; "
        "chart_png(Chart('t', 'line', '%', ('a',), (Series('s', (1.0,)),))); "
        "print('matplotlib.pyplot' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
