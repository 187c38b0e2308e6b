"""Bounds a PDF must keep before anything heavy reads it, checked in milliseconds to a second.

A 1 MB file can hold a Flate stream that inflates to a gigabyte (pdfium then needs ~2 GB and
seconds for every page that draws it), or a page 200 inches wide whose image is gigapixels. These
checks read the raw bytes only: every stream of a PDF is a top-level object (object streams hold
no streams), so a scan for `stream` keywords finds them all, and each Flate stream is inflated in
bounded steps, counting bytes and keeping none, until it ends or passes its limit. Streams of a
file encrypted with an empty user password (most EDGAR filings) are decrypted first
(`pdf_crypt`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from finance.documents.errors import DocumentError
from finance.documents.pdf_crypt import stream_decrypter

MB = 1 << 20
POINTS_PER_INCH = 72
STEP = 1 << 20  # inflate at most this much at a time
# A dictionary, then `stream` and its end of line (CRLF or LF; a lone CR is tolerated).
_STREAM = re.compile(rb">>\s*stream(?:\r\n|\n|\r)")
_OBJ = re.compile(rb"(\d+)\s+(\d+)\s+obj\b")
_FILTER = re.compile(rb"/Filter\s*(\[[^\]]*\]|/[^\s/\[\]<>()]+)")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?!\s+\d+\s+R)")
_NAME = re.compile(rb"/([^\s/\[\]<>()]+)")


@dataclass(frozen=True)
class PdfBounds:
    """What one document may cost: inflated bytes per stream and in all, page size in points."""

    stream_bytes: int = 64 * MB
    document_bytes: int = 512 * MB
    page_points: float = 50 * POINTS_PER_INCH

    def to_dict(self) -> dict[str, Any]:
        return {
            "stream_bytes": self.stream_bytes,
            "document_bytes": self.document_bytes,
            "page_points": self.page_points,
        }


def check_page_sizes(pdf: Any, bounds: PdfBounds) -> None:
    """DocumentError for a page larger than the bound a side (pdfium reads the MediaBox only)."""
    for index in range(len(pdf)):
        width, height = pdf.get_page_size(index)
        if max(width, height) > bounds.page_points:
            limit = bounds.page_points / POINTS_PER_INCH
            raise DocumentError(
                f"page {index + 1} is {width / POINTS_PER_INCH:g} x {height / POINTS_PER_INCH:g} "
                f"inches; pages larger than {limit:g} inches a side are refused (a filing is "
                "printed on paper)"
            )


def check_inflated_sizes(data: bytes, bounds: PdfBounds) -> int:
    """Total bytes the PDF's Flate streams inflate to; DocumentError past either bound."""
    total = 0
    decrypt = stream_decrypter(data)
    for number, generation, dictionary, raw in _streams(data):
        filters = _filters(dictionary)
        if not filters or any(name not in (b"FlateDecode", b"Fl") for name in filters):
            continue  # not Flate alone: the parse's memory limit bounds the rest
        if decrypt is not None and b"/XRef" not in dictionary:  # xref streams are plain
            try:
                raw = decrypt(number, generation, raw)
            except ValueError:
                continue  # an encryption not measured here: the parse's limits bound it
        size = inflated_size(raw, layers=len(filters), limit=bounds.stream_bytes)
        if size > bounds.stream_bytes:
            raise DocumentError(
                f"a stream of the PDF (object {number}) inflates past "
                f"{bounds.stream_bytes // MB} MB: a file built to exhaust memory is refused"
            )
        total += size
        if total > bounds.document_bytes:
            raise DocumentError(
                f"the PDF's streams inflate past {bounds.document_bytes // MB} MB in all: "
                "a file built to exhaust memory is refused"
            )
    return total


def inflated_size(raw: bytes, *, layers: int, limit: int) -> int:
    """Bytes `raw` inflates to through `layers` Flate filters; stops counting past `limit`."""
    chunks: Iterator[bytes] = iter((raw,))
    for _ in range(layers):
        chunks = _inflate(chunks)
    size = 0
    for chunk in chunks:
        size += len(chunk)
        if size > limit:
            break
    return size


def _inflate(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """One Flate layer, STEP bytes out at a time; a damaged stream ends where it breaks, as in
    pdfium, which draws what inflates."""
    inflater = zlib.decompressobj()
    try:
        for chunk in chunks:
            pending = chunk
            while not inflater.eof:
                out = inflater.decompress(pending, STEP)
                pending = inflater.unconsumed_tail
                if out:
                    yield out
                elif not pending:
                    break  # this chunk is used up: the next one
            if inflater.eof:
                return
    except zlib.error:
        return


def _streams(data: bytes) -> Iterator[tuple[int, int, bytes, bytes]]:
    """(object number, generation, dictionary, raw bytes) of each stream in the file."""
    position = 0
    while (match := _STREAM.search(data, position)) is not None:
        start = match.end()
        head = data[max(0, match.start() - 4096) : match.start() + 2]
        objects = list(_OBJ.finditer(head))
        number, generation = (
            (int(objects[-1].group(1)), int(objects[-1].group(2))) if objects else (0, 0)
        )
        dictionary = head[objects[-1].end() :] if objects else head
        end = _stream_end(data, start, dictionary)
        position = max(end, start)
        yield number, generation, dictionary, data[start:end]


def _filters(dictionary: bytes) -> list[bytes]:
    found = _FILTER.search(dictionary)
    return _NAME.findall(found.group(1)) if found else []


def _stream_end(data: bytes, start: int, dictionary: bytes) -> int:
    """Where the stream's bytes end: its direct /Length when `endstream` follows, else the next
    `endstream` (a /Length given by reference is not followed)."""
    length = _LENGTH.search(dictionary)
    if length is not None:
        end = start + int(length.group(1))
        if data[end : end + 32].lstrip().startswith(b"endstream"):
            return end
    found = data.find(b"endstream", start)
    return len(data) if found < 0 else found
