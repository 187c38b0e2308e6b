"""The whole output of one tool call of a stored run, wherever the run kept it."""

from __future__ import annotations

import json
from collections.abc import Sequence

from agents.models import Artifact, Run, RunMessage
from agents.runtime import events as event_types
from agents.runtime.compression import COMPRESSED_MARK
from agents.trajectories.signals import EventDict


def tool_output(run: Run, call_id: str, events: Sequence[EventDict]) -> str | None:
    """The full result of a call: from the state, else its compressed artifact, else the
    transcript of condensed turns holding it, else its event.

    The state keeps results whole unless they were compressed (then an artifact holds them);
    the `tool.result` event keeps only a preview, used when it is complete.
    """
    rows = RunMessage.objects.filter(run=run, body__role="tool", body__tool_call_id=call_id)
    message = rows.values_list("body", flat=True).first()
    if message is not None:
        content = str(message.get("content") or "")
        if not content.startswith(COMPRESSED_MARK):
            return content
    for event in events:
        payload = event.get("payload") or {}
        if (
            event.get("type") == event_types.OBSERVATION_COMPRESSED
            and payload.get("tool_call_id") == call_id
        ):
            stored = _artifact_text(run, str(payload.get("artifact") or ""))
            if stored is not None:
                return stored
    condensed = _condensed_result(run, call_id, events)
    if condensed is not None:
        return condensed
    for event in events:
        payload = event.get("payload") or {}
        if event.get("type") == event_types.TOOL_RESULT and payload.get("id") == call_id:
            return None if payload.get("truncated") else str(payload.get("content") or "")
    return None


def _condensed_result(run: Run, call_id: str, events: Sequence[EventDict]) -> str | None:
    """The result as kept in the transcript of condensed turns (a JSON list of messages)."""
    for event in events:
        if event.get("type") != event_types.CONTEXT_CONDENSED:
            continue
        text = _artifact_text(run, str((event.get("payload") or {}).get("artifact") or ""))
        try:
            removed = json.loads(text) if text is not None else []
        except json.JSONDecodeError:
            continue
        for message in removed if isinstance(removed, list) else []:
            if (
                isinstance(message, dict)
                and message.get("role") == "tool"
                and message.get("tool_call_id") == call_id
            ):
                content = str(message.get("content") or "")
                return None if content.startswith(COMPRESSED_MARK) else content
    return None


def _artifact_text(run: Run, ref: str) -> str | None:
    artifact = Artifact.objects.filter(run=run, ref=ref).first()
    if artifact is None:
        return None
    try:
        with artifact.file.open("rb") as handle:
            return bytes(handle.read()).decode(errors="replace")
    except OSError:
        return None
