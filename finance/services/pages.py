"""One page of a document: its size and text, a PNG of it, and a highlight box on it.

Boxes are in PDF points with a top-left origin (pdfplumber's convention, which the statements
use); pdfium's page size is the same box pdfplumber measures, so a box maps to percentages of the
page with no flip: left = x0 / width, top = top / height.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from agents.services.child_slots import person_child_slot
from agents.storage_files import local_copy
from finance.documents.child import ChildBudget, run_child
from finance.documents.data_files import ingest_csv
from finance.documents.ingest import DocumentError, cache_load, ingest_html
from finance.models import Document
from finance.services.bounds import page_image_max_pixels, render_budget
from finance.services.documents import cache_dir, document_ready
from finance.services.locks import PDFIUM_LOCK

MIN_SCALE, MAX_SCALE, DEFAULT_SCALE = 0.5, 3.0, 1.5


class PageError(DocumentError):
    """A page request that cannot be answered; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Box:
    x0: float
    top: float
    x1: float
    bottom: float

    def percent(self, width: float, height: float) -> dict[str, float]:
        """The box as CSS percentages of the page (left, top, width, height)."""
        return {
            "left": round(100 * self.x0 / width, 3),
            "top": round(100 * self.top / height, 3),
            "width": round(100 * (self.x1 - self.x0) / width, 3),
            "height": round(100 * (self.bottom - self.top) / height, 3),
        }


@dataclass(frozen=True)
class PageInfo:
    document: Document
    page: int
    pages: int
    width: float | None  # points; None for HTML pseudo-pages
    height: float | None
    text: str

    @property
    def has_image(self) -> bool:
        return self.width is not None

    def to_dict(self, image_url: str | None) -> dict[str, Any]:
        return {
            "page": self.page,
            "pages": self.pages,
            "width": self.width,
            "height": self.height,
            "text": self.text,
            "image": image_url if self.has_image else None,
        }


def parse_box(raw: str | None, *, width: float | None, height: float | None) -> Box | None:
    """`x0,top,x1,bottom` in points; PageError(400) unless it is a real box on the page."""
    if raw is None or raw == "":
        return None
    try:
        values = [float(part) for part in raw.split(",")]
    except ValueError:
        values = []
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise PageError("box must be four numbers: x0,top,x1,bottom (PDF points)")
    box = Box(*values)
    if box.x0 < 0 or box.top < 0 or box.x1 <= box.x0 or box.bottom <= box.top:
        raise PageError("box must have x0 < x1 and top < bottom, all non-negative")
    if width is not None and height is not None and (box.x0 >= width or box.top >= height):
        raise PageError(f"box lies outside the page ({width:g} x {height:g} points)")
    return box


def parse_scale(raw: str | None) -> float:
    """A render scale (1.0 = 72 dpi) clamped to [MIN_SCALE, MAX_SCALE] in steps of 0.25;
    PageError if not numeric."""
    if raw is None or raw == "":
        return DEFAULT_SCALE
    try:
        scale = float(raw)
    except ValueError:
        scale = math.nan
    if not math.isfinite(scale):
        raise PageError(f"scale must be a number between {MIN_SCALE} and {MAX_SCALE}")
    # Steps of a quarter: a page has a few cached images, not one per hundredth of a scale.
    return round(min(MAX_SCALE, max(MIN_SCALE, scale)) * 4) / 4


def _checked(document: Document, page: int) -> None:
    document_ready(document)
    if not 0 <= page < document.pages:
        raise PageError(f"no page {page}: pages are numbered 0 to {document.pages - 1}", status=404)


def page_info(*, document: Document, page: int) -> PageInfo:
    """Size and text of page `page` (0-indexed); HTML filings have text chunks and no size."""
    _checked(document, page)
    if document.kind == "html":
        with document.file.open("rb") as handle:
            parsed = ingest_html(handle.read(), cache_dir=cache_dir("documents"))
        return PageInfo(document, page, document.pages, None, None, parsed.pages[page])
    if document.kind == "csv":
        with document.file.open("rb") as handle:
            parsed = ingest_csv(handle.read(), cache_dir=cache_dir("documents"))
        return PageInfo(document, page, document.pages, None, None, parsed.pages[page])
    with local_copy(document.file) as path:
        width, height, text = _pdf_page_text(document, page, path)
    return PageInfo(document, page, document.pages, width, height, text)


def _pdf_page_text(document: Document, page: int, path: Path) -> tuple[float, float, str]:
    """The text ingestion kept, and the page's size from its MediaBox (pdfium does not parse the
    page's content for that); without the kept text, read in a bounded child: never the
    content streams in the web process."""
    parsed = cache_load(cache_dir("documents"), document.sha256)
    if parsed is not None and page < len(parsed.pages):
        import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

        with PDFIUM_LOCK:
            pdf = pdfium.PdfDocument(str(path))
            try:
                width, height = pdf.get_page_size(page)
            finally:
                pdf.close()
        return float(width), float(height), parsed.pages[page]
    job = {"command": "text", "path": str(path), "page": page}
    try:
        out = json.loads(page_child(document, job, budget=render_budget(), what="reading the page"))
    except DocumentError as error:
        raise PageError(str(error), status=422) from error
    return float(out["width"]), float(out["height"]), str(out["text"])


def page_png(*, document: Document, page: int, scale: float) -> bytes:
    """The page rendered as PNG, cached on disk per (content, page, scale).

    Rendered in a bounded child, never in the web process: at most
    FINANCE_PAGE_IMAGE_MAX_PIXELS (the scale is lowered to fit), within the child's memory and
    CPU budget; a page that cannot be rendered is a PageError (422) with the reason."""
    _checked(document, page)
    if document.kind != "pdf":
        kind = "CSV files" if document.kind == "csv" else "HTML filings"
        raise PageError(f"{kind} have no page images; read the page text instead", 404)
    path = cache_dir("pages") / document.sha256 / f"{page}@{scale:.2f}.png"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    job = {"command": "render", "page": page, "scale": scale, "max_pixels": page_image_max_pixels()}
    with local_copy(document.file) as source:
        try:
            data = page_child(
                document,
                {**job, "path": str(source)},
                budget=render_budget(),
                what="rendering the page",
            )
        except DocumentError as error:
            raise PageError(str(error), status=422) from error
    _store(path, data)
    return data


def page_child(document: Document, job: dict[str, Any], *, budget: ChildBudget, what: str) -> bytes:
    """A page's bounded child, when one of the host's `FINANCE_PAGE_CHILDREN` (2) page slots and
    the person's own are free (`person_child_slot`; 429 after a few seconds otherwise)."""
    with person_child_slot(
        "page-children",
        document.workspace.owner_id,
        host_count=int(getattr(settings, "FINANCE_PAGE_CHILDREN", 2)),
        wait_seconds=float(getattr(settings, "FINANCE_PAGE_WAIT_SECONDS", 5.0)),
        busy="pages are being drawn for you or others at the moment; try again in a few seconds",
    ):
        return run_child(job, budget=budget, what=what)


def _store(path: Path, data: bytes) -> None:
    """Write atomically, so a concurrent reader never sees half a PNG."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
