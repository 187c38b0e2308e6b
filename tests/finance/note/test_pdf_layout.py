"""The PDF note reads cleanly: a chart's legend never covers its lines, and a table's figures
line up at the right edge of their column, whether cited numbers or numbers printed as text."""

from __future__ import annotations

import copy

import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

from finance.note.charts import chart_figure
from finance.note.links import PathLinks
from finance.note.model import Chart, Note, Series
from finance.note.pdf import render_pdf
from tests.finance.note.sample import GROSS_24, REVENUE_24, sample_note


def boxes(page, text: str) -> list[tuple[float, float, float, float]]:
    """Each occurrence of text on the page as (left, bottom, right, top), PDF points."""
    textpage = page.get_textpage()
    searcher = textpage.search(text, match_case=True, match_whole_word=False)
    out = []
    while (found := searcher.get_next()) is not None:
        start, count = found
        chars = [textpage.get_charbox(start + i) for i in range(count)]
        out.append((chars[0][0], min(c[1] for c in chars), max(c[2] for c in chars), chars[0][3]))
    return out


def right_edge(page, text: str, *, below: str) -> float:
    """The right edge of text in the table captioned `below` (within 100 pt under it): the
    prose before and the derivations after quote the same figures."""
    ((_, caption_bottom, _, _),) = boxes(page, below)
    inside = [b for b in boxes(page, text) if caption_bottom - 100 < b[3] < caption_bottom]
    assert len(inside) == 1, f"{text!r} in the table: {inside}"
    return inside[0][2]


def test_table_figures_line_up_at_the_right_edge_of_their_column():
    data = copy.deepcopy(sample_note())
    table = data["sections"][1]["blocks"][0]
    table["columns"] = ["Line item", "FY2024", "FY2023", "Change"]
    changes = ["12.5%", "(3.0)", "-1,234.5", "—"]
    table["rows"] = [[*row, change] for row, change in zip(table["rows"], changes, strict=True)]

    pdf = pdfium.PdfDocument(render_pdf(Note.from_dict(data), PathLinks("https://x.example")))
    page = next(
        p for p in pdf if "Income statement (USD millions)" in p.get_textpage().get_text_range()
    )

    # FY2024 holds cited numbers, Change numbers printed as plain text.
    caption = "Income statement (USD millions)"
    figures_24 = [right_edge(page, n["display"], below=caption) for n in (REVENUE_24, GROSS_24)]
    changes_x = [right_edge(page, change, below=caption) for change in changes[:3]]
    assert max(figures_24) - min(figures_24) < 0.5
    assert max(changes_x) - min(changes_x) < 0.5, changes_x  # right-aligned, not ragged
    assert min(changes_x) > max(figures_24)  # its own column, to the right


def test_a_chart_legend_sits_outside_the_plot():
    chart = Chart(
        title="Margins",
        kind="line",
        unit="%",
        x=("FY2015", "FY2016", "FY2017"),
        series=(
            Series("Gross margin", (32.0, 33.0, 35.0)),
            Series("Operating margin", (34.0, 5.0, 30.0)),
            Series("Net margin", (3.0, 30.5, 4.9)),
        ),
    )  # lines in every corner: no place inside the axes is free

    figure = chart_figure(chart)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()

    (legend,) = figure.legends
    assert [t.get_text() for t in legend.get_texts()] == [
        "Gross margin", "Operating margin", "Net margin",
    ]  # fmt: skip
    assert not legend.get_window_extent(renderer).overlaps(
        figure.axes[0].get_window_extent(renderer)
    )
    assert figure.axes[0].get_legend() is None
