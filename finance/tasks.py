"""Celery tasks of the finance app: each takes an id and calls one service."""

from __future__ import annotations

import time

from celery import shared_task
from django.db import InterfaceError, OperationalError

from finance.services.ingestion import document_ingest

TRANSIENT = (OperationalError, InterfaceError, ConnectionError, TimeoutError)


@shared_task(
    name="finance.ingest_document",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def ingest_document(document_id: int) -> str:
    """Parse an uploaded filing; a redelivered task finds it done (or redoes it from the cache)."""
    from agents.observability.metrics import observe_ingest
    from finance.models import Document

    began = time.monotonic()
    status = document_ingest(document_id=document_id)
    pages = Document.objects.filter(pk=document_id).values_list("pages", flat=True).first()
    observe_ingest(status=status, seconds=time.monotonic() - began, pages=int(pages or 0))
    return status
