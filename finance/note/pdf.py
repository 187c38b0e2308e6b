"""The note as an A4 PDF (fpdf2): numbers are clickable links, charts are PNG images."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TypeAlias

from fpdf import FPDF
from fpdf.fonts import FontFace

from finance.note.charts import chart_png
from finance.note.citations import (
    Citations,
    collect_citations,
    external_url,
    source_credit,
)
from finance.note.links import NoteLinks
from finance.note.model import (
    AssumptionSource,
    Block,
    Bullets,
    Cell,
    Chart,
    DerivedSource,
    Inline,
    Link,
    Note,
    Number,
    Paragraph,
    Source,
    Table,
)
from finance.note.pdf_text import PdfFonts, load_fonts

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
LINK_COLOR = (0, 70, 160)
LINE = 5.0  # mm, line height of body text

Piece: TypeAlias = tuple[str, str | int | None]  # text, and the URL or internal link it opens


def render_pdf(note: Note, links: NoteLinks, *, font_dir: Path | None = DEJAVU_DIR) -> bytes:
    """The note as PDF bytes; DejaVu from `font_dir` when present, else Helvetica (latin-1)."""
    return _PdfNote(note, links, font_dir).render()


class _PdfNote:
    def __init__(self, note: Note, links: NoteLinks, font_dir: Path | None) -> None:
        self.note = note
        self.links = links
        self.citations: Citations = collect_citations(note)
        self.pdf = FPDF(orientation="portrait", unit="mm", format="A4")
        self.pdf.set_margins(18, 18, 18)
        self.pdf.set_auto_page_break(auto=True, margin=18)
        self.fonts: PdfFonts = load_fonts(self.pdf, font_dir)
        self.derived_links: dict[int, int] = {}  # entry number -> fpdf2 link id
        self.assumption_links: dict[int, int] = {}

    def render(self) -> bytes:
        pdf, note = self.pdf, self.note
        pdf.set_title(self.fonts.text(note.title))
        pdf.add_page()
        # Appendix entries are written last: reserve their link targets (on page 1 until moved).
        self.derived_links = {n: pdf.add_link() for n in self.citations.derived.values()}
        self.assumption_links = {n: pdf.add_link() for n in self.citations.assumptions.values()}
        self.font("B", 20)
        pdf.multi_cell(0, 9, self.fonts.text(note.title), new_x="LMARGIN", new_y="NEXT")
        if note.subtitle:
            self.font("I", 12)
            pdf.multi_cell(0, 6, self.fonts.text(note.subtitle), new_x="LMARGIN", new_y="NEXT")
        self.font("", 9)
        pdf.cell(
            0, 6, self.fonts.text(f"Created {note.created_at[:10]}"), new_x="LMARGIN", new_y="NEXT"
        )
        for section in note.sections:
            self.heading(section.heading)
            for block in section.blocks:
                self.block(block)
        self.appendices()
        return bytes(pdf.output())

    def font(self, style: str = "", size: float = 10) -> None:
        self.pdf.set_font(self.fonts.family, style, size)

    def heading(self, text: str) -> None:
        self.pdf.ln(4)
        self.keep_together(20)
        self.pdf.start_section(self.fonts.text(text) or "Section")
        self.font("B", 14)
        self.pdf.multi_cell(0, 8, self.fonts.text(text), new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(1)

    def keep_together(self, height: float) -> None:
        # A link target set just before a page break would point at the foot of the old page.
        if self.pdf.will_page_break(height):
            self.pdf.add_page()

    # --- blocks ------------------------------------------------------------------------------

    def block(self, block: Block) -> None:
        if isinstance(block, Paragraph):
            self.font()
            self.write(self.pieces(block.content))
            self.pdf.ln(LINE + 2)
        elif isinstance(block, Bullets):
            self.font()
            for item in block.items:
                self.indented(5, "\u2022" if self.fonts.unicode else "-", self.pieces(item))
            self.pdf.ln(2)
        elif isinstance(block, Table):
            self.table(block)
        elif isinstance(block, Chart):
            self.chart(block)
        else:
            self.font("I")
            self.indented(8, "", self.pieces(block.content))
            self.font("", 9)
            credit = (source_credit(block.source), self.target(block.source))
            self.indented(8, "", [("\u2014 ", None), credit])
            self.pdf.ln(2)

    def indented(self, indent: float, marker: str, pieces: list[Piece]) -> None:
        pdf, margin = self.pdf, self.pdf.l_margin
        pdf.set_left_margin(margin + indent)
        pdf.set_x(margin)
        pdf.write(LINE, self.fonts.text(marker))
        pdf.set_x(margin + indent)
        self.write(pieces)
        pdf.ln(LINE)
        pdf.set_left_margin(margin)

    def table(self, table: Table) -> None:
        pdf = self.pdf
        self.font("B", 10)
        pdf.multi_cell(0, LINE, self.fonts.text(table.caption), new_x="LMARGIN", new_y="NEXT")
        if not table.columns:
            return
        self.font("", 9)
        numeric = numeric_columns(table)
        widths = self.column_widths(table)
        link_style = FontFace(color=LINK_COLOR)
        with pdf.table(
            width=pdf.epw,
            col_widths=widths,
            text_align="LEFT",
            borders_layout="HORIZONTAL_LINES",
            line_height=4.5,
        ) as grid:
            header = grid.row()
            for column, right in zip(table.columns, numeric, strict=True):
                header.cell(self.fonts.text(column), align="RIGHT" if right else "LEFT")
            for cells in table.rows:
                row = grid.row()
                for cell, right in zip(cells, numeric, strict=True):
                    text, link = self.cell_content(cell)
                    style = link_style if link is not None else None
                    row.cell(text, align="RIGHT" if right else "LEFT", link=link, style=style)
        if table.notes:
            pdf.ln(1)
            self.font("", 8)
            self.write(self.pieces(table.notes), line=4)
            pdf.ln(4)
        pdf.ln(3)

    def column_widths(self, table: Table) -> list[float]:
        """Each column as wide as its widest cell or bold heading (so figures do not wrap and
        line up at the right edge); the room left over goes to the label column."""
        pdf = self.pdf
        padding = 2 * pdf.c_margin + 2
        natural = []
        for i, column in enumerate(table.columns):
            self.font("B", 9)
            widest = pdf.get_string_width(self.fonts.text(column))
            self.font("", 9)
            for cells in table.rows:
                widest = max(widest, pdf.get_string_width(self.cell_content(cells[i])[0]))
            natural.append(min(widest + padding, pdf.epw * MAX_COLUMN_SHARE))
        self.font("", 9)
        spare = pdf.epw - sum(natural)
        if spare > 0:
            natural[0] += spare
        return natural

    def cell_content(self, cell: Cell) -> Piece:
        """A cell as plain text, linked when it cites exactly one source."""
        items = cell if isinstance(cell, tuple) else (cell,)
        text = "".join(self.fonts.text(_plain(item)) for item in items)
        cited = [item.source for item in items if isinstance(item, Number | Link)]
        return text, self.target(cited[0]) if len(cited) == 1 else None

    def chart(self, chart: Chart) -> None:
        pdf = self.pdf
        width = pdf.epw
        height = width / 2  # chart_png draws 2:1 by default
        self.keep_together(height + 6)
        # The PNG carries the chart's title, so it is not repeated here.
        pdf.image(io.BytesIO(chart_png(chart)), w=width, h=height)
        if chart.caption:
            self.font("", 9)
            self.write(self.pieces(chart.caption))
            pdf.ln(LINE)
        pdf.ln(3)

    # --- inline content ----------------------------------------------------------------------

    def pieces(self, items: tuple[Inline, ...]) -> list[Piece]:
        return [
            (item, None) if isinstance(item, str) else (_plain(item), self.target(item.source))
            for item in items
        ]

    def write(self, pieces: list[Piece], *, line: float = LINE) -> None:
        for text, link in pieces:
            if link is None:
                self.pdf.write(line, self.fonts.text(text))
                continue
            self.pdf.set_text_color(*LINK_COLOR)
            self.pdf.write(line, self.fonts.text(text), link=link)
            self.pdf.set_text_color(0, 0, 0)

    def target(self, source: Source) -> str | int:
        """An URL for documents and APIs; an internal link to the appendix otherwise."""
        if isinstance(source, DerivedSource):
            return self.derived_links[self.citations.number_of(source)]
        if isinstance(source, AssumptionSource):
            return self.assumption_links[self.citations.number_of(source)]
        return external_url(source, self.links)

    # --- appendices --------------------------------------------------------------------------

    def appendices(self) -> None:
        pdf = self.pdf
        if self.citations.derived:
            self.heading("How the numbers were derived")
            for source, n in self.citations.derived.items():
                self.keep_together(LINE * (2 + len(source.inputs)))
                pdf.set_link(self.derived_links[n], page=pdf.page, y=pdf.get_y())
                self.font("B")
                pdf.write(LINE, self.fonts.text(f"[{n}] {source.label}"))
                self.font()
                pdf.write(LINE, self.fonts.text(f" = {source.formula}"))
                pdf.ln(LINE)
                for number in source.inputs:
                    label = f"{number.source.label or 'Input'}: "
                    self.indented(5, "-", [(label, None), *self.pieces((number,))])
                pdf.ln(2)
        if self.citations.assumptions:
            self.heading("Assumptions")
            self.font()
            for label, n in self.citations.assumptions.items():
                self.keep_together(LINE * 2)
                pdf.set_link(self.assumption_links[n], page=pdf.page, y=pdf.get_y())
                pdf.multi_cell(
                    0, LINE, self.fonts.text(f"[{n}] {label}"), new_x="LMARGIN", new_y="NEXT"
                )
        if self.citations.pages or self.citations.apis:
            self.heading("Sources")
            self.font()
            for page in self.citations.document_pages():
                url = self.links.page(page.document_id, page.page, None, page.document)
                self.indented(5, "-", [(page.label, url)])
            for api in self.citations.apis.values():
                retrieved = f" (retrieved {api.retrieved_at})"
                self.indented(
                    5, "-", [(f"{api.provider}: ", None), (api.url, api.url), (retrieved, None)]
                )


NUMBER_TEXT = re.compile(r"^[-+\u2212(]?[$€£]?\d[\d,]*(?:\.\d+)?\)?(?:%|x| ?pp)?$")
BLANK_TEXT = frozenset({"", "-", "\u2013", "\u2014", "n/a", "n.a.", "na", "nm", "n.m."})
MAX_COLUMN_SHARE = 0.6  # of the page width, for one column


def numeric_columns(table: Table) -> list[bool]:
    """For each column, whether to right-align it: it holds numbers (cited or printed as text,
    "38.2%", "1,234.5", "(12.0)") and nothing but numbers and blanks ("—", "n/a")."""
    out = table.numeric_columns()
    for i in range(len(table.columns)):
        kinds = [_number_kind(row[i]) for row in table.rows]
        if not out[i] and True in kinds and False not in kinds:
            out[i] = True
    return out


def _number_kind(cell: Cell) -> bool | None:
    """True for a number, None for a blank, False for words."""
    items = cell if isinstance(cell, tuple) else (cell,)
    if any(isinstance(item, Number) for item in items):
        return True
    text = "".join(_plain(item) for item in items).strip()
    if text.lower() in BLANK_TEXT:
        return None
    return NUMBER_TEXT.match(text.replace(" ", "")) is not None


def _plain(item: Inline) -> str:
    if isinstance(item, Number):
        return item.display
    return item.text if isinstance(item, Link) else item
