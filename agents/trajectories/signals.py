"""Step-level signals read from a run's event log: each tool call's outcome, each round's checks.

Plain Python over event dicts (`{"seq", "type", "ts", "payload"}`, as `Event.to_dict` gives them),
so it can be tested without a database.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from agents.runtime import events as event_types

EventDict = Mapping[str, Any]
Signal = dict[str, Any]

ERROR_CHARS = 500


def step_signals(events: Iterable[EventDict]) -> list[Signal]:
    """One signal per tool result and per completed refinement round, in event order."""
    signals: list[Signal] = []
    previous_checks: Any = None
    for event in events:
        payload = event.get("payload") or {}
        if event.get("type") == event_types.TOOL_RESULT:
            signals.append(tool_signal(event["seq"], payload))
        elif event.get("type") == event_types.ROUND_COMPLETED:
            checks = payload.get("checks")
            signals.append(
                {
                    "type": "round",
                    "seq": event["seq"],
                    "round": payload.get("round"),
                    "checks_before": previous_checks,
                    "checks_after": checks,
                    "passed": payload.get("passed"),
                }
            )
            previous_checks = checks
    return signals


def tool_signal(seq: int, payload: Mapping[str, Any]) -> Signal:
    """A `tool.result` event as a signal: which call, whether it worked, how long, what failed."""
    ok = bool(payload.get("ok"))
    error = None if ok else str(payload.get("content") or "")[:ERROR_CHARS]
    return {
        "type": "tool_call",
        "seq": seq,
        "step": payload.get("step"),
        "call_id": payload.get("id"),
        "tool": payload.get("name"),
        "ok": ok,
        "duration_ms": payload.get("duration_ms"),
        "error": error,
    }


def tool_durations(events: Iterable[EventDict]) -> dict[str, dict[str, float | int]]:
    """Per tool name: how many calls, their total and longest duration in milliseconds."""
    out: dict[str, dict[str, float | int]] = {}
    for event in events:
        if event.get("type") != event_types.TOOL_RESULT:
            continue
        payload = event.get("payload") or {}
        duration = float(payload.get("duration_ms") or 0.0)
        entry = out.setdefault(
            str(payload.get("name")), {"calls": 0, "total_ms": 0.0, "max_ms": 0.0}
        )
        entry["calls"] = int(entry["calls"]) + 1
        entry["total_ms"] = round(float(entry["total_ms"]) + duration, 2)
        entry["max_ms"] = max(float(entry["max_ms"]), duration)
    return out


def first_payload(events: Iterable[EventDict], type: str) -> Mapping[str, Any] | None:
    """The payload of the first event of a type (e.g. `run.started`), or None."""
    for event in events:
        if event.get("type") == type:
            payload: Mapping[str, Any] = event.get("payload") or {}
            return payload
    return None
