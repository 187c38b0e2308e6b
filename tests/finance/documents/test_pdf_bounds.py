"""The bounds a PDF must keep before it is read: inflated bytes measured in bounded steps, pages
bounded by pixels, and no real filing refused."""

from __future__ import annotations

import math
import resource
import time
import zlib
from pathlib import Path

import pytest

from finance.documents.errors import DocumentError
from finance.documents.pdf_bounds import PdfBounds, check_inflated_sizes, inflated_size
from finance.documents.pdf_page import bounded_scale
from tests.finance.pdf_bombs import flate_bomb_pdf, spaces_deflated, text_pages_pdf
from tests.finance.uploads import FILINGS, needs_filings

MB = 1 << 20


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def test_streams_are_measured_in_bounded_steps():
    bomb = spaces_deflated(1 << 30)
    before, started = peak_mb(), time.monotonic()

    measured = inflated_size(bomb, layers=1, limit=64 * MB)
    whole = inflated_size(spaces_deflated(8 * MB), layers=1, limit=64 * MB)

    assert 64 * MB < measured <= 65 * MB and whole == 8 * MB
    assert time.monotonic() - started < 1 and peak_mb() - before < 50


def test_a_stream_deflated_twice_is_measured_through_both_layers():
    twice = zlib.compress(spaces_deflated(256 * MB))  # 1 KB, 256 MiB inside
    pdf = text_pages_pdf(pages=1, shared=twice, filters=2)

    assert len(pdf) < 5_000
    with pytest.raises(DocumentError, match="inflates past 64 MB"):
        check_inflated_sizes(pdf, PdfBounds())


def test_pixels_bound_the_scale_of_any_page():
    assert bounded_scale(612, 792, scale=3, max_pixels=16_000_000) == 3  # a letter page
    fitted = bounded_scale(14400, 14400, scale=3, max_pixels=16_000_000)
    assert fitted < 0.28 and math.ceil(14400 * fitted) ** 2 <= 16_000_000


@needs_filings
def test_real_filings_pass_the_bounds_in_well_under_a_second():
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    from finance.documents.pdf_bounds import check_page_sizes

    for path in sorted(Path(FILINGS).glob("*.pdf")):
        data = path.read_bytes()
        started = time.monotonic()
        check_inflated_sizes(data, PdfBounds())
        pdf = pdfium.PdfDocument(data)
        check_page_sizes(pdf, PdfBounds())
        pdf.close()
        assert time.monotonic() - started < 1, path.name


def test_an_encrypted_bomb_is_measured_through_its_encryption():
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    bomb = flate_bomb_pdf(pages=200, inflated=1 << 30, encrypt=True)  # as EDGAR filings are
    pdf = pdfium.PdfDocument(bomb)  # anyone can open it: the user password is empty
    assert len(pdf) == 200 and "Annual report" in pdf[0].get_textpage().get_text_range()
    pdf.close()
    started = time.monotonic()

    with pytest.raises(DocumentError, match="inflates past 64 MB"):
        check_inflated_sizes(bomb, PdfBounds())

    assert time.monotonic() - started < 1
