"""Collects what one unit of a run produced, to persist it in one transaction with the state."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from agents.models import Artifact, Run
from agents.runtime import events
from agents.trajectories.known_secrets import settings_scrubber


@dataclass
class PendingArtifact:
    ref: str
    name: str
    content: bytes
    media_type: str
    kind: str
    metadata: dict[str, Any]


def redacted(value: Any) -> Any:
    """`value` with the deployment's secrets and secret-shaped strings replaced.

    The last line of defence for what a run shows and keeps: every event a unit produces (tool
    calls and results, model text, answers, failures) passes through `UnitLog.emit`, and every
    text artifact through `add_artifact`, so this is the one place they are scrubbed; providers
    already word their errors without keys (`finance.providers.http.without_secrets`).
    """
    return settings_scrubber(workspace_keys=False).data(value)


# Events a person waits for while a unit is still running (streamed text, progress, retries):
# they are committed at once instead of with the unit's checkpoint.
LIVE_TYPES = frozenset({events.MODEL_DELTA, events.RUN_STATUS})


@dataclass
class UnitLog:
    """An event sink and artifact store for one run; drained at every checkpoint."""

    run_id: int
    kind: str = ""
    """The run's workspace kind (a label of its metrics)."""
    events: list[tuple[str, datetime, dict[str, Any]]] = field(default_factory=list)
    artifacts: list[PendingArtifact] = field(default_factory=list)
    on_live: Callable[[], None] | None = None
    hold_live: bool = False
    """While set (a call with effects is inside its transaction), live events wait for the
    unit's commit."""

    def emit(self, type: str, payload: dict[str, Any]) -> None:
        self.events.append((type, timezone.now(), redacted(payload)))
        if type in LIVE_TYPES and self.on_live is not None and not self.hold_live:
            self.on_live()

    def put(self, *, name: str, content: str, media_type: str = "text/plain") -> str:
        return self.add_artifact(
            name=name, content=content.encode(), media_type=media_type, kind="observation"
        )

    def add_artifact(
        self,
        *,
        name: str,
        content: bytes,
        media_type: str,
        kind: str,
        metadata: dict[str, Any] | None = None,
    ) -> str:
        """Stage an artifact; it is saved, with an `artifact.created` event, at the checkpoint."""
        ref = f"art_{uuid.uuid4().hex[:20]}"
        if media_type.startswith("text/") or media_type == "application/json":
            content = redacted(content.decode(errors="replace")).encode()
        self.artifacts.append(
            PendingArtifact(ref, name, content, media_type, kind, dict(metadata or {}))
        )
        payload = {"ref": ref, "name": name, "kind": kind, "media_type": media_type}
        self.emit(events.ARTIFACT_CREATED, {**payload, "size": len(content)})
        return ref

    def read(self, ref: str) -> str:
        for pending in self.artifacts:
            if pending.ref == ref:
                return pending.content.decode()
        artifact = Artifact.objects.filter(Q(ref=ref), run_id=self.run_id).first()
        if artifact is None:
            raise KeyError(ref)
        with artifact.file.open("rb") as handle:
            return bytes(handle.read()).decode(errors="replace")

    def drain(self) -> tuple[list[tuple[str, datetime, dict[str, Any]]], list[PendingArtifact]]:
        staged = (self.events, self.artifacts)
        self.events, self.artifacts = [], []
        return staged


def run_is_cancel_requested(run_id: int) -> bool:
    return Run.objects.filter(pk=run_id, cancel_requested=True).exists()
