"""Turning a model's tool-call text into arguments, and the prompt-based fallback format.

Servers without native tool calling get the tools described in the system prompt and answer
with `<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (the Hermes convention that
many open models are trained on).
"""

from __future__ import annotations

import json
import re
from typing import Any

TOOL_CALL_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*</tool_call>", re.DOTALL)
CODE_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
NAME_IN_BLOCK = re.compile(r'"name"\s*:\s*"([^"\\]*)"')


class MalformedArguments(ValueError):
    """Arguments that are not a JSON object, even after light repair."""


def parse_arguments(raw: str) -> dict[str, Any]:
    """Parse tool-call arguments; repair only what is unambiguous (code fences, empty string)."""
    text = CODE_FENCE.sub("", raw.strip())
    if not text:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedArguments(f"not valid JSON ({error.msg} at char {error.pos})") from None
    if not isinstance(value, dict):
        raise MalformedArguments(f"expected a JSON object, got {type(value).__name__}")
    return value


def tools_prompt(tools: list[dict[str, Any]]) -> str:
    """Byte-stable description of the tools for servers without native tool calling."""
    listing = "\n".join(json.dumps(tool["function"], sort_keys=True) for tool in tools)
    return (
        "You can call these tools. To call one, answer with one or more blocks exactly like\n"
        '<tool_call>{"name": "TOOL", "arguments": {...}}</tool_call>\n'
        "and nothing else; answer in plain text when you are done.\n"
        f"<tools>\n{listing}\n</tools>"
    )


def extract_prompt_calls(text: str) -> tuple[str, list[tuple[str, str]]]:
    """Split text into the prose outside tool-call blocks and the (name, raw arguments) inside."""
    calls: list[tuple[str, str]] = []
    for block in TOOL_CALL_BLOCK.findall(text):
        try:
            data = json.loads(CODE_FENCE.sub("", block.strip()))
        except json.JSONDecodeError:
            calls.append((_name_in(block), block))
            continue
        if not isinstance(data, dict):
            calls.append((_name_in(block), block))
            continue
        arguments = data.get("arguments", {})
        raw = arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True)
        calls.append((str(data.get("name", "")), raw))
    prose = TOOL_CALL_BLOCK.sub("", text).strip()
    return prose, calls


def _name_in(block: str) -> str:
    """The tool name of an unreadable block, when it can be seen, so the error names the tool."""
    match = NAME_IN_BLOCK.search(block)
    return match.group(1) if match else ""


def prompt_history(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rewrite native tool-call history into plain messages for the prompt-based fallback."""
    plain: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") == "assistant" and message.get("tool_calls"):
            blocks = [
                "<tool_call>"
                + json.dumps(
                    {
                        "name": call["function"]["name"],
                        "arguments": json.loads(call["function"]["arguments"] or "{}"),
                    },
                    sort_keys=True,
                )
                + "</tool_call>"
                for call in message["tool_calls"]
            ]
            text = "\n".join(filter(None, [message.get("content") or "", *blocks]))
            plain.append({"role": "assistant", "content": text})
        elif message.get("role") == "tool":
            name, call_id = message.get("name", ""), message.get("tool_call_id", "")
            body = message.get("content", "")
            content = f"<tool_response name={name!r} id={call_id!r}>\n{body}\n</tool_response>"
            plain.append({"role": "user", "content": content})
        else:
            plain.append({"role": message["role"], "content": message.get("content") or ""})
    return plain
