"""Ingestion: page text, metadata, cache, progress, parallel extraction, and bad input."""

from __future__ import annotations

import time

import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]
import pytest

from finance.documents.ingest import (
    DocumentError,
    ParsedDocument,
    chunk_text,
    extract_pages,
    ingest_html,
    ingest_pdf,
    pdf_error,
)
from tests.finance.documents.helpers import (
    FILINGS,
    build_pdf,
    encrypted_pdf,
    image_only_pdf,
    png_bytes,
    require,
)


@pytest.fixture(scope="module")
def cvs_bytes():
    return require(FILINGS / "CVSHEALTH_2018_10K.pdf").read_bytes()


@pytest.fixture(scope="module")
def netflix_bytes():
    return require(FILINGS / "NETFLIX_2017_10K.pdf").read_bytes()


def test_long_pdf_pages_metadata_progress(cvs_bytes):
    calls: list[tuple[int, int]] = []
    doc = ingest_pdf(
        cvs_bytes, cache_dir=None, workers=2, progress=lambda d, t: calls.append((d, t))
    )
    assert doc.page_count == 392 == len(doc.pages)
    assert doc.company == "CVS HEALTH CORPORATION"
    assert "CVS" in doc.title
    assert doc.metadata["Subject"] == "10-K"
    assert len(doc.sha256) == 64
    assert "Consolidated Statements of Operations" in doc.pages[301]
    assert "\r" not in doc.pages[301] and "\u00a0" not in doc.pages[301]
    # progress: monotonic, ends at (total, total)
    assert calls[-1] == (392, 392)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    assert all(t == 392 for _, t in calls)


def test_parallel_extraction_matches_sequential(cvs_bytes):
    one = extract_pages(cvs_bytes, 392, workers=1)
    two = extract_pages(cvs_bytes, 392, workers=2)
    assert one == two


def test_cache_roundtrip_is_fast(netflix_bytes, tmp_path):
    start = time.perf_counter()
    cold = ingest_pdf(netflix_bytes, cache_dir=tmp_path)
    cold_s = time.perf_counter() - start
    assert (tmp_path / f"{cold.sha256}.json").exists()
    assert not cold.from_cache
    warm_s = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        warm = ingest_pdf(netflix_bytes, cache_dir=tmp_path)
        warm_s = min(warm_s, time.perf_counter() - start)
    assert warm.from_cache
    assert warm.pages == cold.pages and warm.sections == cold.sections
    assert warm.company == cold.company and warm.page_count == cold.page_count
    # The benchmark (bench/ingest_10k.py) measures >= 100x on the 392-page CVS filing; a
    # lower floor here keeps a loaded test machine from failing the suite.
    assert cold_s / warm_s > 20, (cold_s, warm_s)


def test_corrupt_cache_entry_is_ignored(netflix_bytes, tmp_path):
    doc = ingest_pdf(netflix_bytes, cache_dir=tmp_path)
    (tmp_path / f"{doc.sha256}.json").write_text("{not json")
    again = ingest_pdf(netflix_bytes, cache_dir=tmp_path)
    assert not again.from_cache and again.pages == doc.pages


def test_to_dict_from_dict_roundtrip(netflix_bytes):
    doc = ingest_pdf(netflix_bytes, cache_dir=None)
    back = ParsedDocument.from_dict(doc.to_dict())
    assert back.to_dict() == doc.to_dict()
    assert back.statement_pages == {"income_statement": 41, "balance_sheet": 44, "cash_flow": 43}


# --- bad input ----------------------------------------------------------------------------------


def test_empty_bytes():
    with pytest.raises(DocumentError, match="empty"):
        ingest_pdf(b"", cache_dir=None)


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"Revenue was $1,000 million in 2018.\n", "not a PDF"),
        (png_bytes(), "PNG"),
        (b"<!DOCTYPE html><html><body>10-K</body></html>", "HTML"),
    ],
    ids=["text", "png", "html"],
)
def test_not_a_pdf(data, match):
    with pytest.raises(DocumentError, match=match):
        ingest_pdf(data, cache_dir=None)


def test_truncated_pdf(netflix_bytes):
    with pytest.raises(DocumentError, match="truncated"):
        ingest_pdf(netflix_bytes[: len(netflix_bytes) // 2], cache_dir=None)


def test_damaged_pdf_with_eof_marker(netflix_bytes):
    # Cut in half but with an end marker tacked on: pdfium itself must refuse it.
    half = netflix_bytes[: len(netflix_bytes) // 2] + b"\n%%EOF\n"
    with pytest.raises(DocumentError, match="damaged or truncated"):
        ingest_pdf(half, cache_dir=None)


def test_encrypted_pdf():
    data = encrypted_pdf(b"secret")
    assert len(pdfium.PdfDocument(data, password="secret")) == 1  # it is a real, valid PDF
    with pytest.raises(DocumentError, match="encrypted"):
        ingest_pdf(data, cache_dir=None)


def test_password_error_mapping():
    err = pdf_error(
        pdfium.PdfiumError("Failed to load document (PDFium: Incorrect password error).")
    )
    assert "encrypted" in str(err)


def test_scanned_pdf_without_text_layer():
    with pytest.raises(DocumentError, match="no text layer: this looks like a scanned document"):
        ingest_pdf(image_only_pdf(3), cache_dir=None)


def test_blank_page_pdf_has_no_text_layer():
    blank = build_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ]
    )
    with pytest.raises(DocumentError, match="no text layer"):
        ingest_pdf(blank, cache_dir=None)


def test_page_limit(netflix_bytes):
    with pytest.raises(DocumentError, match="73 pages; the limit is 50"):
        ingest_pdf(netflix_bytes, cache_dir=None, max_pages=50)


def test_size_limit(netflix_bytes):
    with pytest.raises(DocumentError, match="too large"):
        ingest_pdf(netflix_bytes, cache_dir=None, max_bytes=1000)


def test_errors_are_not_cached(tmp_path):
    with pytest.raises(DocumentError):
        ingest_pdf(image_only_pdf(1), cache_dir=tmp_path)
    assert not list(tmp_path.glob("*.json"))


# --- HTML ---------------------------------------------------------------------------------------


def test_apple_inline_xbrl_html(tmp_path):
    data = require(FILINGS / "APPLE_2024_10K.html").read_bytes()
    doc = ingest_html(data, cache_dir=tmp_path)
    assert doc.kind == "html"
    assert doc.company == "Apple Inc."
    # 58 <hr style="page-break-after:always"> markers -> 59 pages
    assert doc.page_count == len(doc.pages) == 59
    assert "FORM 10-K" in doc.pages[0]
    pages = doc.statement_pages
    assert pages == {"income_statement": 30, "balance_sheet": 32, "cash_flow": 34}
    assert "CONSOLIDATED STATEMENTS OF OPERATIONS" in doc.pages[30]
    assert "CONSOLIDATED BALANCE SHEETS" in doc.pages[32]
    assert "CONSOLIDATED STATEMENTS OF CASH FLOWS" in doc.pages[34]
    assert ingest_html(data, cache_dir=tmp_path).from_cache


def test_html_without_page_breaks_is_chunked():
    body = "".join(f"<p>Paragraph {n} about revenue and margins.</p>" for n in range(400))
    doc = ingest_html(f"<html><body>{body}</body></html>".encode(), chunk_chars=1000)
    assert doc.page_count > 10
    assert all(len(p) <= 1000 for p in doc.pages)
    assert "Paragraph 0 " in doc.pages[0] and "Paragraph 399 " in doc.pages[-1]


def test_html_splits_on_page_break_styles():
    html = (
        b"<html><body><div>one</div><div style='page-break-after: always'></div>"
        b"<div>two</div><div style='break-before:page'>three</div>"
        b"<div style='display:none'>hidden</div></body></html>"
    )
    assert ingest_html(html).pages == ["one", "two", "three"]


@pytest.mark.parametrize(
    ("data", "match"), [(b"", "empty"), (b"%PDF-1.7 ...", "PDF"), (b"plain text", "not HTML")]
)
def test_html_bad_input(data, match):
    with pytest.raises(DocumentError, match=match):
        ingest_html(data)


def test_chunk_text_splits_long_lines():
    chunks = chunk_text("x" * 2500 + "\nshort\n", 1000)
    assert [len(c) for c in chunks] == [1000, 1000, 506]


def test_parallel_extraction_from_a_threaded_process_spawns(cvs_bytes):
    import threading

    from finance.documents import ingest

    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert ingest._mp_context().get_start_method() == "spawn"
        pages = extract_pages(cvs_bytes, 392, workers=2)
    finally:
        stop.set()
        thread.join()
    assert len(pages) == 392 and "Consolidated Balance Sheets" in pages[303]
