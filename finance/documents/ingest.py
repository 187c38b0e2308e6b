"""Fast ingestion of long filings (10-K PDFs, SEC HTML) into per-page text, cached by content hash.

Design:
* Text comes from pypdfium2 (~200-400 pages/s on one core), never from pdfplumber (~3 pages/s
  with tables). Long PDFs are split into page ranges extracted in parallel processes; each worker
  opens the PDF itself from the bytes (pdfium handles are not picklable or thread-safe).
* The result is cached as `cache_dir/<sha256>.json`, keyed on the bytes and `CACHE_VERSION`,
  so re-ingesting the same file is a JSON load.
* Bad input raises `DocumentError` with a message fit to show a user: empty, not a PDF,
  truncated, encrypted, scanned (no text layer), too many pages, too large.
* Sections (10-K Items, statement pages) are located from the page texts by
  `finance.documents.sections` and stored on the document.

Canonical statements (`finance.statements`) are extracted after this step, with pdfplumber on
the statement pages only; an upload's task does both (`finance.services.ingestion`).
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import re
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finance.documents.errors import DocumentError as DocumentError
from finance.documents.json_cache import read_json, write_json
from finance.documents.naming import describe, guess_title, profile_metadata
from finance.documents.pdf_bounds import PdfBounds, check_inflated_sizes, check_page_sizes
from finance.documents.profile import DocumentProfile
from finance.documents.sections import locate_sections

# 2: documents carry a `profile` (type, company, ticker, period read off the cover).
CACHE_VERSION = 6  # 6: statement pages with a neighbour printing other periods
DEFAULT_MAX_PAGES = 2000
DEFAULT_MAX_BYTES = 200 * 1024 * 1024
# Below this many pages one process is faster than starting workers.
PARALLEL_MIN_PAGES = 150
HTML_CHUNK_CHARS = 4000
DEFAULT_BOUNDS = PdfBounds()

Progress = Callable[[int, int], None]


@dataclass
class ParsedDocument:
    sha256: str
    pages: list[str]
    page_count: int
    kind: str = "pdf"  # "pdf" | "html"
    title: str = ""
    company: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    sections: dict[str, Any] = field(default_factory=dict)
    profile: DocumentProfile = field(default_factory=DocumentProfile)
    from_cache: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": CACHE_VERSION,
            "sha256": self.sha256,
            "kind": self.kind,
            "page_count": self.page_count,
            "title": self.title,
            "company": self.company,
            "metadata": dict(self.metadata),
            "sections": self.sections,
            "profile": self.profile.to_dict(),
            "pages": list(self.pages),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ParsedDocument:
        return cls(
            sha256=str(data["sha256"]),
            pages=list(data["pages"]),
            page_count=int(data["page_count"]),
            kind=str(data.get("kind", "pdf")),
            title=str(data.get("title", "")),
            company=str(data.get("company", "")),
            metadata={str(k): str(v) for k, v in dict(data.get("metadata", {})).items()},
            sections=dict(data.get("sections", {})),
            profile=DocumentProfile.from_dict(dict(data.get("profile") or {})),
        )

    @property
    def doc_type(self) -> str:
        return self.profile.doc_type

    @property
    def ticker(self) -> str | None:
        return self.profile.ticker

    @property
    def statement_pages(self) -> dict[str, int | None]:
        return dict(self.sections.get("statements", {}))


# --- cache -------------------------------------------------------------------------------------


def _cache_path(cache_dir: Path, sha: str) -> Path:
    return cache_dir / f"{sha}.json"


def cache_load(cache_dir: Path | None, sha: str) -> ParsedDocument | None:
    if cache_dir is None:
        return None
    data = read_json(_cache_path(cache_dir, sha))
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
        return None
    if data.get("sha256") != sha:
        return None
    doc = ParsedDocument.from_dict(data)
    doc.from_cache = True
    return doc


def cache_store(cache_dir: Path | None, doc: ParsedDocument) -> None:
    if cache_dir is not None:
        write_json(_cache_path(cache_dir, doc.sha256), doc.to_dict())


# --- text --------------------------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Normalise line ends and the odd characters PDF converters leave behind."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.replace("\u00a0", " ").replace("\ufffe", "-").replace("\x00", "")


def _open_pdf(data: bytes) -> Any:
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise pdf_error(exc) from exc


def pdf_error(exc: Exception) -> DocumentError:
    """Map a pdfium failure to a user-facing `DocumentError`."""
    msg = str(exc).lower()
    if "password" in msg or "security" in msg:
        return DocumentError(
            "the PDF is encrypted (password protected); remove the password and upload it again"
        )
    if "format" in msg or "corrupt" in msg or "file" in msg:
        return DocumentError(f"the PDF is damaged or truncated and cannot be read ({exc})")
    return DocumentError(f"the PDF cannot be read ({exc})")


def _extract_range(data: bytes, start: int, stop: int) -> list[str]:
    """Text of pages [start, stop); runs in a worker process, so it opens its own document."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    doc = pdfium.PdfDocument(data)
    try:
        out = []
        for i in range(start, stop):
            page = doc[i]
            try:
                textpage = page.get_textpage()
                try:
                    out.append(clean_text(textpage.get_text_range()))
                finally:
                    textpage.close()
            finally:
                page.close()
        return out
    finally:
        doc.close()


def _ranges(total: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(total, s + size)) for s in range(0, total, size)]


def _mp_context() -> multiprocessing.context.BaseContext:
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def extract_pages(
    data: bytes, page_count: int, *, workers: int = 2, progress: Progress | None = None
) -> list[str]:
    """Per-page text, in parallel page ranges for long documents.

    Workers are forked from a single-threaded process (cheap) and spawned otherwise (forking a
    threaded server can deadlock; spawning costs ~1 s of interpreter start-up and imports). A
    daemonic process (a Celery prefork child) may not have children, so it extracts in-process;
    so does a pool that fails to start.
    """
    if workers <= 1 or page_count < PARALLEL_MIN_PAGES or multiprocessing.current_process().daemon:
        size = max(1, min(page_count, 25))
        pages: list[str] = []
        for start, stop in _ranges(page_count, size):
            pages.extend(_extract_range(data, start, stop))
            if progress:
                progress(len(pages), page_count)
        return pages
    # A few chunks per worker so progress moves and a slow range does not hold up the rest.
    size = max(16, math.ceil(page_count / (workers * 4)))
    ranges = _ranges(page_count, size)
    results: dict[int, list[str]] = {}
    done = 0
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context()) as pool:
            futures = {pool.submit(_extract_range, data, s, e): s for s, e in ranges}
            for future in as_completed(futures):
                start = futures[future]
                results[start] = future.result()
                done += len(results[start])
                if progress:
                    progress(done, page_count)
    except (BrokenProcessPool, OSError):
        return extract_pages(data, page_count, workers=1, progress=progress)
    return [text for start, _ in ranges for text in results[start]]


# --- entry points ------------------------------------------------------------------------------


def _check_size(data: bytes, max_bytes: int) -> None:
    if not data:
        raise DocumentError("the file is empty (0 bytes)")
    if len(data) > max_bytes:
        raise DocumentError(
            f"the file is too large: {len(data):,} bytes, the limit is {max_bytes:,} bytes"
        )


def check_pdf_bytes(data: bytes) -> None:
    """Cheap checks before pdfium sees the bytes: a PDF header and an end-of-file marker."""
    if b"%PDF-" not in data[:1024]:
        head = data[:16]
        if head.startswith(b"\x89PNG"):
            kind = "it is a PNG image"
        elif head.startswith(b"\xff\xd8\xff"):
            kind = "it is a JPEG image"
        elif head.startswith(b"PK\x03\x04"):
            kind = "it is a ZIP archive (.docx / .xlsx?)"
        elif head.lstrip().lower().startswith((b"<!doc", b"<html", b"<?xml")):
            kind = "it is HTML / XML: use ingest_html"
        else:
            kind = f"it starts with {head[:12]!r}"
        raise DocumentError(f"the file is not a PDF: no %PDF- header, {kind}")
    if b"%%EOF" not in data[-2048:]:
        raise DocumentError(
            "the PDF is truncated: it has no end-of-file marker "
            "(the upload or download was cut off)"
        )


def has_text_layer(pages: list[str]) -> bool:
    with_text = sum(1 for p in pages if len(p.strip()) >= 20)
    if with_text == 0:
        return False
    return not (len(pages) >= 5 and with_text / len(pages) < 0.1)


def ingest_pdf(
    data: bytes,
    *,
    cache_dir: Path | None,
    workers: int = 2,
    progress: Progress | None = None,
    max_pages: int = DEFAULT_MAX_PAGES,
    max_bytes: int = DEFAULT_MAX_BYTES,
    bounds: PdfBounds = DEFAULT_BOUNDS,
    on_page_count: Callable[[int], None] | None = None,
) -> ParsedDocument:
    """Per-page text, metadata and sections of a PDF; cached under cache_dir by sha256.

    The inflated size of its streams and the size of its pages are checked against `bounds`
    before pdfium reads any page (DocumentError past them); `on_page_count` hears the number
    of pages before they are read."""
    _check_size(data, max_bytes)
    sha = hashlib.sha256(data).hexdigest()
    cached = cache_load(cache_dir, sha)
    if cached is not None:
        if progress:
            progress(cached.page_count, cached.page_count)
        return cached
    check_pdf_bytes(data)
    check_inflated_sizes(data, bounds)
    pdf = _open_pdf(data)
    try:
        page_count = len(pdf)
        if page_count > max_pages:
            raise DocumentError(f"the PDF has {page_count} pages; the limit is {max_pages}")
        check_page_sizes(pdf, bounds)
        metadata = {str(k): str(v) for k, v in pdf.get_metadata_dict().items() if v}
    finally:
        pdf.close()
    if page_count == 0:
        raise DocumentError("the PDF has no pages")
    if on_page_count is not None:
        on_page_count(page_count)
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    try:
        pages = extract_pages(data, page_count, workers=workers, progress=progress)
    except pdfium.PdfiumError as exc:
        raise pdf_error(exc) from exc
    if not has_text_layer(pages):
        raise DocumentError(
            "no text layer: this looks like a scanned document (images of pages); "
            "run OCR on it first or upload the original electronic filing"
        )
    profile, company = describe(pages, metadata)
    doc = ParsedDocument(
        sha256=sha,
        pages=pages,
        page_count=page_count,
        kind="pdf",
        title=guess_title(metadata, company, profile.doc_type),
        company=company,
        metadata=profile_metadata(metadata, profile),
        sections=locate_sections(pages).to_dict(),
        profile=profile,
    )
    cache_store(cache_dir, doc)
    return doc


# --- HTML --------------------------------------------------------------------------------------

_BLOCK_TAGS = {
    "p", "div", "br", "tr", "li", "h1", "h2", "h3", "h4", "h5", "h6", "table", "section",
    "article", "header", "footer", "ul", "ol", "dt", "dd", "blockquote", "pre",
}  # fmt: skip
_CELL_TAGS = {"td", "th"}
_PAGE_BREAK_STYLE = re.compile(
    r"(page-break-(after|before)|break-(after|before))\s*:\s*(always|page)"
)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none")
PAGE_MARK = "\ue000"  # a private-use character: lxml refuses control characters


def _html_pages(data: bytes, chunk_chars: int) -> list[str]:
    import lxml.html  # type: ignore[import-untyped,unused-ignore]

    try:
        root = lxml.html.document_fromstring(data)
    except (ValueError, lxml.etree.ParserError) as exc:
        raise DocumentError(f"the HTML cannot be parsed ({exc})") from exc
    for el in list(root.iter()):
        if not isinstance(el.tag, str):  # comments, processing instructions
            continue
        tag = el.tag.lower()
        style = (el.get("style") or "").lower()
        if tag in {"script", "style", "head", "ix:header"} or _HIDDEN_STYLE.search(style):
            el.drop_tree()
            continue
        mark = _PAGE_BREAK_STYLE.search(style)
        if tag == "hr" or (mark and mark.group(0).startswith(("page-break-after", "break-after"))):
            el.tail = PAGE_MARK + (el.tail or "")
        elif mark:  # a break *before* this element
            el.text = PAGE_MARK + (el.text or "")
        elif tag in _BLOCK_TAGS:
            el.tail = "\n" + (el.tail or "")
        elif tag in _CELL_TAGS:
            el.tail = " " + (el.tail or "")
    text = clean_text(root.text_content())
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r" *\n[\s\n]*\n", "\n", text)
    pages = [p.strip() for p in text.split(PAGE_MARK)]
    pages = [p for p in pages if p]
    if len(pages) <= 1:
        pages = chunk_text(pages[0] if pages else "", chunk_chars)
    return pages


def chunk_text(text: str, size: int) -> list[str]:
    """Fixed-size pseudo-pages, cut on line boundaries where possible."""
    out: list[str] = []
    lines = text.splitlines(keepends=True)
    buf = ""
    for line in lines:
        while len(line) > size:  # one enormous line
            if buf:
                out.append(buf)
                buf = ""
            out.append(line[:size])
            line = line[size:]
        if len(buf) + len(line) > size and buf:
            out.append(buf)
            buf = ""
        buf += line
    if buf.strip():
        out.append(buf)
    return [p.strip() for p in out if p.strip()]


def ingest_html(
    data: bytes,
    *,
    cache_dir: Path | None = None,
    chunk_chars: int = HTML_CHUNK_CHARS,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> ParsedDocument:
    """An SEC HTML (or inline XBRL) filing as pseudo-pages split at its page breaks."""
    _check_size(data, max_bytes)
    sha = hashlib.sha256(data).hexdigest()
    cached = cache_load(cache_dir, sha)
    if cached is not None:
        return cached
    head = data[:4096].lstrip().lower()
    if head.startswith(b"%pdf"):
        raise DocumentError("the file is a PDF, not HTML: use ingest_pdf")
    if b"<" not in head:
        raise DocumentError("the file is not HTML (no markup in its first 4 KB)")
    pages = _html_pages(data, chunk_chars)
    if not any(p.strip() for p in pages):
        raise DocumentError("the HTML has no visible text")
    title = ""
    m = re.search(rb"<title[^>]*>(.*?)</title>", data[:65536], re.IGNORECASE | re.DOTALL)
    if m:
        title = m.group(1).decode("utf-8", "replace").strip()
    metadata = {"Title": title} if title else {}
    profile, company = describe(pages, metadata)
    doc = ParsedDocument(
        sha256=sha,
        pages=pages,
        page_count=len(pages),
        kind="html",
        title=guess_title(metadata, company, profile.doc_type),
        company=company,
        metadata=profile_metadata(metadata, profile),
        sections=locate_sections(pages).to_dict(),
        profile=profile,
    )
    cache_store(cache_dir, doc)
    return doc
