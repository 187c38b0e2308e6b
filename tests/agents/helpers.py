"""Builders shared by the agent app tests: runs, their events, staged artifacts."""

from __future__ import annotations

from typing import Any

from agents.models import Artifact, Event, Run
from agents.services.execution import _checkpoint, lease_acquire, lease_release
from agents.services.unit_log import UnitLog

TWO_SUMS = "what is 17*23+4 and 2**10"
ONE_SUM = "what is 6*7"
TIMING_FIELDS = ("duration_ms", "elapsed_s")


def events_of(run: Run) -> list[Event]:
    return list(Event.objects.filter(run_id=run.pk).order_by("seq"))


def seqs_of(run: Run) -> list[int]:
    return [event.seq for event in events_of(run)]


def types_of(run: Run) -> list[str]:
    return [event.type for event in events_of(run)]


def comparable_events(run: Run) -> list[tuple[int, str, dict[str, Any]]]:
    """(seq, type, payload) without the fields that depend on the wall clock."""
    return [
        (
            event.seq,
            event.type,
            {key: value for key, value in event.payload.items() if key not in TIMING_FIELDS},
        )
        for event in events_of(run)
    ]


def stage_artifact(
    run: Run,
    *,
    name: str = "scene.json",
    content: bytes = b'{"cube": 1.5}',
    media_type: str = "application/json",
    owner: str = "test-artifact-writer",
) -> Artifact:
    """Save an artifact the way a unit does: staged in a UnitLog, written at the checkpoint."""
    assert lease_acquire(run_id=run.pk, owner=owner), "the run's lease is held by someone else"
    log = UnitLog(run.pk)
    ref = log.add_artifact(name=name, content=content, media_type=media_type, kind="model")
    _checkpoint(run_id=run.pk, owner=owner, state=None, log=log, outcome=None)
    lease_release(run_id=run.pk, owner=owner)
    return Artifact.objects.get(ref=ref)
