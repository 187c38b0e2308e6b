"""The whole state of a run as plain serialisable data, so any worker can resume it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from agents.runtime.stuck import StuckDetector
from agents.runtime.types import Message, Outcome, ToolCall


@dataclass(frozen=True)
class Budget:
    """Limits that end a run: decisions taken, tokens used, seconds since it started."""

    max_steps: int = 30
    max_tokens: int = 200_000
    max_seconds: float = 600.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_steps": self.max_steps,
            "max_tokens": self.max_tokens,
            "max_seconds": self.max_seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Budget:
        defaults = cls()
        return cls(
            max_steps=int(data.get("max_steps", defaults.max_steps)),
            max_tokens=int(data.get("max_tokens", defaults.max_tokens)),
            max_seconds=float(data.get("max_seconds", defaults.max_seconds)),
        )


@dataclass
class RunState:
    """Messages so far, calls still to run, counters; `to_dict` after every unit is a checkpoint."""

    messages: list[Message]
    steps: int = 0
    units: int = 0
    tokens_used: int = 0
    started_at: float | None = None
    pending: list[ToolCall] = field(default_factory=list)
    notice: str = ""
    recoveries: int = 0
    stuck: StuckDetector = field(default_factory=StuckDetector)
    outcome: Outcome | None = None
    changed_from: int | None = field(default=None, compare=False)
    """The lowest message index rewritten or removed since the last checkpoint; None when only
    appends happened (then the stored messages plus the new ones are the messages). Not part of
    `to_dict`: the host resets it with `mark_saved` once it has stored a checkpoint."""

    @classmethod
    def start(cls, *, prompt: str, system: str) -> RunState:
        return cls(
            messages=[{"role": "system", "content": system}, {"role": "user", "content": prompt}]
        )

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    def mark_changed(self, index: int) -> None:
        """Record that the message at `index` (and maybe later ones) was rewritten or removed."""
        self.changed_from = index if self.changed_from is None else min(self.changed_from, index)

    def mark_saved(self) -> None:
        """A checkpoint holds the messages as they are: no message has changed since."""
        self.changed_from = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "messages": self.messages,
            "steps": self.steps,
            "units": self.units,
            "tokens_used": self.tokens_used,
            "started_at": self.started_at,
            "pending": [call.to_dict() for call in self.pending],
            "notice": self.notice,
            "recoveries": self.recoveries,
            "stuck": self.stuck.to_dict(),
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunState:
        outcome = data.get("outcome")
        return cls(
            messages=list(data["messages"]),
            steps=data.get("steps", 0),
            units=data.get("units", 0),
            tokens_used=data.get("tokens_used", 0),
            started_at=data.get("started_at"),
            pending=[ToolCall.from_dict(call) for call in data.get("pending", [])],
            notice=data.get("notice", ""),
            recoveries=data.get("recoveries", 0),
            stuck=StuckDetector.from_dict(data.get("stuck", {})),
            outcome=Outcome.from_dict(outcome) if outcome else None,
        )
