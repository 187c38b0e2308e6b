"""A run's lease: which execution may advance it now, renewed while it works, and its stop signal.

The lease belongs to one execution, not to a task: each slice takes it under a token of its own
(`<owner>#<random>`), so a redelivered copy of the same Celery task, which has the same task id,
cannot hold it beside the original. While a slice runs, a heartbeat thread renews it every third of
`AGENT_LEASE_SECONDS`; when a renewal finds it gone, the slice stops at its next check
(`CancelWatch`) and every write is fenced by the token (agents/services/checkpoint.py).
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import F, Q
from django.utils import timezone

from agents.models import Run
from agents.services.unit_log import run_is_cancel_requested

logger = logging.getLogger(__name__)


def _lease_deadline() -> datetime:
    return timezone.now() + timedelta(seconds=settings.AGENT_LEASE_SECONDS)


def execution_token(owner: str) -> str:
    """A lease token of one execution: the owner (a task id) and a random part."""
    return f"{owner}#{uuid.uuid4().hex[:12]}"


def lease_acquire(*, run_id: int, owner: str) -> bool:
    """Take the run's lease for `owner` (an execution's token) if it is free or expired."""
    free = Q(lease_owner="") | Q(lease_expires_at__lt=timezone.now())
    taken = (
        Run.objects.filter(pk=run_id, status__in=Run.ACTIVE)
        .filter(free)
        .update(lease_owner=owner, lease_expires_at=_lease_deadline(), slices=F("slices") + 1)
    )
    return taken == 1


def lease_release(*, run_id: int, owner: str) -> None:
    Run.objects.filter(pk=run_id, lease_owner=owner).update(lease_owner="", lease_expires_at=None)


class LeaseHeartbeat:
    """Renews a held lease every third of its length on a thread of its own; `lost` is set when
    a renewal finds the lease taken (the slice must then stop)."""

    def __init__(self, run_id: int, token: str, interval: float | None = None) -> None:
        self.run_id, self.token = run_id, token
        self.interval = interval or settings.AGENT_LEASE_SECONDS / 3.0
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._beat, name=f"lease-heartbeat-{run_id}", daemon=True
        )

    def __enter__(self) -> LeaseHeartbeat:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def stop(self) -> None:
        """Stop renewing (the slice is giving the lease back); safe to call twice."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    renewed = Run.objects.filter(pk=self.run_id, lease_owner=self.token).update(
                        lease_expires_at=_lease_deadline()
                    )
                except DatabaseError:
                    logger.warning("run %s: lease renewal failed; retrying", self.run_id)
                    connection.close()  # a dropped connection: the next beat opens a new one
                    continue
                if not renewed:
                    logger.warning("run %s: lease lost by %s", self.run_id, self.token)
                    self.lost.set()
                    return
        finally:
            connection.close()  # this thread's own connection


class CancelWatch:
    """Whether the run must stop: its lease was lost, or a cancel was asked for. Every commit
    says whether a cancel was asked (free); only within a long unit (a model stream, a slow
    tool) is the database asked, at most every `interval` seconds."""

    def __init__(
        self, run_id: int, lease_lost: threading.Event | None = None, interval: float = 0.5
    ) -> None:
        self.run_id, self.lease_lost, self.interval = run_id, lease_lost, interval
        self.requested = False
        self.checked_at = float("-inf")

    def note(self, requested: bool) -> None:
        self.requested = self.requested or requested
        self.checked_at = time.monotonic()

    def __call__(self) -> bool:
        if self.lease_lost is not None and self.lease_lost.is_set():
            return True
        if not self.requested and time.monotonic() - self.checked_at >= self.interval:
            self.note(run_is_cancel_requested(self.run_id))
        return self.requested
