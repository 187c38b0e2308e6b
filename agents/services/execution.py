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
import threading
import time
import uuid
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import DatabaseError, connection
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import get_valid_filename

from agents.model_settings import MODEL_PLANNER, model_config
from agents.models import Run
from agents.registry import CONTEXT_TURN, get_kind, kind_tools, resolve_planner
from agents.runtime import Agent, Budget, Outcome, Policy, RunState, ToolRegistry, events
from agents.runtime.types import Message
from agents.selectors import run_messages
from agents.services.checkpoint import LeaseLost, UnitWrite, unit_commit
from agents.services.tool_memo import DatabaseToolMemo
from agents.services.unit_log import UnitLog, run_is_cancel_requested

logger = logging.getLogger(__name__)

SliceStatus = Literal["finished", "continue", "busy", "lost"]


__all__ = ["LeaseLost", "run_advance", "run_cancel_idle", "run_fail_internal"]


@dataclass(frozen=True)
class SliceResult:
    status: SliceStatus
    units: int = 0


def _lease_deadline() -> datetime:
    return timezone.now() + timedelta(seconds=settings.AGENT_LEASE_SECONDS)


def execution_token(owner: str) -> str:
    """A lease token of one execution: the owner (a task id) and a random part."""
    return f"{owner}#{uuid.uuid4().hex[:12]}"


def lease_acquire(*, run_id: int, owner: str) -> bool:
    """Take the run's lease for `owner` (an execution's token) if it is free or expired."""
    free = Q(lease_owner="") | Q(lease_expires_at__lt=timezone.now())
    taken = (
        Run.objects.filter(pk=run_id, status__in=Run.ACTIVE)
        .filter(free)
        .update(lease_owner=owner, lease_expires_at=_lease_deadline(), slices=F("slices") + 1)
    )
    return taken == 1


def lease_release(*, run_id: int, owner: str) -> None:
    Run.objects.filter(pk=run_id, lease_owner=owner).update(lease_owner="", lease_expires_at=None)


class LeaseHeartbeat:
    """Renews a held lease every third of its length on a thread of its own; `lost` is set when
    a renewal finds the lease taken (the slice must then stop)."""

    def __init__(self, run_id: int, token: str, interval: float | None = None) -> None:
        self.run_id, self.token = run_id, token
        self.interval = interval or settings.AGENT_LEASE_SECONDS / 3.0
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._beat, name=f"lease-heartbeat-{run_id}", daemon=True
        )

    def __enter__(self) -> LeaseHeartbeat:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()

    def _beat(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    renewed = Run.objects.filter(pk=self.run_id, lease_owner=self.token).update(
                        lease_expires_at=_lease_deadline()
                    )
                except DatabaseError:
                    logger.warning("run %s: lease renewal failed; retrying", self.run_id)
                    continue
                if not renewed:
                    logger.warning("run %s: lease lost by %s", self.run_id, self.token)
                    self.lost.set()
                    return
        finally:
            connection.close()  # this thread's own connection


class CancelWatch:
    """Whether the run must stop: its lease was lost, or a cancel was asked for. Every commit
    says whether a cancel was asked (free); only within a long unit (a model stream, a slow
    tool) is the database asked, at most every `interval` seconds."""

    def __init__(
        self, run_id: int, lease_lost: threading.Event | None = None, interval: float = 0.5
    ) -> None:
        self.run_id, self.lease_lost, self.interval = run_id, lease_lost, interval
        self.requested = False
        self.checked_at = float("-inf")

    def note(self, requested: bool) -> None:
        self.requested = self.requested or requested
        self.checked_at = time.monotonic()

    def __call__(self) -> bool:
        if self.lease_lost is not None and self.lease_lost.is_set():
            return True
        if not self.requested and time.monotonic() - self.checked_at >= self.interval:
            self.note(run_is_cancel_requested(self.run_id))
        return self.requested


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
            memo=DatabaseToolMemo(run.pk),
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
    token = execution_token(owner)
    if not lease_acquire(run_id=run_id, owner=token):
        return SliceResult("busy")
    with LeaseHeartbeat(run_id, token) as heartbeat:
        try:
            return _advance(run_id, token, max_units, max_seconds, heartbeat)
        except DatabaseError:
            # A transient error: give the lease back so the retried task resumes at once.
            try:
                lease_release(run_id=run_id, owner=token)
            except DatabaseError:
                logger.warning("run %s: could not release the lease after an error", run_id)
            raise


@dataclass
class SavedConversation:
    """How many of the run's messages its stored rows hold (as of the last commit)."""

    count: int


def _advance(
    run_id: int, owner: str, max_units: int, max_seconds: float, heartbeat: LeaseHeartbeat
) -> SliceResult:
    run = Run.objects.select_related("workspace").get(pk=run_id)
    log = UnitLog(run_id)
    cancel = CancelWatch(run_id, heartbeat.lost)
    cancel.note(run.cancel_requested)
    try:
        agent = build_agent(run, log, cancel)
        state, saved = _load_state(run)
    except LookupError as error:  # the planner or kind vanished from this deployment
        _fail(run_id=run_id, owner=owner, log=log, message=str(error))
        return SliceResult("finished")
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
            _checkpoint(
                run_id=run_id,
                owner=owner,
                state=state,
                log=log,
                outcome=outcome,
                saved=saved,
                cancel=cancel,
            )
            if outcome is not None:
                return SliceResult("finished", units)
            if units >= max_units or time.monotonic() - started >= max_seconds:
                break
    except LeaseLost:
        logger.warning("run %s: lease lost by %s; another worker continues", run_id, owner)
        return SliceResult("lost", units)
    lease_release(run_id=run_id, owner=owner)
    return SliceResult("continue", units)


def _load_state(run: Run) -> tuple[RunState, SavedConversation]:
    """The run's state from its last checkpoint (its messages from their rows), or a new one."""
    if not run.state:
        return run_start_state(run), SavedConversation(0)
    if "messages" in run.state:  # a checkpoint written whole: its messages are not rows yet
        return RunState.from_dict(run.state), SavedConversation(0)
    messages = run_messages(run_id=run.pk)
    return RunState.from_dict({**run.state, "messages": messages}), SavedConversation(len(messages))


def _checkpoint(
    *,
    run_id: int,
    owner: str,
    state: RunState | None,
    log: UnitLog,
    outcome: Outcome | None,
    saved: SavedConversation | None = None,
    cancel: CancelWatch | None = None,
) -> None:
    """Record what the unit produced. `saved` tracks the stored messages, so only the new ones
    are written (without it, the conversation is written whole)."""
    staged_events, staged_artifacts = log.drain()
    stored = [
        (pending, _store_file(run_id, pending.ref, pending.name, pending.content))
        for pending in staged_artifacts
    ]
    write = UnitWrite(run_id, owner, staged_events, stored, outcome=outcome)
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
            except OSError:
                logger.warning("run %s: could not remove %s", run_id, path)
        raise
    if state is not None:
        state.mark_saved()
        if saved is not None:
            saved.count = len(state.messages)
    if cancel is not None:
        cancel.note(committed.cancel_requested)


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
