"""Context condensation: when even compressed observations overflow the budget, old turns go.

The oldest turns (past the system prompt, the workspace context and the request) are replaced by
one user message that summarises them deterministically (no model call): how many messages and
steps, each tool call with its arguments, outcome and a preview, and what the assistant said. The
removed messages are stored whole, as a JSON list, in an artifact the policy can read back with
`read_artifact`. A summary already in the context is folded into the next one.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agents.runtime.compression import COMPRESSED_MARK, Compression, Compressor, estimate_tokens
from agents.runtime.tools import ArtifactStore
from agents.runtime.types import Message

CONDENSED_MARK = "[condensed]"
CONTEXT_PREFIX = "context"
"""Names of the workspace context messages a run starts with (agents.registry.CONTEXT_NAME)."""
LIST_HEADER = "Steps and tool calls, oldest first:"
ARGUMENTS_CHARS = 80
PREVIEW_CHARS = 80
TEXT_CHARS = 120

_COUNTS = re.compile(r"(\d+) earlier messages of (\d+) steps with (\d+) tool calls")
_OMITTED = re.compile(r"^- \((\d+) earlier lines omitted")
_STORED = re.compile(r"artifact (\S+?)\. Beginning: (.*?)\n\.\.\. Call read_artifact", re.DOTALL)


@dataclass(frozen=True)
class Condensation:
    """One condensation of old turns, reported as a `context.condensed` event."""

    first_index: int
    """The index of the summary message: every message before it is untouched."""
    messages_condensed: int
    first_step: int
    last_step: int
    tool_calls: int
    tokens_before: int
    tokens_after: int
    artifact: str

    @property
    def steps_condensed(self) -> int:
        return self.last_step - self.first_step + 1 if self.last_step else 0

    def to_payload(self) -> dict[str, Any]:
        return {
            "messages_condensed": self.messages_condensed,
            "steps_condensed": self.steps_condensed,
            "first_step": self.first_step,
            "last_step": self.last_step,
            "tool_calls": self.tool_calls,
            "tokens_before": self.tokens_before,
            "tokens_after": self.tokens_after,
            "artifact": self.artifact,
        }


@dataclass(frozen=True)
class Fitting:
    """What fitting the context to its budget did, and the lowest message index it rewrote."""

    compressions: list[Compression]
    condensation: Condensation | None
    changed_from: int | None


def fit_context(compressor: Compressor, messages: list[Message]) -> Fitting:
    """Compress old observations (not the latest results: the policy has not seen them yet); if
    the context is still over budget, condense old turns."""
    turns = [n for n, message in enumerate(messages) if message.get("role") == "assistant"]
    compressed = compressor.compress_old(messages, keep_from=turns[-1] if turns else None)
    changed = min((index for index, _ in compressed), default=None)
    condensation = None
    if compressor.sizes.tokens(messages) > compressor.token_budget:
        condensation = condense(
            messages, compressor.artifacts, target_tokens=compressor.token_budget // 2
        )
        if condensation is not None:
            first = condensation.first_index
            changed = first if changed is None else min(changed, first)
    return Fitting([compression for _, compression in compressed], condensation, changed)


@dataclass
class _Previous:
    messages: int = 0
    steps: int = 0
    calls: int = 0
    omitted: int = 0
    lines: tuple[str, ...] = ()


def condense(
    messages: list[Message],
    artifacts: ArtifactStore,
    *,
    target_tokens: int,
    summary_chars: int | None = None,
) -> Condensation | None:
    """Replace the oldest turns by one summary so the context is about `target_tokens`, in place.

    Kept: the head (system prompt, workspace context, request) and the latest turns, at least the
    latest assistant message with its tool results; the kept turns start at a user or assistant
    message, so no tool result is ever parted from its call. None when nothing can go.
    """
    head = _head_end(messages)
    if head is None:
        return None
    previous = head < len(messages) and is_summary(messages[head])
    first_new = head + 1 if previous else head
    groups = [n for n in range(first_new + 1, len(messages)) if _starts_turn(messages[n])]
    latest = [n for n in groups if messages[n].get("role") == "assistant"]
    if not latest:
        return None
    limit = summary_chars or max(target_tokens, 800)
    sizes = [len(json.dumps(message, sort_keys=True)) for message in messages]
    room = target_tokens * 4 - sum(sizes[:head]) - limit - 200
    tail = [0] * (len(messages) + 1)  # tail[n]: the size of messages[n:]
    for n in range(len(messages) - 1, -1, -1):
        tail[n] = tail[n + 1] + sizes[n]
    cut = next((n for n in groups if n <= latest[-1] and tail[n] <= room), latest[-1])
    tokens_before = estimate_tokens(messages)
    removed = messages[head:cut]
    old = _parse(messages[head]) if previous else _Previous()
    new = removed[1:] if previous else removed
    lines, steps, calls = _lines(new, first_step=old.steps + 1)
    first_step, last_step = old.steps + 1, old.steps + steps
    transcript = "[\n" + ",\n".join(json.dumps(m, ensure_ascii=False) for m in removed) + "\n]"
    span = f"{first_step}-{last_step}" if steps else f"after-{old.steps}"
    ref = artifacts.put(
        name=f"condensed-steps-{span}.json", content=transcript, media_type="application/json"
    )
    summary = _summary(
        total=_Previous(old.messages + len(new), last_step, old.calls + calls, old.omitted),
        lines=[*old.lines, *lines],
        stored=len(removed),
        ref=ref,
        previous=previous,
        limit=limit,
    )
    messages[head:cut] = [{"role": "user", "content": summary}]
    return Condensation(
        first_index=head,
        messages_condensed=len(new),
        first_step=first_step if steps else 0,
        last_step=last_step if steps else 0,
        tool_calls=calls,
        tokens_before=tokens_before,
        tokens_after=estimate_tokens(messages),
        artifact=ref,
    )


def is_summary(message: Message) -> bool:
    """Whether a message is a condensation summary."""
    content = message.get("content")
    return (
        message.get("role") == "user"
        and isinstance(content, str)
        and content.startswith(CONDENSED_MARK)
    )


def _is_context(message: Message) -> bool:
    return str(message.get("name", "")).startswith(CONTEXT_PREFIX)


def _head_end(messages: list[Message]) -> int | None:
    """The index just past the request: the first user message that is not workspace context."""
    for index, message in enumerate(messages):
        if message.get("role") == "user" and not _is_context(message):
            return index + 1
    return None


def _starts_turn(message: Message) -> bool:
    return message.get("role") in ("user", "assistant") and not _is_context(message)


def _lines(removed: list[Message], *, first_step: int) -> tuple[list[str], int, int]:
    """One line per assistant text and per tool call; the number of steps and of calls."""
    results = {
        str(message.get("tool_call_id")): str(message.get("content") or "")
        for message in removed
        if message.get("role") == "tool"
    }
    lines: list[str] = []
    step, calls = first_step - 1, 0
    for message in removed:
        if message.get("role") != "assistant":
            continue
        step += 1
        text = _clip(str(message.get("content") or ""), TEXT_CHARS)
        if text:
            lines.append(f"- step {step} said: {text}")
        for call in message.get("tool_calls") or []:
            calls += 1
            function = call.get("function") or {}
            name = function.get("name") or "tool"
            arguments = _arguments(function.get("arguments"))
            result = results.get(str(call.get("id")))
            lines.append(f"- step {step} {name}({arguments}) {_outcome(result)}")
    return lines, step - first_step + 1, calls


def _arguments(raw: Any) -> str:
    try:
        value = json.loads(raw) if isinstance(raw, str) else raw
    except json.JSONDecodeError:
        return _clip(str(raw), ARGUMENTS_CHARS)
    if isinstance(value, dict):
        text = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in value.items())
    else:
        text = json.dumps(value, ensure_ascii=False)
    return _clip(text, ARGUMENTS_CHARS)


def _outcome(result: str | None) -> str:
    if result is None:
        return "-> no result"
    status = "error" if result.startswith("error") else "ok"
    stored = _STORED.search(result) if result.startswith(COMPRESSED_MARK) else None
    if stored:
        preview = _clip(stored.group(2), PREVIEW_CHARS // 2)
        return f"-> {status}: {preview} [whole in artifact {stored.group(1)}]"
    if status == "error":
        result = result.removeprefix("error").lstrip(": ")
    return f"-> {status}: {_clip(result, PREVIEW_CHARS)}"


def _summary(
    *, total: _Previous, lines: list[str], stored: int, ref: str, previous: bool, limit: int
) -> str:
    before = " (the first is the previous summary, naming the artifact of the turns before)"
    head = (
        f"{CONDENSED_MARK} To fit the context, {total.messages} earlier messages of {total.steps} "
        f"steps with {total.calls} tool calls were replaced by this summary. The latest "
        f"{stored} of them are stored whole as a JSON list of messages in artifact {ref}"
        f"{before if previous else ''}: call read_artifact with ref={ref!r} (and an offset) to "
        f"read them.\n{LIST_HEADER}\n"
    )
    omitted = total.omitted
    kept = list(lines)
    size = len(head) + sum(len(line) + 1 for line in kept) + 60
    while kept and size > limit:
        size -= len(kept.pop(0)) + 1
        omitted += 1
    note = [f"- ({omitted} earlier lines omitted; the transcripts hold them)"] if omitted else []
    return head + "\n".join([*note, *kept])


def _parse(message: Message) -> _Previous:
    """The counts and lines of an earlier summary, to fold them into the next one."""
    content = str(message.get("content") or "")
    counts = _COUNTS.search(content)
    found = _Previous()
    if counts:
        found.messages, found.steps, found.calls = (int(n) for n in counts.groups())
    listed = content.split(f"\n{LIST_HEADER}\n", 1)[1:]
    lines = []
    for line in listed[0].splitlines() if listed else []:
        omitted = _OMITTED.match(line)
        if omitted:
            found.omitted = int(omitted.group(1))
        elif line.startswith("- "):
            lines.append(line)
    found.lines = tuple(lines)
    return found


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"
