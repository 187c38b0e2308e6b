"""One page of a PDF: its size and text, or its image bounded by pixels before pdfium allocates
anything. Run in a bounded child (`finance.documents.child`).

The scale asked for is lowered until the image holds at most `max_pixels`, so a page whose
MediaBox is 200 inches square renders as a 16-megapixel image, not a 43200-pixel-square bitmap
of 5.6 GB.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable
from typing import Any

from finance.documents.errors import DocumentError
from finance.documents.ingest import clean_text


def bounded_scale(width: float, height: float, *, scale: float, max_pixels: int) -> float:
    """`scale`, lowered so that a `width` x `height` points page holds at most `max_pixels`."""
    if width <= 0 or height <= 0:
        raise DocumentError(f"the page has no area ({width:g} x {height:g} points)")
    fitting = math.sqrt(max_pixels / (width * height))
    # The floor of every side in pixels: pdfium rounds sizes up, so keep a pixel of margin.
    while fitting > 0 and math.ceil(width * fitting) * math.ceil(height * fitting) > max_pixels:
        fitting *= 0.999
    return min(scale, fitting)


def render_png(data_path: str, *, page: int, scale: float, max_pixels: int) -> bytes:
    """Page `page` (0-indexed) of the PDF at `data_path` as PNG, at most `max_pixels`."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    try:
        pdf = pdfium.PdfDocument(data_path)
        try:
            width, height = pdf.get_page_size(page)
            fitted = bounded_scale(width, height, scale=scale, max_pixels=max_pixels)
            pdf_page = pdf[page]
            image = pdf_page.render(scale=fitted).to_pil()
            pdf_page.close()
        finally:
            pdf.close()
    except pdfium.PdfiumError as error:
        raise DocumentError(f"the page cannot be rendered ({error})") from error
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


def render_job(job: dict[str, Any], emit: Callable[[str], None]) -> bytes:
    """The child's `render` job: {path, page, scale, max_pixels}."""
    return render_png(
        str(job["path"]),
        page=int(job["page"]),
        scale=float(job["scale"]),
        max_pixels=int(job["max_pixels"]),
    )


def page_text_job(job: dict[str, Any], emit: Callable[[str], None]) -> bytes:
    """The child's `text` job: {path, page} -> JSON {width, height, text} (points)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    try:
        pdf = pdfium.PdfDocument(str(job["path"]))
        try:
            pdf_page = pdf[int(job["page"])]
            width, height = pdf_page.get_size()
            textpage = pdf_page.get_textpage()
            text = clean_text(textpage.get_text_range())
            textpage.close()
            pdf_page.close()
        finally:
            pdf.close()
    except pdfium.PdfiumError as error:
        raise DocumentError(f"the page cannot be read ({error})") from error
    return json.dumps({"width": width, "height": height, "text": text}).encode()
