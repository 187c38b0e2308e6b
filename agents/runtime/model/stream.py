"""Accumulating a streamed chat completion: text, tool calls by index, finish reason, usage."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class PartialCall:
    id: str = ""
    name: str = ""
    arguments: str = ""


@dataclass
class StreamedReply:
    text: str = ""
    calls: dict[int, PartialCall] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: dict[str, int] = field(default_factory=dict)

    def feed(self, chunk: Any) -> str:
        """Take one chunk; return the text it added (for streaming to the browser)."""
        if getattr(chunk, "usage", None):
            self.usage = _usage(chunk.usage)
        added = ""
        for choice in chunk.choices or ():
            delta = choice.delta
            if delta is not None and delta.content:
                added += delta.content
            for piece in (delta.tool_calls if delta is not None else None) or ():
                call = self.calls.setdefault(piece.index or 0, PartialCall())
                call.id = call.id or (piece.id or "")
                if piece.function is not None:
                    call.name += piece.function.name or ""
                    call.arguments += piece.function.arguments or ""
            if choice.finish_reason:
                self.finish_reason = choice.finish_reason
        self.text += added
        return added

    def ordered_calls(self) -> list[PartialCall]:
        return [self.calls[index] for index in sorted(self.calls)]


def _usage(usage: Any) -> dict[str, int]:
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) if details is not None else None
    result = {
        "prompt_tokens": int(usage.prompt_tokens or 0),
        "completion_tokens": int(usage.completion_tokens or 0),
    }
    if cached is not None:
        result["cached_tokens"] = int(cached)
    return result


@dataclass
class DeltaBatcher:
    """Forwards streamed text in batches (every `interval` seconds), not one event per token."""

    forward: Callable[[str], None]
    interval: float
    clock: Callable[[], float]
    pending: str = ""
    last_flush: float = 0.0

    def add(self, text: str) -> None:
        if not text:
            return
        if not self.pending and self.last_flush == 0.0:
            self.last_flush = self.clock()
        self.pending += text
        if self.clock() - self.last_flush >= self.interval:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.forward(self.pending)
            self.pending = ""
        self.last_flush = self.clock()
