"""One run as one training record: OpenAI chat messages, tool schemas, rewards, signals, metadata.

Plain Python: `RunFacts` holds what was read from the database; `trajectory_record` shapes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agents.runtime import events as event_types
from agents.runtime.compression import COMPRESSED_MARK
from agents.trajectories.messages import pair_messages
from agents.trajectories.signals import EventDict, Signal, first_payload, tool_durations

FORMAT = "agentworks.trajectory/1"


@dataclass(frozen=True)
class Feedback:
    rating: int
    comment: str


@dataclass(frozen=True)
class RunFacts:
    """Everything a trajectory is made of, already read from the database."""

    run_id: int
    workspace_id: int
    workspace_kind: str
    status: str
    policy: str
    messages: Sequence[Mapping[str, Any]]
    tools: Sequence[Mapping[str, Any]]
    events: Sequence[EventDict]
    signals: Sequence[Signal] = ()
    model: str | None = None
    turn: int = 1
    steps: int = 0
    tokens: int = 0
    reason: str = ""
    verifier_reward: float | None = None
    feedback: Sequence[Feedback] = ()
    created_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    evaluation: Mapping[str, Any] | None = None
    notes: Sequence[str] = field(default_factory=tuple)
    """Problems met while reading the run (a kind's signals that failed), kept in the metadata."""


def trajectory_record(facts: RunFacts) -> dict[str, Any]:
    """The record: {"messages", "tools", "reward", "signals", "metadata"}."""
    paired = pair_messages(facts.messages)
    return {
        "messages": paired.messages,
        "tools": [dict(tool) for tool in facts.tools],
        "reward": reward(facts),
        "signals": [dict(signal) for signal in facts.signals],
        "metadata": {
            "format": FORMAT,
            "run_id": facts.run_id,
            "workspace_id": facts.workspace_id,
            "workspace_kind": facts.workspace_kind,
            "turn": facts.turn,
            "policy": facts.policy,
            "model": facts.model,
            "status": facts.status,
            "reason": facts.reason,
            "steps": facts.steps,
            "tokens": facts.tokens,
            "timings": timings(facts),
            "evaluation": dict(facts.evaluation) if facts.evaluation else None,
            "compressed_observations": sum(
                1
                for message in paired.messages
                if message["role"] == "tool" and str(message["content"]).startswith(COMPRESSED_MARK)
            ),
            "condensed_messages": sum(
                int((event.get("payload") or {}).get("messages_condensed") or 0)
                for event in facts.events
                if event.get("type") == event_types.CONTEXT_CONDENSED
            ),
            "repairs": [*paired.repairs, *facts.notes],
        },
    }


def reward(facts: RunFacts) -> dict[str, Any]:
    """The verifiers' reward, the people's mean rating (+1/-1), and what they said."""
    ratings = [item.rating for item in facts.feedback]
    return {
        "verifiers": facts.verifier_reward,
        "user": sum(ratings) / len(ratings) if ratings else None,
        "feedback": [{"rating": item.rating, "comment": item.comment} for item in facts.feedback],
    }


def timings(facts: RunFacts) -> dict[str, Any]:
    """When the run was created, started and finished; wall seconds; time spent per tool."""
    wall = None
    if facts.started_at and facts.finished_at:
        wall = round((facts.finished_at - facts.started_at).total_seconds(), 3)
    ended = first_payload(facts.events, event_types.RUN_FINISHED) or first_payload(
        facts.events, event_types.RUN_FAILED
    )
    return {
        "created_at": _iso(facts.created_at),
        "started_at": _iso(facts.started_at),
        "finished_at": _iso(facts.finished_at),
        "wall_s": wall,
        "agent_s": ended.get("elapsed_s") if ended else None,
        "tools": tool_durations(facts.events),
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None
