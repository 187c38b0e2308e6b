"""Rescuing runs whose worker vanished (killed, OOM, lost broker message)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from agents.models import Run
from agents.services.runs import run_enqueue


def runs_rescue_stalled() -> list[int]:
    """Re-enqueue active runs that nobody holds and nobody has enqueued for a while."""
    now = timezone.now()
    quiet_since = now - timedelta(seconds=max(settings.AGENT_LEASE_SECONDS, 1.0))
    stalled = (
        Run.objects.filter(status__in=Run.ACTIVE)
        .filter(Q(lease_owner="") | Q(lease_expires_at__lt=now))
        .filter(Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=quiet_since))
        .values_list("pk", flat=True)[:200]
    )
    ids = list(stalled)
    for run_id in ids:
        run_enqueue(run_id=run_id)
    return ids
