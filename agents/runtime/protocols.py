"""The small protocols through which the runtime talks to the outside world."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.runtime.types import Decision, Message


class EventSink(Protocol):
    """Receives every step of a run as a typed event (persisted and streamed by the host)."""

    def emit(self, type: str, payload: dict[str, Any]) -> None: ...


class Clock(Protocol):
    """Wall-clock seconds; injected so budgets can be tested without sleeping."""

    def time(self) -> float: ...


class SystemClock:
    def time(self) -> float:
        return time.time()


CancelCheck = Callable[[], bool]


@dataclass
class PolicyInput:
    """What a policy sees: the conversation, the tools it may call, hooks for live output."""

    messages: list[Message]
    tools: list[dict[str, Any]]
    step: int
    on_delta: Callable[[str], None] = field(default=lambda text: None)
    on_status: Callable[[str], None] = field(default=lambda text: None)
    cancelled: Callable[[], bool] = field(default=lambda: False)
    """True once the run should stop: a policy that waits long (a model stream) checks it."""


class Policy(Protocol):
    """Proposes the next tool calls, or a final answer when it returns none."""

    name: str

    def decide(self, context: PolicyInput) -> Decision: ...


@dataclass
class ListSink:
    """An in-memory sink: handy for tests and command-line runs."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def emit(self, type: str, payload: dict[str, Any]) -> None:
        self.events.append((type, payload))

    def types(self) -> list[str]:
        return [type for type, _ in self.events]
