"""What a run cost: steps, tool calls and their failures, tokens, wall time."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from agents.models import Event, Run
from agents.runtime import events


def run_metrics(run: Run) -> dict[str, Any]:
    """Counts from the run's checkpoint and its event log (the log is the truth)."""
    state = run.state or {}
    results = Event.objects.filter(run=run, type=events.TOOL_RESULT).values_list(
        "payload", flat=True
    )
    outcomes = [bool(payload.get("ok")) for payload in results]
    wall = (
        (run.finished_at - run.started_at).total_seconds()
        if run.finished_at and run.started_at
        else 0.0
    )
    return {
        "steps": int(state.get("steps", 0)),
        "tokens": int(state.get("tokens_used", 0)),
        "tool_calls": len(outcomes),
        "tool_failures": outcomes.count(False),
        "wall_s": round(wall, 3),
    }


def sum_metrics(per_run: Iterable[dict[str, Any]]) -> dict[str, Any]:
    total: dict[str, Any] = {
        "runs": 0,
        "steps": 0,
        "tokens": 0,
        "tool_calls": 0,
        "tool_failures": 0,
    }
    wall = 0.0
    for metrics in per_run:
        total["runs"] += 1
        for key in ("steps", "tokens", "tool_calls", "tool_failures"):
            total[key] += metrics[key]
        wall += metrics["wall_s"]
    total["wall_s"] = round(wall, 3)
    return total
