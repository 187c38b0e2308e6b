"""Advancing a run in bounded slices under a lease, checkpointing after every unit.

A slice holds the run's lease (so no two workers advance it), runs a few units, and after each
one commits the unit's events, artifacts and the runtime state in one transaction, fenced by the
lease. A slice killed at any point leaves the last committed unit as the truth: the next slice
resumes from it, so every event is recorded exactly once.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import get_valid_filename

from agents.model_settings import MODEL_PLANNER, model_config
from agents.models import Artifact, Event, Run
from agents.registry import CONTEXT_TURN, get_kind, kind_tools, resolve_planner
from agents.runtime import Agent, Budget, Outcome, Policy, RunState, ToolRegistry, events
from agents.runtime.types import Message
from agents.services.publishing import events_publish
from agents.services.unit_log import UnitLog, run_is_cancel_requested

logger = logging.getLogger(__name__)

SliceStatus = Literal["finished", "continue", "busy", "lost"]


class LeaseLost(Exception):
    """Another worker took the run over (our lease expired); stop without writing."""


@dataclass(frozen=True)
class SliceResult:
    status: SliceStatus
    units: int = 0


def _lease_deadline() -> datetime:
    return timezone.now() + timedelta(seconds=settings.AGENT_LEASE_SECONDS)


def lease_acquire(*, run_id: int, owner: str) -> bool:
    """Take the run's lease if it is free, expired, or already ours (a retried task)."""
    free = Q(lease_owner="") | Q(lease_expires_at__lt=timezone.now()) | Q(lease_owner=owner)
    taken = (
        Run.objects.filter(pk=run_id, status__in=Run.ACTIVE)
        .filter(free)
        .update(lease_owner=owner, lease_expires_at=_lease_deadline(), slices=F("slices") + 1)
    )
    return taken == 1


def lease_release(*, run_id: int, owner: str) -> None:
    Run.objects.filter(pk=run_id, lease_owner=owner).update(lease_owner="", lease_expires_at=None)


def build_agent(run: Run, log: UnitLog) -> Agent:
    planner = run.options.get("planner", "offline")
    policy: Policy
    if planner == MODEL_PLANNER:
        config = model_config(run.workspace)
        if config is None:
            raise LookupError("the model server configured for this run is gone from the settings")
        from agents.runtime.model.policy import ModelPolicy

        policy, tools = ModelPolicy(config), kind_tools(get_kind(run.workspace.kind))
    else:
        policy, tools = resolve_planner(run.workspace.kind, planner)
    return Agent(
        policy=policy,
        tools=ToolRegistry(tools),
        sink=log,
        artifacts=log,
        budget=Budget.from_dict(run.budget),
        cancelled=lambda: run_is_cancel_requested(run.pk),
        options={**run.options, "run_id": run.pk, "workspace_id": run.workspace_id},
    )


def run_start_state(run: Run) -> RunState:
    """A new run's state: the system prompt, the workspace's context messages, the request."""
    kind = get_kind(run.workspace.kind)
    state = RunState.start(prompt=run.prompt, system=kind.system_prompt)
    if kind.context is not None:
        # The state is checkpointed with these messages, so a resumed run sees the same context.
        state.messages[1:1] = kind.context(run)
    return state


def conversation_messages(
    run: Run, *, max_turns: int = 8, answer_chars: int = 600, older_chars: int = 160
) -> list[Message]:
    """The workspace's earlier requests and answers as user/assistant turns (named "context-turn").

    The last `max_turns` finished runs before this one are kept; answers are cut to
    `answer_chars`, and older turns shrink to one line each in a single digest turn.
    """
    earlier = list(
        Run.objects.filter(workspace_id=run.workspace_id, created_at__lte=run.created_at)
        .exclude(pk=run.pk)
        .exclude(status__in=Run.ACTIVE)
        .order_by("created_at", "pk")
        .values_list("prompt", "message", "status")
    )
    split = max(len(earlier) - max_turns, 0)
    older, recent = earlier[:split], earlier[split:]
    messages: list[Message] = []
    if older:
        digest = "; ".join(_clip(prompt, older_chars) for prompt, _, _ in older)
        messages += _turn(
            f"(earlier requests, condensed) {digest}",
            f"(condensed) {len(older)} earlier requests were answered.",
        )
    for prompt, answer, status in recent:
        messages += _turn(prompt, _clip(answer, answer_chars) or f"(the run ended: {status})")
    return messages


def _turn(request: str, answer: str) -> list[Message]:
    return [
        {"role": "user", "name": CONTEXT_TURN, "content": request},
        {"role": "assistant", "name": CONTEXT_TURN, "content": answer},
    ]


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


def run_advance(
    *, run_id: int, owner: str, max_units: int | None = None, max_seconds: float | None = None
) -> SliceResult:
    """Advance one slice of a run; transient database errors propagate so the task retries."""
    max_units = max_units or settings.AGENT_SLICE_UNITS
    max_seconds = max_seconds or settings.AGENT_SLICE_SECONDS
    if not lease_acquire(run_id=run_id, owner=owner):
        return SliceResult("busy")
    run = Run.objects.select_related("workspace").get(pk=run_id)
    log = UnitLog(run_id)
    try:
        agent = build_agent(run, log)
        state = RunState.from_dict(run.state) if run.state else run_start_state(run)
    except LookupError as error:  # the planner or kind vanished from this deployment
        _fail(run_id=run_id, owner=owner, log=log, message=str(error))
        return SliceResult("finished")
    # Streamed text and progress are committed as they happen (the unit's own events so far go
    # with them, to keep seq order); the state is still checkpointed only at the end of the unit.
    log.on_live = lambda: _checkpoint(run_id=run_id, owner=owner, state=None, log=log, outcome=None)
    started, units = time.monotonic(), 0
    try:
        while True:
            outcome = agent.step(state)
            units += 1
            _checkpoint(run_id=run_id, owner=owner, state=state, log=log, outcome=outcome)
            if outcome is not None:
                return SliceResult("finished", units)
            if units >= max_units or time.monotonic() - started >= max_seconds:
                break
    except LeaseLost:
        logger.warning("run %s: lease lost by %s; another worker continues", run_id, owner)
        return SliceResult("lost", units)
    lease_release(run_id=run_id, owner=owner)
    return SliceResult("continue", units)


def _checkpoint(
    *, run_id: int, owner: str, state: RunState | None, log: UnitLog, outcome: Outcome | None
) -> None:
    staged_events, staged_artifacts = log.drain()
    stored = [
        (pending, _store_file(run_id, pending.ref, pending.name, pending.content))
        for pending in staged_artifacts
    ]
    with transaction.atomic():
        # Lock and read only the small columns: the state (which grows with the run) is written,
        # never read back, at a checkpoint.
        current = (
            Run.objects.select_for_update()
            .filter(pk=run_id)
            .values("lease_owner", "last_seq", "status")
            .get()
        )
        if current["lease_owner"] != owner:
            raise LeaseLost(run_id)
        now = timezone.now()
        rows = [
            Event(run_id=run_id, seq=current["last_seq"] + index, type=type, ts=ts, payload=payload)
            for index, (type, ts, payload) in enumerate(staged_events, start=1)
        ]
        Event.objects.bulk_create(rows)
        Artifact.objects.bulk_create(
            Artifact(
                run_id=run_id,
                ref=pending.ref,
                kind=pending.kind,
                name=pending.name,
                file=path,
                media_type=pending.media_type,
                size=len(pending.content),
                metadata=pending.metadata,
            )
            for pending, path in stored
        )
        changes: dict[str, Any] = {
            "last_seq": current["last_seq"] + len(rows),
            "lease_expires_at": now + timedelta(seconds=settings.AGENT_LEASE_SECONDS),
            "updated_at": now,
        }
        if state is not None:
            changes["state"] = state.to_dict()
        if current["status"] == Run.Status.QUEUED:
            changes.update(status=Run.Status.RUNNING, started_at=now)
        if outcome is not None:
            changes.update(
                status=outcome.status,
                result=outcome.to_dict(),
                message=outcome.message,
                finished_at=now,
                lease_owner="",
                lease_expires_at=None,
            )
        Run.objects.filter(pk=run_id).update(**changes)
        transaction.on_commit(lambda: events_publish(run_id=run_id, events=rows))


def _store_file(run_id: int, ref: str, name: str, content: bytes) -> str:
    path = f"runs/{run_id}/{ref}/{get_valid_filename(name) or 'artifact'}"
    return default_storage.save(path, ContentFile(content))


def _fail(*, run_id: int, owner: str, log: UnitLog, message: str) -> None:
    outcome = Outcome(status="failed", message=message, reason="error")
    log.emit(events.RUN_FAILED, outcome.to_dict())
    _checkpoint(run_id=run_id, owner=owner, state=None, log=log, outcome=outcome)


def run_fail_internal(*, run_id: int, owner: str, error: BaseException) -> None:
    """End a run whose slice hit a bug, so it fails visibly instead of retrying forever."""
    if lease_acquire(run_id=run_id, owner=owner):
        message = f"internal error: {type(error).__name__}: {error}"
        _fail(run_id=run_id, owner=owner, log=UnitLog(run_id), message=message)


def run_cancel_idle(*, run_id: int) -> None:
    """Finish a cancelled run at once when no worker holds it (queued, or between slices)."""
    run_advance(run_id=run_id, owner=f"cancel:{run_id}:{time.time_ns()}", max_units=1)
