"""How renderers turn a document source into a URL, without knowing the app's routes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import quote, urlencode


class NoteLinks(Protocol):
    """Builds the URLs that a rendered note links its numbers to."""

    def page(self, document_id: int, page: int, bbox: Sequence[float] | None, label: str) -> str:
        """URL of the page viewer for a 0-indexed page, with `bbox` highlighted and labelled."""
        ...


@dataclass(frozen=True)
class PathLinks:
    """Page-viewer URLs under `prefix`: "" for in-app links, "https://host" for downloads."""

    prefix: str = ""

    def page(self, document_id: int, page: int, bbox: Sequence[float] | None, label: str) -> str:
        url = f"{self.prefix.rstrip('/')}/finance/documents/{document_id}/pages/{page}/"
        query: dict[str, str] = {}
        if bbox is not None:
            query["box"] = ",".join(format(round(float(v), 2), "g") for v in bbox)
        if label:
            query["label"] = label
        return f"{url}?{urlencode(query, safe=',', quote_via=quote)}" if query else url
