"""A run's chat messages in the OpenAI shape, every tool call paired with exactly one result.

Plain Python (no Django): the state's messages are already close to the OpenAI format; this
keeps only the fields the format defines and repairs what a cut-short run can leave behind
(a call without a result, a result without a call, a reused call id), reporting each repair.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]

NO_RESULT = "[no result recorded: the run ended before this tool call ran]"


@dataclass
class PairedMessages:
    """The exported messages and a sentence for every repair made to pair calls with results."""

    messages: list[Message] = field(default_factory=list)
    repairs: list[str] = field(default_factory=list)


@dataclass
class _OpenTurn:
    """Calls of the latest assistant message still waiting for their tool message."""

    waiting: list[tuple[str, str]] = field(default_factory=list)
    """(id as recorded, id as exported), in call order."""

    def take(self, recorded: str) -> str | None:
        for index, (original, exported) in enumerate(self.waiting):
            if original == recorded:
                del self.waiting[index]
                return exported
        return None


def pair_messages(raw: Sequence[Mapping[str, Any]]) -> PairedMessages:
    """OpenAI chat messages from a run's state, with calls and results paired one to one."""
    out = PairedMessages()
    used: set[str] = set()
    turn = _OpenTurn()
    for message in raw:
        role = message.get("role")
        if role == "tool":
            _add_result(out, turn, message)
            continue
        _close_turn(out, turn)
        if role == "assistant":
            out.messages.append(_named(message, _assistant(message, used, turn, out.repairs)))
        elif role in ("system", "user"):
            exported = {"role": role, "content": _content(message.get("content"))}
            out.messages.append(_named(message, exported))
        else:
            out.repairs.append(f"dropped a message with the unknown role {role!r}")
    _close_turn(out, turn)
    return out


def _named(message: Mapping[str, Any], exported: Message) -> Message:
    """Keep the chat API's optional `name`: it marks the workspace context a run started with
    ("context-turn", "context-state"), which the model saw as such."""
    name = message.get("name")
    return {**exported, "name": str(name)} if name else exported


def _add_result(out: PairedMessages, turn: _OpenTurn, message: Mapping[str, Any]) -> None:
    recorded = str(message.get("tool_call_id") or "")
    exported = turn.take(recorded)
    if exported is None:
        out.repairs.append(f"dropped a tool result for no open call (tool_call_id {recorded!r})")
        return
    content = _content(message.get("content"))
    out.messages.append({"role": "tool", "tool_call_id": exported, "content": content})


def _close_turn(out: PairedMessages, turn: _OpenTurn) -> None:
    """Give every call still waiting a result saying it never ran, right after its turn."""
    for _, exported in turn.waiting:
        out.messages.append({"role": "tool", "tool_call_id": exported, "content": NO_RESULT})
        out.repairs.append(f"added a placeholder result for call {exported!r}, which never ran")
    turn.waiting.clear()


def _assistant(
    message: Mapping[str, Any], used: set[str], turn: _OpenTurn, repairs: list[str]
) -> Message:
    calls = [_tool_call(call, used, turn, repairs) for call in message.get("tool_calls") or ()]
    content = message.get("content")
    if calls:
        return {
            "role": "assistant",
            "content": None if content in (None, "") else _content(content),
            "tool_calls": calls,
        }
    return {"role": "assistant", "content": _content(content)}


def _tool_call(
    call: Mapping[str, Any], used: set[str], turn: _OpenTurn, repairs: list[str]
) -> Message:
    function = call.get("function") or {}
    recorded = str(call.get("id") or "")
    exported = recorded
    if not recorded or recorded in used:
        exported = _fresh_id(recorded or "call", used)
        repairs.append(f"renamed a missing or reused tool call id {recorded!r} to {exported!r}")
    used.add(exported)
    turn.waiting.append((recorded, exported))
    arguments = function.get("arguments", "{}")
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments, sort_keys=True)
    return {
        "id": exported,
        "type": "function",
        "function": {"name": str(function.get("name") or ""), "arguments": arguments},
    }


def _fresh_id(base: str, used: set[str]) -> str:
    number = 2
    while f"{base}-{number}" in used:
        number += 1
    return f"{base}-{number}"


def _content(value: Any) -> Any:
    """Text as it is; multi-part content (a list of parts) as it is; anything else as JSON."""
    if value is None:
        return ""
    if isinstance(value, str | list):
        return value
    return json.dumps(value, sort_keys=True, default=str)


def unpaired_ids(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """Call ids that do not have exactly one result, or results with no call (empty if paired)."""
    calls: dict[str, int] = {}
    results: dict[str, int] = {}
    for message in messages:
        for call in message.get("tool_calls") or ():
            calls[call["id"]] = calls.get(call["id"], 0) + 1
        if message.get("role") == "tool":
            key = message.get("tool_call_id", "")
            results[key] = results.get(key, 0) + 1
    ids = set(calls) | set(results)
    return sorted(i for i in ids if calls.get(i) != 1 or results.get(i) != 1)
