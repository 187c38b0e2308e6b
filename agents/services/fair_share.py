"""Turns between people for the workers: one person's runs cannot hold every worker while another
person's run waits for one.

Work-conserving: a person may use every free worker while nobody else waits. Only when another
person's active run waits for a worker (no lease held) and this person already holds
`AGENT_SLICES_PER_USER` workers does a slice of theirs step aside (`run_should_yield`): it is sent
again `AGENT_YIELD_SECONDS` later and the worker takes the next task, which may be the waiting
person's. Quotas bound how many runs a person has; this bounds how many workers they hold.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from agents.models import Run


def run_should_yield(*, run_id: int) -> bool:
    """Whether this run's next slice should let another person's waiting run go first."""
    from config.celery import app

    limit = int(getattr(settings, "AGENT_SLICES_PER_USER", 1))
    if limit <= 0 or app.conf.task_always_eager:
        return False  # in place (tests, evaluation) slices run one after another anyway
    owner = Run.objects.filter(pk=run_id).values_list("workspace__owner_id", flat=True).first()
    if owner is None:
        return False
    now = timezone.now()
    active = Run.objects.filter(status__in=Run.ACTIVE)
    held = (
        active.filter(workspace__owner_id=owner, lease_expires_at__gt=now)
        .exclude(lease_owner="")
        .exclude(pk=run_id)
        .count()
    )
    if held < limit:
        return False
    return active.filter(lease_owner="").exclude(workspace__owner_id=owner).exists()
