"""A stored run as its trajectory record (scrubbed of secrets), and as one JSONL line."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings

from agents.model_settings import MODEL_PLANNER
from agents.models import Run, RunFeedback
from agents.registry import DEFAULT_SYSTEM_PROMPT, get_kind, kind_tools, resolve_planner
from agents.runtime import Tool
from agents.runtime import events as event_types
from agents.selectors import run_state, shown_events
from agents.trajectories.kinds import signals_for
from agents.trajectories.known_secrets import settings_scrubber
from agents.trajectories.record import Feedback, RunFacts, trajectory_record
from agents.trajectories.scrub import REDACTED, Scrubber
from agents.trajectories.signals import EventDict, Signal, first_payload, step_signals

logger = logging.getLogger(__name__)

# Streamed text is repeated whole in `model.message`; a trajectory does not need it.
SKIPPED_EVENTS = (event_types.MODEL_DELTA,)


def run_trajectory(run: Run, *, scrubber: Scrubber | None = None) -> dict[str, Any]:
    """The run's trajectory record, with every secret redacted."""
    record = trajectory_record(run_facts(run))
    cleaned: dict[str, Any] = (scrubber or settings_scrubber()).data(record)
    return cleaned


def trajectory_line(record: Mapping[str, Any], *, scrubber: Scrubber | None = None) -> str:
    """One JSONL line (without the newline); re-checked for known secrets after encoding."""
    scrubber = scrubber or settings_scrubber()
    line = json.dumps(record, ensure_ascii=False, default=str)
    for secret in scrubber.leaks(line):  # only if a secret spanned two strings of the record
        line = line.replace(secret, REDACTED)
    return line


def run_facts(run: Run) -> RunFacts:
    """Read one run, its events, feedback and evaluation into the plain facts of a record."""
    events = [
        event.to_dict() for event in shown_events(run_id=run.pk) if event.type not in SKIPPED_EVENTS
    ]
    started = first_payload(events, event_types.RUN_STARTED)
    ended = first_payload(events, event_types.RUN_FINISHED) or {}
    state = run_state(run=run) or {}
    kind_signals, notes = _kind_signals(run, events)
    result = run.result if isinstance(run.result, dict) else {}
    return RunFacts(
        run_id=run.pk,
        workspace_id=run.workspace_id,
        workspace_kind=run.workspace.kind,
        status=run.status,
        policy=str(run.options.get("planner", "offline")),
        model=_model_name(run, started),
        messages=state.get("messages") or _opening_messages(run),
        tools=_tool_specs(run, started),
        events=events,
        signals=[*step_signals(events), *kind_signals],
        turn=Run.objects.filter(workspace_id=run.workspace_id, pk__lt=run.pk).count() + 1,
        steps=int(state.get("steps", ended.get("steps", 0)) or 0),
        tokens=int(state.get("tokens_used", ended.get("tokens_used", 0)) or 0),
        reason=str(result.get("reason") or ""),
        verifier_reward=run.reward,
        feedback=[
            Feedback(rating=item.rating, comment=item.comment)
            for item in RunFeedback.objects.filter(run=run).order_by("created_at", "pk")
        ],
        created_at=run.created_at,
        started_at=run.started_at,
        finished_at=run.finished_at,
        evaluation=_evaluation(run),
        notes=notes,
    )


def _opening_messages(run: Run) -> list[dict[str, Any]]:
    """What the run would have started from, for a run that never took a step."""
    try:
        system = get_kind(run.workspace.kind).system_prompt
    except LookupError:
        system = DEFAULT_SYSTEM_PROMPT
    return [{"role": "system", "content": system}, {"role": "user", "content": run.prompt}]


def _tool_specs(run: Run, started: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The OpenAI tool schemas of the run's tools (those `run.started` named, when it did)."""
    planner = str(run.options.get("planner", "offline"))
    tools: Sequence[Tool]
    try:
        if planner == MODEL_PLANNER:
            tools = kind_tools(get_kind(run.workspace.kind))
        else:
            _, tools = resolve_planner(run.workspace.kind, planner)
    except LookupError:
        tools = ()
    named = set(started.get("tools") or ()) if started else set()
    chosen = {tool.name: tool for tool in tools if not named or tool.name in named}
    return [chosen[name].spec() for name in sorted(chosen)]


def _model_name(run: Run, started: Mapping[str, Any] | None) -> str | None:
    """The model a model-planner run used, as its policy named it (`model:<name>`)."""
    policy = str(started.get("policy", "")) if started else ""
    if policy.startswith("model:"):
        return policy.removeprefix("model:")
    if run.options.get("planner") == MODEL_PLANNER:
        return run.workspace.model_name or settings.MODEL_NAME or None
    return None


def _evaluation(run: Run) -> dict[str, Any] | None:
    """The evaluation task the run belongs to (the latest, if several), or None."""
    task = run.task_results.select_related("evaluation").order_by("-evaluation_id", "-pk").first()
    if task is None:
        return None
    return {
        "evaluation_id": task.evaluation_id,
        "suite": task.evaluation.suite,
        "task_id": task.task_id,
        "repeat_index": task.repeat_index,
        "task_status": task.status,
        "task_reward": task.reward,
    }


def _kind_signals(run: Run, events: Sequence[EventDict]) -> tuple[list[Signal], list[str]]:
    function = signals_for(run.workspace.kind)
    if function is None:
        return [], []
    try:
        return list(function(run, events)), []
    except Exception as error:  # one odd run must not stop an export of thousands
        logger.exception("run %s: the %s trajectory signals failed", run.pk, run.workspace.kind)
        return [], [f"{run.workspace.kind} signals failed: {type(error).__name__}: {error}"]
