"""A slow, deterministic planner for end-to-end tests: `AGENT_PLUGINS=tests.plugins.slow_planner`.

Importing this module registers the extra planner "slow-count". For a prompt such as
"count to 30" it calls the `tick` tool once per step with n = 1..30 (each call sleeps
SLOW_TICK_SECONDS, default 0.2, and returns the count), then answers "counted to 30". Like the
offline planner it is stateless: every decision is read from the conversation, so a run resumed
by another worker from its checkpoint carries on exactly where it stopped.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from typing import Any

from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, PolicyInput, Tool, ToolCall, ToolContext, Usage

NAME = "slow-count"
DEFAULT_COUNT = 10
MAX_COUNT = 1000
COUNT_TO = re.compile(r"count(?:\s+up)?\s+to\s+(\d+)", re.IGNORECASE)
ANY_NUMBER = re.compile(r"\d+")


def tick_seconds() -> float:
    return float(os.environ.get("SLOW_TICK_SECONDS") or 0.2)


def _tick(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    time.sleep(tick_seconds())
    return {"count": arguments["n"]}


TICK = Tool(
    name="tick",
    description="Wait a moment, then return the count it was given.",
    parameters={
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 1, "maximum": MAX_COUNT}},
        "required": ["n"],
        "additionalProperties": False,
    },
    function=_tick,
)


def target_count(prompt: str) -> int:
    """N from "count to N" (else the first number in the prompt, else DEFAULT_COUNT)."""
    match = COUNT_TO.search(prompt)
    number = match.group(1) if match else next(iter(ANY_NUMBER.findall(prompt)), "0")
    count = int(number)
    return min(count, MAX_COUNT) if count > 0 else DEFAULT_COUNT


def call_id(n: int) -> str:
    return f"tick-{n}"


@dataclass
class SlowCountPlanner:
    name: str = NAME

    def decide(self, context: PolicyInput) -> Decision:
        prompt = next(
            (str(m.get("content") or "") for m in context.messages if m.get("role") == "user"), ""
        )
        done = {str(m.get("tool_call_id")) for m in context.messages if m.get("role") == "tool"}
        count = target_count(prompt)
        for n in range(1, count + 1):
            if call_id(n) not in done:
                call = ToolCall(call_id(n), TICK.name, {"n": n})
                return _decision(context, f"Tick {n} of {count}.", (call,))
        return _decision(context, f"counted to {count}", ())


def _decision(context: PolicyInput, text: str, calls: tuple[ToolCall, ...]) -> Decision:
    prompt_tokens = len(json.dumps(context.messages)) // 4 + 1
    return Decision(message=text, tool_calls=calls, usage=Usage(prompt_tokens, len(text) // 4 + 1))


register_planner(NAME, ExtraPlanner(factory=SlowCountPlanner, tools=(TICK,)))
