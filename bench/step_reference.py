"""The reference for bench/step_overhead.py: the same script through smolagents' ToolCallingAgent.

smolagents is a bench-only dependency (`uv sync --group bench`); `missing()` says why the
reference cannot run when it is absent, and nothing here imports it before `time_reference`.

The run mirrors the worker path's script: a model that needs no network (`ScriptedModel`, a
smolagents `Model` whose `generate` returns a ChatMessage with one `bench_echo` tool call per
step, the same text, call ids and token usage as the ScriptedPolicy, then a `final_answer` call)
and one trivial tool (`EchoTool`, returning `{"echo": text}`). A step callback persists every
step as JSON: `ActionStep.dict()` (smolagents' own serialisation of a memory step, which
includes the messages the model was given) through `json.dumps`, appended as one line to a
JSON-lines file (opened in append mode per step, written and closed; no fsync, like SQLite's
WAL with synchronous=NORMAL in the embedded configuration).

Timing is as on the worker path: a mark before `agent.run()`, then one at the end of the
callback of every step (after the step is persisted); a step's time is from the previous mark to
its own, and the mean is the run's total wall time (up to `agent.run()` returning, the final
answer included) / STEPS. The agent is built before the first mark, like the Run row on the
worker path. Verbosity: `LogLevel.OFF`, the quietest level, so rich renders nothing to the
console (the log calls are still made and return early); at the default INFO level printing a
panel per step would dominate the figure.
"""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path
from typing import Any

from bench.step_worker import PROMPT


def missing() -> str | None:
    """Why the reference cannot run here, or None when it can."""
    if importlib.util.find_spec("smolagents") is None:
        return (
            "smolagents is not installed (a bench-only dependency: `uv sync --group bench`); "
            "the reference is skipped"
        )
    return None


def time_reference(steps: int, directory: Path) -> tuple[list[float], float]:
    """One run of STEPS echo steps and a final answer; returns (marks, total seconds)."""
    from smolagents import ToolCallingAgent
    from smolagents.memory import ActionStep
    from smolagents.monitoring import LogLevel

    path = directory / f"smolagents-{steps}-{time.perf_counter_ns()}.jsonl"
    marks: list[float] = []

    def persist(step: ActionStep) -> None:
        with path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(step.dict()) + "\n")
        marks.append(time.perf_counter())

    agent = ToolCallingAgent(
        tools=[_echo_tool()],
        model=_scripted_model(steps),
        max_steps=steps + 1,
        verbosity_level=LogLevel.OFF,
        step_callbacks=[persist],
    )
    marks.append(time.perf_counter())
    answer = agent.run(PROMPT)
    total = time.perf_counter() - marks[0]
    if answer != f"Done after {steps} steps." or len(marks) != steps + 2:
        raise RuntimeError(f"the smolagents run ended {answer!r} after {len(marks) - 1} steps")
    path.unlink()
    return marks, total


def _echo_tool() -> Any:
    from smolagents import Tool

    class EchoTool(Tool):
        name = "bench_echo"
        description = "Echo a short text back (a tool that costs nothing)."
        inputs = {"text": {"type": "string", "description": "the text to echo"}}
        output_type = "object"

        def forward(self, text: str) -> dict[str, str]:
            return {"echo": text}

    return EchoTool()


def _scripted_model(steps: int) -> Any:
    from smolagents.models import (
        ChatMessage,
        ChatMessageToolCall,
        ChatMessageToolCallFunction,
        MessageRole,
        Model,
    )
    from smolagents.monitoring import TokenUsage

    class ScriptedModel(Model):
        """STEPS `bench_echo` calls, then `final_answer`; the messages are not looked at."""

        def __init__(self) -> None:
            super().__init__(model_id="bench-scripted")
            self.calls = 0

        def generate(self, messages: Any, **kwargs: Any) -> Any:
            self.calls += 1
            index = self.calls
            if index <= steps:
                content = f"Step {index}: echoing a token."
                name, arguments = "bench_echo", {"text": f"token {index}"}
            else:
                content = f"Done after {steps} steps."
                name, arguments = "final_answer", {"answer": content}
            call = ChatMessageToolCall(
                function=ChatMessageToolCallFunction(name=name, arguments=arguments),
                id=f"call-{index}",
                type="function",
            )
            return ChatMessage(
                role=MessageRole.ASSISTANT,
                content=content,
                tool_calls=[call],
                token_usage=TokenUsage(input_tokens=50, output_tokens=10),
            )

    return ScriptedModel()
