"""Celery tasks of the finance app: each takes an id and calls one service."""

from __future__ import annotations

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
    return document_ingest(document_id=document_id)
