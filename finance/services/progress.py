"""Ingestion progress: written to the document row (the truth) and pushed to live pages."""

from __future__ import annotations

import logging
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from finance.models import Document

logger = logging.getLogger(__name__)
MIN_INTERVAL_SECONDS = 0.25  # at most ~4 row writes and pushes per second per document


def documents_group(workspace_id: int) -> str:
    return f"finance-documents-{workspace_id}"


def progress_event(document: Document) -> dict[str, Any]:
    """The `document.progress` event a page receives, from the row as it is now."""
    return {
        "type": "document.progress",
        "document": document.pk,
        "progress": round(float(document.progress), 4),
        "message": document.message,
        "status": document.status,
    }


def progress_publish(*, workspace_id: int, event: dict[str, Any]) -> None:
    """Best-effort push; pages that miss it see the row (the socket tails it, polling reads it)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            documents_group(workspace_id), {**event, "type": "document.progress"}
        )
    except Exception:
        logger.warning("could not push progress of document %s", event["document"], exc_info=True)


def progress_save(document: Document, *, fields: dict[str, Any]) -> None:
    """Write fields on the row (if it still exists) and push the resulting event."""
    for name, value in fields.items():
        setattr(document, name, value)
    Document.objects.filter(pk=document.pk).update(**fields)
    progress_publish(workspace_id=document.workspace_id, event=progress_event(document))


class ProgressReporter:
    """Maps stage progress into 0..1 and throttles writes; the last call of a stage always lands."""

    def __init__(self, document: Document, *, interval: float = MIN_INTERVAL_SECONDS) -> None:
        self.document = document
        self.interval = interval
        self.last_write = 0.0

    def report(self, progress: float, message: str, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.last_write < self.interval:
            return
        self.last_write = now
        progress_save(self.document, fields={"progress": progress, "message": message[:500]})

    def pages(self, start: float, end: float) -> Any:
        """A callback for `ingest_pdf(progress=...)`: "Reading page 120 of 392"."""

        def callback(done: int, total: int) -> None:
            fraction = done / total if total else 1.0
            self.report(
                start + (end - start) * fraction,
                f"Reading page {done} of {total}",
                force=done >= total,
            )

        return callback
