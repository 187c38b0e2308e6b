"""Deterministic policies: a scripted one for tests, and the general offline planner."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.runtime.compression import estimate_tokens
from agents.runtime.errors import PolicyError
from agents.runtime.protocols import PolicyInput
from agents.runtime.types import Decision, ToolCall, Usage

ScriptEntry = Decision | Callable[[PolicyInput], Decision]


@dataclass
class ScriptedPolicy:
    """Replays a fixed list of decisions (or functions of the context); for tests and benchmarks.

    It is stateless apart from the script: the entry used is chosen by the step number, so a run
    resumed from a checkpoint continues exactly where it stopped.
    """

    script: Sequence[ScriptEntry]
    name: str = "scripted"

    def decide(self, context: PolicyInput) -> Decision:
        index = context.step - 1
        if index >= len(self.script):
            raise PolicyError(f"the script has no step {context.step}")
        entry = self.script[index]
        return entry(context) if callable(entry) else entry


EXPRESSION = re.compile(
    r"[-+(]*\d[\d.]*(?:\s*(?:\*\*|//|[-+*/%^\u00d7\u00f7])\s*[-+(]*\d[\d.]*\)*)+\)*"
)


def find_expressions(text: str) -> list[str]:
    """Arithmetic expressions written in a request, in order, without duplicates."""
    found: list[str] = []
    for match in EXPRESSION.finditer(text):
        expression = _balance(match.group().strip())
        if expression and expression not in found:
            found.append(expression)
    return found


def _balance(expression: str) -> str:
    while expression.count(")") > expression.count("(") and expression.endswith(")"):
        expression = expression[:-1]
    while expression.count("(") > expression.count(")") and expression.startswith("("):
        expression = expression[1:]
    return expression


@dataclass
class OfflinePlanner:
    """The embedded default planner for requests the general tools can serve.

    It computes every arithmetic expression in the request with the `calculate` tool, one step
    each, then answers with the results; it says plainly when a request is beyond it. Workspaces
    replace it with their own planners.
    """

    name: str = "offline"
    help_text: str = (
        "The offline planner can evaluate arithmetic in a request, for example "
        "'what is (17 * 23) + 4 and 2 ** 10?'."
    )
    answers: dict[str, str] = field(default_factory=dict)

    def decide(self, context: PolicyInput) -> Decision:
        prompt = first_user_text(context)
        results = tool_results(context)
        expressions = find_expressions(prompt)
        for index, expression in enumerate(expressions, start=1):
            call_id = f"calc-{index}"
            if call_id not in results:
                call = ToolCall(call_id, "calculate", {"expression": expression})
                text = f"Computing {expression} ({index} of {len(expressions)})."
                return self._decision(context, text, (call,))
        return self._decision(context, self._answer(prompt, expressions, results), ())

    def _answer(self, prompt: str, expressions: list[str], results: dict[str, str]) -> str:
        if not expressions:
            return (
                f"I could not find anything I can do in: {prompt.strip()[:200]!r}. {self.help_text}"
            )
        lines = []
        for index, expression in enumerate(expressions, start=1):
            outcome = results[f"calc-{index}"]
            value = re.search(r'"value": ([^,}]+)', outcome)
            lines.append(
                f"{expression} = {value.group(1)}" if value else f"{expression}: {outcome}"
            )
        return "Results:\n" + "\n".join(lines)

    def _decision(self, context: PolicyInput, text: str, calls: Iterable[ToolCall]) -> Decision:
        usage = Usage(estimate_tokens(context.messages), len(text) // 4 + 1)
        return Decision(message=text, tool_calls=tuple(calls), usage=usage)


def first_user_text(context: PolicyInput) -> str:
    """The request: the first user message of the run, past any context the workspace gave
    (earlier turns and state, labelled with a `name` starting with "context")."""
    for message in context.messages:
        if message.get("role") == "user" and not str(message.get("name", "")).startswith("context"):
            return str(message.get("content") or "")
    return ""


def tool_results(context: PolicyInput) -> dict[str, str]:
    """Every tool result so far by call id (planners that decide from the conversation)."""
    return {
        str(message.get("tool_call_id")): str(message.get("content") or "")
        for message in context.messages
        if message.get("role") == "tool"
    }


def call_decision(
    context: PolicyInput, call_id: str, tool: str, arguments: dict[str, Any], text: str
) -> Decision:
    """A planner's step: say `text` and call one tool (token use estimated)."""
    call = ToolCall(call_id, tool, arguments)
    return Decision(text, (call,), Usage(estimate_tokens(context.messages), len(text) // 4))


def result_object(content: str) -> dict[str, Any] | None:
    """A tool result read as a JSON object, or None (an error text, a list, not JSON)."""
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def answer_decision(context: PolicyInput, text: str) -> Decision:
    """A planner's final answer (token use estimated)."""
    return Decision(text, (), Usage(estimate_tokens(context.messages), len(text) // 4))
