"""Loop detection: the same call with the same outcome, A/B ping-pong, or the same message again."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from agents.runtime.types import ToolCall


def fingerprint(value: Any) -> str:
    raw = json.dumps(value, sort_keys=True, default=str).encode()
    return hashlib.sha1(raw, usedforsecurity=False).hexdigest()[:16]


@dataclass
class StuckDetector:
    """Watches recent calls and messages; `repeats` consecutive equal ones count as a loop."""

    repeats: int = 3
    calls: list[list[str]] = field(default_factory=list)  # [call key, outcome key, label]
    messages: list[str] = field(default_factory=list)

    def observe_call(self, call: ToolCall, outcome: str) -> str | None:
        """Record a finished call; return a description of the loop it closes, if any."""
        key = fingerprint([call.name, call.arguments])
        label = f"{call.name}({json.dumps(call.arguments, sort_keys=True)[:120]})"
        self.calls.append([key, fingerprint(outcome), label])
        del self.calls[: -2 * self.repeats]
        return self._same_call() or self._ping_pong()

    def observe_message(self, text: str) -> str | None:
        """Record an assistant message; identical non-empty messages in a row are a loop."""
        if not text.strip():
            return None
        self.messages.append(fingerprint(text))
        del self.messages[: -self.repeats]
        if len(self.messages) == self.repeats and len(set(self.messages)) == 1:
            return f"the same message was written {self.repeats} times in a row"
        return None

    def reset(self) -> None:
        self.calls.clear()
        self.messages.clear()

    def _same_call(self) -> str | None:
        recent = self.calls[-self.repeats :]
        if len(recent) < self.repeats:
            return None
        if len({(key, outcome) for key, outcome, _ in recent}) == 1:
            return f"{recent[-1][2]} was called {self.repeats} times with the same result"
        return None

    def _ping_pong(self) -> str | None:
        recent = self.calls[-2 * self.repeats :]
        if len(recent) < 2 * self.repeats:
            return None
        evens = {(key, outcome) for key, outcome, _ in recent[0::2]}
        odds = {(key, outcome) for key, outcome, _ in recent[1::2]}
        if len(evens) == 1 and len(odds) == 1 and evens != odds:
            first, second = recent[-2][2], recent[-1][2]
            return f"calls alternate between {first} and {second} without progress"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"repeats": self.repeats, "calls": self.calls, "messages": self.messages}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StuckDetector:
        return cls(
            repeats=data.get("repeats", 3),
            calls=[list(entry) for entry in data.get("calls", [])],
            messages=list(data.get("messages", [])),
        )
