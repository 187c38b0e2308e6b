"""Documents whose ingestion stalled (a worker killed mid-file, a message the broker lost, a send
that failed) are sent to the workers again, and a file that keeps stopping its worker fails with
the reason instead of coming back for ever.

A worker claims a document before reading it (`document_claim`): one UPDATE that succeeds only
while no other worker holds it, counting the attempt. While it reads, a heartbeat thread renews
`heartbeat_at`; a document whose heartbeat is older than `FINANCE_INGEST_STALL_SECONDS` has lost
its worker. The sweeper (`documents_rescue_stalled`, called by every sweeper pass) re-enqueues:

* documents never begun whose last send is older than `AGENT_REQUEUE_SECONDS`, or failed;
* documents whose worker stopped and that were not sent again since (or whose resend is old).

Never a document merely waiting its turn in a busy queue: that one's send is recent.

**Fair turns.** One person's uploads must not hold every worker while another person's one-page
filing waits: a worker that takes a document whose owner already has
`FINANCE_INGEST_PER_USER` documents being read (a fresh heartbeat) leaves it for later
(`document_defer`: sent again `FINANCE_INGEST_DEFER_SECONDS` on, "Waiting for your other
documents") and takes the next task, which may be anyone's.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterator
from datetime import timedelta

from django.conf import settings
from django.db import connection
from django.db.models import F, Q
from django.utils import timezone

from finance.models import Document
from finance.services.documents import document_enqueue

logger = logging.getLogger(__name__)
DEFAULT_STALL_SECONDS = 120.0
DEFAULT_MAX_ATTEMPTS = 3
DEFAULT_PER_USER = 1
DEFAULT_DEFER_SECONDS = 3.0
WAITING = "Waiting for your other documents to be read"


def stall_seconds() -> float:
    return float(getattr(settings, "FINANCE_INGEST_STALL_SECONDS", DEFAULT_STALL_SECONDS))


def max_attempts() -> int:
    return int(getattr(settings, "FINANCE_INGEST_MAX_ATTEMPTS", DEFAULT_MAX_ATTEMPTS))


def owner_is_busy(document: Document) -> bool:
    """Whether the document's owner already has their share of workers reading their files."""
    from config.celery import app

    if app.conf.task_always_eager:
        return False  # read in place, one after another: nothing to share
    limit = int(getattr(settings, "FINANCE_INGEST_PER_USER", DEFAULT_PER_USER))
    if limit <= 0:
        return False
    stale = timezone.now() - timedelta(seconds=stall_seconds())
    reading = (
        Document.objects.filter(
            workspace__owner_id=document.workspace.owner_id,
            status=Document.Status.PROCESSING,
            heartbeat_at__gte=stale,
        )
        .exclude(pk=document.pk)
        .count()
    )
    return reading >= limit


def document_defer(*, document_id: int) -> None:
    """Leave the document for later: sent again after a few seconds, the worker freed now."""
    seconds = float(getattr(settings, "FINANCE_INGEST_DEFER_SECONDS", DEFAULT_DEFER_SECONDS))
    Document.objects.filter(pk=document_id).update(message=WAITING)
    document_enqueue(document_id=document_id, countdown=seconds)


def document_claim(*, document_id: int) -> bool:
    """Take the document for this worker, counting the attempt; False when another holds it
    (its heartbeat is fresh) or it is no longer processing."""
    now = timezone.now()
    stale = now - timedelta(seconds=stall_seconds())
    taken = (
        Document.objects.filter(pk=document_id, status=Document.Status.PROCESSING)
        .filter(Q(heartbeat_at__isnull=True) | Q(heartbeat_at__lt=stale))
        .update(heartbeat_at=now, attempts=F("attempts") + 1, message="Starting")
    )
    return bool(taken)


def document_release(*, document_id: int) -> None:
    """Give the claim back (a transient error: the task's retry may take it at once)."""
    Document.objects.filter(pk=document_id).update(heartbeat_at=None)


@contextlib.contextmanager
def heartbeat(*, document_id: int, every: float | None = None) -> Iterator[None]:
    """Renew the document's heartbeat every `every` seconds while the block runs."""
    interval = stall_seconds() / 4 if every is None else every
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(interval):
                Document.objects.filter(pk=document_id).update(heartbeat_at=timezone.now())
        except Exception:  # a missed beat only lets the sweeper resend: never fatal here
            logger.warning("heartbeat of document %s failed", document_id, exc_info=True)
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"ingest-heartbeat-{document_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)


def documents_rescue_stalled() -> list[int]:
    """Re-enqueue the stalled documents (see the module docstring); their ids."""
    now = timezone.now()
    lost = now - timedelta(seconds=settings.AGENT_REQUEUE_SECONDS)
    stale = now - timedelta(seconds=stall_seconds())
    not_sent_since = Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=lost)
    stalled = (
        Document.objects.filter(status=Document.Status.PROCESSING)
        .filter(
            Q(heartbeat_at__isnull=True) & not_sent_since
            | Q(heartbeat_at__lt=stale) & (not_sent_since | Q(enqueued_at__lt=F("heartbeat_at")))
        )
        .values_list("pk", flat=True)[:200]
    )
    ids = list(stalled)
    for document_id in ids:
        Document.objects.filter(pk=document_id).update(message="Queued again")
        document_enqueue(document_id=document_id)
    return ids
