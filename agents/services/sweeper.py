"""Rescuing runs whose worker vanished (killed, OOM, lost broker message).

One sweeper works at a time across the cluster: a pass takes a lock in Django's cache (Redis in
a deployment) for `AGENT_SWEEP_SECONDS`, and a worker that finds it taken skips its pass. A pass
re-enqueues active runs whose lease expired (a worker held them and stopped renewing), and runs
that nobody holds whose last enqueue is older than `AGENT_REQUEUE_SECONDS` (a lost message);
never a run whose task is merely waiting in a busy queue. Workspace apps register rescuers of
their own background work (`agents.registry.register_rescuer`), called by the same pass.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from agents.models import Run
from agents.registry import rescuers
from agents.services.runs import run_enqueue

SWEEP_LOCK = "agents:sweeper-lock"


def sweep_pass() -> dict[str, list[int]]:
    """One pass of the cluster's sweeper: stalled runs and every registered rescuer's work, by
    name ({} when another sweeper holds the lock)."""
    if not cache.add(SWEEP_LOCK, uuid.uuid4().hex, settings.AGENT_SWEEP_SECONDS):
        return {}
    rescued = {"runs": runs_rescue_stalled(exclusive=False)}
    for name, rescue in rescuers().items():
        rescued[name] = rescue()
    return rescued


def runs_rescue_stalled(*, exclusive: bool = True) -> list[int]:
    """Re-enqueue the stalled runs (see the module docstring); [] when another sweeper is at
    work (`exclusive=False` skips the lock, for tests and the operator's command)."""
    if exclusive and not cache.add(SWEEP_LOCK, uuid.uuid4().hex, settings.AGENT_SWEEP_SECONDS):
        return []
    now = timezone.now()
    lost_message = now - timedelta(seconds=settings.AGENT_REQUEUE_SECONDS)
    stalled = (
        Run.objects.filter(status__in=Run.ACTIVE)
        .filter(
            Q(lease_expires_at__lt=now)
            | Q(lease_owner="") & (Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=lost_message))
        )
        .values_list("pk", flat=True)[:200]
    )
    ids = list(stalled)
    for run_id in ids:
        run_enqueue(run_id=run_id)
    return ids
