"""Advancing a run in bounded slices under a lease, checkpointing after every unit.

A slice holds the run's lease (so no two workers advance it), runs a few units, and after each
one commits the unit's events, artifacts and the runtime state in one transaction, fenced by the
lease. A slice killed at any point leaves the last committed unit as the truth: the next slice
resumes from it, so every event is recorded exactly once.

**The lease** belongs to one execution, not to a task: each `run_advance` call takes it under a
token of its own (`<owner>#<random>`), so a redelivered copy of the same Celery task, which has
the same task id, cannot hold it beside the original. While a slice runs, a heartbeat thread
renews the lease every third of `AGENT_LEASE_SECONDS`, so a unit that waits long for a model or
a provider keeps it; the moment a renewal finds the lease gone (it expired and another execution
took it), the slice stops at the next check (the agent's cancellation hook) and every write is
fenced by the token, so nothing of the lost execution is recorded.

**Live events, exactly once as shown.** Streamed text and progress are committed as they happen,
before their unit ends. When a worker is lost mid-unit, the unit runs again from the last
checkpoint and streams again; the next slice first records `events.superseded` {from, to}
naming the lost unit's live events (everything after `checkpoint_seq`), and every reader (the
browser timeline, trajectories, evaluation checks) leaves them out, so each logical event is
shown once. The log itself stays append-only: seqs are 1..N, nothing is rewritten.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Literal

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, transaction
from django.utils.text import get_valid_filename

from agents.model_settings import MODEL_PLANNER, model_config
from agents.models import Run
from agents.observability.collectors import queue_of_kind
from agents.observability.metrics import observe_events, observe_slice
from agents.registry import get_kind, kind_tools, resolve_planner
from agents.runtime import Agent, Budget, Outcome, Policy, RunState, ToolRegistry, events
from agents.runtime.log_context import bind, log_scope
from agents.selectors import run_messages
from agents.services.checkpoint import LeaseLost, UnitWrite, unit_commit
from agents.services.conversation import conversation_messages
from agents.services.leases import (
    CancelWatch,
    LeaseHeartbeat,
    execution_token,
    lease_acquire,
    lease_release,
)
from agents.services.quotas import QuotaExceeded, check_stored_bytes
from agents.services.resume_cache import Resumable, resume_keep, resume_take
from agents.services.tool_memo import DatabaseToolMemo
from agents.services.unit_log import UnitLog

logger = logging.getLogger(__name__)

SliceStatus = Literal["finished", "continue", "busy", "lost"]


__all__ = [
    "LeaseLost",
    "conversation_messages",
    "lease_acquire",
    "lease_release",
    "run_advance",
    "run_cancel_idle",
    "run_fail_internal",
]


@dataclass(frozen=True)
class SliceResult:
    status: SliceStatus
    units: int = 0
    kind: str = ""


def build_agent(run: Run, log: UnitLog, cancelled: CancelWatch | None = None) -> Agent:
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
        # A transient database error inside a tool retries the slice; it is not the tool's fault.
        tools=ToolRegistry(
            tools,
            passthrough=(DatabaseError,),
            memo=DatabaseToolMemo(run.pk, log),
            default_timeout_s=settings.AGENT_TOOL_TIMEOUT_SECONDS or None,
        ),
        sink=log,
        artifacts=log,
        budget=Budget.from_dict(run.budget),
        cancelled=cancelled or CancelWatch(run.pk),
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


def run_advance(
    *, run_id: int, owner: str, max_units: int | None = None, max_seconds: float | None = None
) -> SliceResult:
    """Advance one slice of a run; transient database errors propagate so the task retries."""
    max_units = max_units or settings.AGENT_SLICE_UNITS
    max_seconds = max_seconds or settings.AGENT_SLICE_SECONDS
    token = execution_token(owner)
    if not lease_acquire(run_id=run_id, owner=token):
        return SliceResult("busy")
    began = time.monotonic()
    # The slice's log lines name the run and its owner (bound once the run is loaded).
    with log_scope(run_id=run_id, user_id=None), LeaseHeartbeat(run_id, token) as heartbeat:
        try:
            result = _advance(run_id, token, max_units, max_seconds, heartbeat)
        except DatabaseError:
            # A transient error: give the lease back so the retried task resumes at once.
            try:
                lease_release(run_id=run_id, owner=token)
            except DatabaseError:
                logger.warning("run %s: could not release the lease after an error", run_id)
            raise
    queue = queue_of_kind(result.kind)
    observe_slice(queue=queue, status=result.status, seconds=time.monotonic() - began)
    return result


@dataclass
class SavedConversation:
    """How many of the run's messages its stored rows hold, and the run's checkpoint seq, as of
    the last commit."""

    count: int
    checkpoint_seq: int = 0


def _advance(
    run_id: int, owner: str, max_units: int, max_seconds: float, heartbeat: LeaseHeartbeat
) -> SliceResult:
    run = Run.objects.select_related("workspace").get(pk=run_id)
    bind(user_id=run.workspace.owner_id)
    result = _advance_run(run, owner, max_units, max_seconds, heartbeat)
    return replace(result, kind=run.workspace.kind)


def _advance_run(
    run: Run, owner: str, max_units: int, max_seconds: float, heartbeat: LeaseHeartbeat
) -> SliceResult:
    run_id = run.pk
    log = UnitLog(run_id, kind=run.workspace.kind)
    cancel = CancelWatch(run_id, heartbeat.lost)
    cancel.note(run.cancel_requested)
    kept = resume_take(run_id, slices=run.slices, checkpoint_seq=run.checkpoint_seq)
    try:
        agent = build_agent(run, log, cancel)
        state, saved = _load_state(run) if kept is None else _resumed(kept)
    except LookupError as error:  # the planner or kind vanished from this deployment
        _fail(run_id=run_id, owner=owner, log=log, message=str(error))
        return SliceResult("finished")
    try:
        # What a run writes (renders, exports, notes) counts too: a run that has filled its
        # owner's space stops at its next slice, having passed it by one slice's artifacts.
        check_stored_bytes(user=run.workspace.owner, adding=0)
    except QuotaExceeded as full:
        _fail(run_id=run_id, owner=owner, log=log, message=str(full), reason="quota")
        return SliceResult("finished")
    if kept is not None and agent.compressor is not None:
        agent.compressor = replace(agent.compressor, sizes=kept.sizes)
    if run.last_seq > run.checkpoint_seq:
        # Live events of a unit whose worker was lost before it committed: that unit runs again
        # now, so what it streamed then is marked superseded, and no client shows it twice.
        log.emit(
            events.EVENTS_SUPERSEDED,
            {
                "from": run.checkpoint_seq + 1,
                "to": run.last_seq,
                "reason": "the step was interrupted (its worker was lost) and runs again",
            },
        )
    # Streamed text and progress are committed as they happen (the unit's own events so far go
    # with them, to keep seq order); the state is still checkpointed only at the end of the unit.
    log.on_live = lambda: _checkpoint(
        run_id=run_id, owner=owner, state=None, log=log, outcome=None, cancel=cancel
    )
    started, units = time.monotonic(), 0
    try:
        while True:
            outcome = agent.step(state)
            units += 1
            if heartbeat.lost.is_set():
                raise LeaseLost(run_id)
            last = units >= max_units or time.monotonic() - started >= max_seconds
            if last or outcome is not None:
                heartbeat.stop()  # the lease goes back with this commit
            _checkpoint(
                run_id=run_id,
                owner=owner,
                state=state,
                log=log,
                outcome=outcome,
                saved=saved,
                cancel=cancel,
                release=last,
            )
            if outcome is not None:
                return SliceResult("finished", units)
            if last:
                break
    except LeaseLost:
        logger.warning("run %s: lease lost by %s; another worker continues", run_id, owner)
        return SliceResult("lost", units)
    if agent.compressor is not None:
        resume_keep(
            run_id,
            Resumable(state, agent.compressor.sizes, run.slices, saved.checkpoint_seq, saved.count),
        )
    return SliceResult("continue", units)


def _load_state(run: Run) -> tuple[RunState, SavedConversation]:
    """The run's state from its last checkpoint (its messages from their rows), or a new one."""
    seq = run.checkpoint_seq
    if not run.state:
        return run_start_state(run), SavedConversation(0, seq)
    if "messages" in run.state:  # a checkpoint written whole: its messages are not rows yet
        return RunState.from_dict(run.state), SavedConversation(0, seq)
    messages = run_messages(run_id=run.pk)
    state = RunState.from_dict({**run.state, "messages": messages})
    return state, SavedConversation(len(messages), seq)


def _resumed(kept: Resumable) -> tuple[RunState, SavedConversation]:
    return kept.state, SavedConversation(kept.message_count, kept.checkpoint_seq)


def _checkpoint(
    *,
    run_id: int,
    owner: str,
    state: RunState | None,
    log: UnitLog,
    outcome: Outcome | None,
    saved: SavedConversation | None = None,
    cancel: CancelWatch | None = None,
    release: bool = False,
) -> None:
    """Record what the unit produced. `saved` tracks the stored messages, so only the new ones
    are written (without it, the conversation is written whole)."""
    staged_events, staged_artifacts = log.drain()
    stored = [
        (pending, _store_file(run_id, pending.ref, pending.name, pending.content))
        for pending in staged_artifacts
    ]
    write = UnitWrite(run_id, owner, staged_events, stored, outcome=outcome, release=release)
    if state is not None:
        saved_count = saved.count if saved is not None else 0
        start = saved_count if state.changed_from is None else min(state.changed_from, saved_count)
        checkpoint = state.to_dict()
        del checkpoint["messages"]
        write = replace(
            write,
            state={**checkpoint, "message_count": len(state.messages)},
            messages=state.messages[start:],
            message_start=start,
            message_count=len(state.messages),
            rewrite=saved is None or start < saved_count,
        )
    try:
        committed = unit_commit(write)
    except BaseException:
        # Not recorded (the lease was lost, the database failed): the files go too, so a unit
        # that runs again leaves no orphan on disk.
        for _, path in stored:
            try:
                default_storage.delete(path)
            except Exception:  # OSError locally, a botocore error on S3: the janitor retries
                logger.warning("run %s: could not remove %s", run_id, path, exc_info=True)
        raise
    if state is not None:
        state.mark_saved()
        if saved is not None:
            saved.count = len(state.messages)
            saved.checkpoint_seq = committed.last_seq
    if cancel is not None:
        cancel.note(committed.cancel_requested)
    rows, kind = committed.events, log.kind
    transaction.on_commit(lambda: observe_events(kind, rows))


def _store_file(run_id: int, ref: str, name: str, content: bytes) -> str:
    path = f"runs/{run_id}/{ref}/{get_valid_filename(name) or 'artifact'}"
    return default_storage.save(path, ContentFile(content))


def _fail(*, run_id: int, owner: str, log: UnitLog, message: str, reason: str = "error") -> None:
    outcome = Outcome(status="failed", message=message, reason=reason)
    log.emit(events.RUN_FAILED, outcome.to_dict())
    _checkpoint(run_id=run_id, owner=owner, state=None, log=log, outcome=outcome)


def run_fail_internal(
    *,
    run_id: int,
    owner: str,
    error: BaseException | None = None,
    message: str = "",
    reason: str = "error",
) -> None:
    """End a run whose slice hit a bug (or its time limit), so it fails visibly instead of
    retrying forever; `message` says why (else the error does)."""
    owner = execution_token(owner)
    Run.objects.filter(pk=run_id, lease_owner__startswith=f"{owner.split('#')[0]}#").update(
        lease_owner="", lease_expires_at=None
    )  # the failed execution's own lease: give it up first
    if lease_acquire(run_id=run_id, owner=owner):
        message = message or f"internal error: {type(error).__name__}: {error}"
        _fail(run_id=run_id, owner=owner, log=UnitLog(run_id), message=message, reason=reason)


def run_cancel_idle(*, run_id: int) -> None:
    """Finish a run whose cancel was asked for when no worker holds it (queued, or between
    slices); a worker that holds it stops on its own, so a busy lease is left alone."""
    if not Run.objects.filter(pk=run_id, status__in=Run.ACTIVE, cancel_requested=True).exists():
        return
    run_advance(run_id=run_id, owner=f"cancel:{run_id}:{time.time_ns()}", max_units=1)
