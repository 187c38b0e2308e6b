"""Reads, always scoped to the user who asks: another user's objects simply do not exist."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from agents.models import Artifact, Event, Run, Workspace

EVENT_PAGE = 500


def workspace_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Workspace]:
    return Workspace.objects.filter(owner_id=user.pk)


def run_list(*, user: AbstractBaseUser | AnonymousUser) -> QuerySet[Run]:
    return Run.objects.filter(workspace__owner_id=user.pk).select_related("workspace")


def run_get(*, user: AbstractBaseUser | AnonymousUser, run_id: int) -> Run | None:
    return run_list(user=user).filter(pk=run_id).first()


def events_after(*, run_id: int, after: int, limit: int = EVENT_PAGE) -> list[Event]:
    """Events with seq > after, in order; the caller has checked access to the run."""
    return list(Event.objects.filter(run_id=run_id, seq__gt=after).order_by("seq")[:limit])


def artifact_list(*, run: Run) -> QuerySet[Artifact]:
    return run.artifacts.all()
