"""The note as a PDF: it opens, reads right, and its numbers are clickable."""

from __future__ import annotations

import ctypes
import re

import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]
import pypdfium2.raw as pdfium_c  # type: ignore[import-untyped,unused-ignore]
import pytest

from finance.note.links import PathLinks
from finance.note.model import Note
from finance.note.pdf import DEJAVU_DIR, render_pdf
from finance.note.pdf_text import PdfFonts
from tests.finance.note.sample import SEC_URL, sample_note

APP = "https://research.example.com"
FONT_DIRS = [
    pytest.param(None, id="helvetica"),
    pytest.param(
        DEJAVU_DIR,
        id="dejavu",
        marks=pytest.mark.skipif(not DEJAVU_DIR.is_dir(), reason="DejaVu fonts not installed"),
    ),
]


def _pdf(data=None, font_dir=None) -> bytes:
    return render_pdf(Note.from_dict(data or sample_note()), PathLinks(APP), font_dir=font_dir)


def _text(pdf: bytes) -> str:
    document = pdfium.PdfDocument(pdf)
    return "\n".join(page.get_textpage().get_text_range() for page in document)


@pytest.mark.parametrize("font_dir", FONT_DIRS)
def test_pdf_opens_and_reads_like_the_note(font_dir):
    pdf = _pdf(font_dir=font_dir)
    assert pdf.startswith(b"%PDF")
    text = _text(pdf)
    assert "Acme Corp: margins keep widening" in text
    assert "Revenue grew to 11,692.7 million" in text
    assert "Income statement (USD millions)" in text
    assert "How the numbers were derived" in text
    assert "Gross margin FY2024 = Gross profit / Revenue" in text
    assert "Effective tax rate of 21% from FY2025" in text
    assert "Acme Corp 10-K 2024, p. 82" in text


def test_numbers_are_link_annotations_to_the_page_viewer_and_api():
    uris = set(re.findall(rb"/URI \(([^)]*)\)", _pdf()))
    revenue = (
        f"{APP}/finance/documents/7/pages/37/?box=310.5,212,352.25,221.5&label=Revenue%20FY2024"
    )
    assert revenue.encode() in uris
    assert SEC_URL.encode() in uris
    assert f"{APP}/finance/documents/7/pages/81/?label=Segments".encode() in uris


def _internal_links(pdf: bytes) -> list[tuple[str, str]]:
    """(text under each in-document link, text of the line its destination points at)."""
    document = pdfium.PdfDocument(pdf)
    found = []
    for page in document:
        position, link = ctypes.c_int(0), pdfium_c.FPDF_LINK()
        while pdfium_c.FPDFLink_Enumerate(page, ctypes.byref(position), ctypes.byref(link)):
            dest = pdfium_c.FPDFLink_GetDest(document, link)
            if not dest:
                continue
            rect = pdfium_c.FS_RECTF()
            pdfium_c.FPDFLink_GetAnnotRect(link, rect)
            text = page.get_textpage().get_text_bounded(
                rect.left, rect.bottom, rect.right, rect.top
            )
            has = [pdfium_c.FPDF_BOOL() for _ in range(3)]
            x, y, zoom = pdfium_c.FS_FLOAT(), pdfium_c.FS_FLOAT(), pdfium_c.FS_FLOAT()
            pdfium_c.FPDFDest_GetLocationInPage(dest, *has, x, y, zoom)
            target = document[pdfium_c.FPDFDest_GetDestPageIndex(document, dest)]
            line = target.get_textpage().get_text_bounded(
                0, y.value - 12, target.get_width(), y.value
            )
            found.append((text.strip(), line))
    return found


def test_derived_and_assumption_numbers_jump_to_their_appendix_entry():
    entries = {
        "38.2%": "Gross margin FY2024 = Gross profit / Revenue",
        "37.0%": "Gross margin FY2023 = Gross profit / Revenue",
        "+1.2 pp": "Gross margin change = Gross margin FY2024 - Gross margin FY2023",
        "21%": "Effective tax rate of 21% from FY2025",
    }
    links = _internal_links(_pdf())
    assert len(links) == 9  # 7 in the body, 2 from one derivation to its derived inputs
    for text, line in links:
        (display,) = [d for d in entries if text.endswith(d)]
        assert re.fullmatch(rf"\[\d\] {re.escape(entries[display])}", line), (text, line)


def test_chart_is_embedded_as_an_image():
    pdf = pdfium.PdfDocument(_pdf())
    images = [
        obj for page in pdf for obj in page.get_objects(filter=[pdfium.raw.FPDF_PAGEOBJ_IMAGE])
    ]
    assert len(images) == 1
    assert images[0].get_px_size() == (1200, 600)


# Greek, >=, times, minus, curly quotes, en dash, CJK, emoji, control and zero-width characters.
ODD = (
    "\u03a9 \u2265 5 \u00d7 2 \u2212 1 \u201cquoted\u201d \u2013 \u4e2d\u6587 \U0001f600 "
    "\x00\x07\ttab\u200b\r\nnew line " + "x" * 300
)


@pytest.mark.parametrize("font_dir", FONT_DIRS)
def test_odd_text_everywhere_never_crashes(font_dir):
    source = {
        "kind": "document",
        "document_id": 1,
        "document": ODD,
        "page": 0,
        "bbox": None,
        "label": ODD,
    }
    number = {"number": {"value": 1, "display": ODD[:30], "source": source}}
    data = {
        "title": ODD,
        "subtitle": ODD,
        "created_at": "2025-01-01",
        "sections": [
            {
                "id": "odd",
                "heading": ODD,
                "blocks": [
                    {"type": "paragraph", "content": [ODD, number]},
                    {"type": "bullets", "items": [[ODD, number], []]},
                    {"type": "table", "caption": ODD, "columns": [], "rows": []},
                    {
                        "type": "table",
                        "caption": ODD,
                        "columns": [ODD, "b"],
                        "rows": [[ODD, number], [[], [ODD, number, number]]],
                        "notes": [ODD],
                    },
                    {
                        "type": "chart",
                        "title": ODD,
                        "kind": "bar",
                        "unit": "$m",
                        "x": [],
                        "series": [],
                    },
                    {
                        "type": "quote",
                        "content": [],
                        "source": {"kind": "assumption", "label": ODD},
                    },
                ],
            },
            {"id": "empty", "heading": "", "blocks": []},
        ],
    }
    text = _text(_pdf(data, font_dir=font_dir))
    assert "new line" in text


def test_core_font_text_is_made_latin1_safe():
    fonts = PdfFonts(family="Helvetica", unicode=False)
    odd = "Margin \u2265 38.2% \u2013 up \u201c2\u00d7\u201d \u2212 0.1\u2026"
    assert fonts.text(odd) == 'Margin >= 38.2% - up "2x" - 0.1...'
    assert fonts.text("Stra\u00dfe \u4e2d\U0001f600") == "Stra\u00dfe ??"


def test_missing_dejavu_falls_back_to_helvetica(tmp_path):
    pdf = render_pdf(Note.from_dict(sample_note()), PathLinks(APP), font_dir=tmp_path)
    assert b"/BaseFont /Helvetica" in pdf
    assert "Acme Corp: margins keep widening" in _text(pdf)
