"""Reads, always scoped to the user who asks: another user's objects simply do not exist."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from agents.models import Artifact, Event, Run, RunMessage, Workspace
from agents.runtime import events as event_types
from agents.runtime.types import Message

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


def superseded_seqs(*, run_id: int) -> set[int]:
    """Seqs of events marked superseded (live events of a unit that ran again), with the
    markers themselves: readers that show or score a run leave these out."""
    out: set[int] = set()
    for seq, payload in Event.objects.filter(
        run_id=run_id, type=event_types.EVENTS_SUPERSEDED
    ).values_list("seq", "payload"):
        out.add(seq)
        low, high = int(payload.get("from", 0)), int(payload.get("to", -1))
        out.update(range(low, high + 1))
    return out


def shown_events(*, run_id: int, types: list[str] | None = None) -> list[Event]:
    """A run's events in order, without superseded ones (optionally only of `types`)."""
    hidden = superseded_seqs(run_id=run_id)
    found = Event.objects.filter(run_id=run_id).order_by("seq")
    if types is not None:
        found = found.filter(type__in=types)
    return [event for event in found if event.seq not in hidden]


def run_messages(*, run_id: int) -> list[Message]:
    """The run's conversation as of its last checkpoint, in order."""
    rows = RunMessage.objects.filter(run_id=run_id).order_by("position")
    return list(rows.values_list("body", flat=True))


def run_state(*, run: Run) -> dict[str, Any] | None:
    """The run's last checkpoint whole (the runtime's `RunState.to_dict` shape, messages
    included), or None before its first unit. The messages are stored as rows of their own."""
    if run.state is None:
        return None
    if "messages" in run.state:  # a checkpoint written whole
        return dict(run.state)
    return {**run.state, "messages": run_messages(run_id=run.pk)}


def artifact_list(*, run: Run) -> QuerySet[Artifact]:
    return run.artifacts.all()
