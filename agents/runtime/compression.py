"""Observation compression: big tool results go to artifacts, the context keeps a summary."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agents.runtime.tools import ArtifactStore
from agents.runtime.types import Message

COMPRESSED_MARK = "[compressed]"


def estimate_tokens(messages: list[Message]) -> int:
    """A cheap, model-agnostic estimate (~4 characters a token) used for the context budget."""
    return sum(_size(message) for message in messages) // 4 + 1


def _size(message: Message) -> int:
    return len(json.dumps(message, sort_keys=True))


class MessageSizes:
    """`estimate_tokens` for a conversation checked before every decision: each message's size is
    measured once, and again only when its content is replaced (a compression), so the check
    costs a lookup per message instead of serialising the whole history at every step."""

    def __init__(self) -> None:
        self._known: dict[int, tuple[Message, Any, int]] = {}

    def size(self, message: Message) -> int:
        content = message.get("content")
        known = self._known.get(id(message))
        if known is not None and known[0] is message and known[1] is content:
            return known[2]
        size = _size(message)
        self._known[id(message)] = (message, content, size)
        return size

    def tokens(self, messages: list[Message]) -> int:
        """The same figure as `estimate_tokens(messages)` (`size` inlined: this runs before
        every decision over the whole conversation)."""
        known, total = self._known, 0
        for message in messages:
            hit = known.get(id(message))
            if hit is not None and hit[0] is message and hit[1] is message.get("content"):
                total += hit[2]
            else:
                total += self.size(message)
        return total // 4 + 1


@dataclass(frozen=True)
class Compression:
    """One compressed observation, reported as an `observation.compressed` event."""

    tool_call_id: str
    tool: str
    original_chars: int
    kept_chars: int
    artifact: str
    trigger: str

    def to_payload(self) -> dict[str, Any]:
        return {
            "tool_call_id": self.tool_call_id,
            "tool": self.tool,
            "original_chars": self.original_chars,
            "kept_chars": self.kept_chars,
            "artifact": self.artifact,
            "trigger": self.trigger,
        }


@dataclass(frozen=True)
class Compressor:
    """Caps each observation at `observation_cap` chars and the context at `token_budget`."""

    artifacts: ArtifactStore
    observation_cap: int = 4000
    preview_chars: int = 600
    token_budget: int = 24000
    sizes: MessageSizes = field(default_factory=MessageSizes, compare=False, repr=False)

    def compress_result(self, *, tool: str, call_id: str, content: str) -> tuple[str, Compression]:
        """Store a large result whole and return the summary that replaces it in the context."""
        ref = self.artifacts.put(name=f"{tool}-{call_id}.txt", content=content)
        summary = _summary(content, ref, self.preview_chars)
        return summary, Compression(call_id, tool, len(content), len(summary), ref, "size")

    def fit_budget(self, messages: list[Message]) -> list[Compression]:
        """Compress the oldest tool observations, in one block, until the context fits its budget.

        Compressing a block of old messages at once (rather than one message per step) rewrites the
        history rarely, so consecutive model requests keep sharing their prefix. When that is not
        enough, `condense.fit_context` (what the loop calls) also condenses old turns.
        """
        return [compression for _, compression in self.compress_old(messages)]

    def compress_old(
        self, messages: list[Message], *, keep_from: int | None = None
    ) -> list[tuple[int, Compression]]:
        """`fit_budget`, with the index of each message it rewrote; messages from `keep_from` on
        (the latest results, not yet seen by the policy) are left whole."""
        if self.sizes.tokens(messages) <= self.token_budget:
            return []
        done: list[tuple[int, Compression]] = []
        target = self.token_budget * 3 // 4
        chars = sum(map(self.sizes.size, messages))  # estimate_tokens, kept up to date
        for index, message in enumerate(messages[:keep_from]):
            if chars // 4 + 1 <= target:
                break
            content = message.get("content") or ""
            is_tool = message.get("role") == "tool"
            if not is_tool or content.startswith(COMPRESSED_MARK) or len(content) < 400:
                continue
            call_id = message.get("tool_call_id", "")
            tool = message.get("name", "tool")
            ref = self.artifacts.put(name=f"{tool}-{call_id}.txt", content=content)
            before = _size(message)
            message["content"] = _summary(content, ref, 160)
            chars += _size(message) - before
            compression = Compression(
                call_id, tool, len(content), len(message["content"]), ref, "budget"
            )
            done.append((index, compression))
        return done


def _summary(content: str, ref: str, preview_chars: int) -> str:
    preview = content[:preview_chars]
    return (
        f"{COMPRESSED_MARK} {len(content)} characters, stored whole as artifact {ref}. "
        f"Beginning: {preview}\n... Call read_artifact with ref={ref!r} and an offset to read more."
    )
