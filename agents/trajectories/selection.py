"""Which finished runs an export takes: by workspace, evaluation suite, reward and status."""

from __future__ import annotations

from django.db.models import Avg, Q, QuerySet

from agents.models import Run, TaskResult


def exportable_runs(
    *,
    workspace_id: int | None = None,
    suite: str | None = None,
    min_reward: float | None = None,
    status: str | None = None,
) -> QuerySet[Run]:
    """Finished runs, oldest first; `min_reward` applies to the verifiers' reward, else the
    people's mean rating (a run with neither is left out when a minimum is asked for)."""
    runs = Run.objects.exclude(status__in=Run.ACTIVE).select_related("workspace")
    if workspace_id is not None:
        runs = runs.filter(workspace_id=workspace_id)
    if suite is not None:
        in_suite = TaskResult.objects.filter(evaluation__suite=suite).values("runs")
        runs = runs.filter(pk__in=in_suite)
    if status is not None:
        runs = runs.filter(status=status)
    if min_reward is not None:
        runs = runs.annotate(user_reward=Avg("feedback__rating")).filter(
            Q(reward__gte=min_reward) | Q(reward__isnull=True, user_reward__gte=min_reward)
        )
    return runs.order_by("pk")
