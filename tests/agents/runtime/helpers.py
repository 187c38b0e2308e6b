"""Shared fakes and builders for the agent runtime tests (no Django, no network)."""

from __future__ import annotations

import itertools
from typing import Any

from agents.runtime import (
    BUILTIN_TOOLS,
    Agent,
    Budget,
    Compressor,
    Decision,
    ListSink,
    MemoryArtifacts,
    RunState,
    ScriptedPolicy,
    Tool,
    ToolCall,
    ToolError,
    ToolRegistry,
    Usage,
)

SYSTEM = "You are a test agent."
PROMPT = "Please do the thing."
TIMING_FIELDS = ("duration_ms", "elapsed_s")


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


_ids = itertools.count(1)


def call(name: str, call_id: str | None = None, **arguments: Any) -> ToolCall:
    return ToolCall(call_id or f"call-{next(_ids)}", name, arguments)


def act(*calls: ToolCall, message: str = "", tokens: int = 0) -> Decision:
    """A non-final decision that asks for the given calls."""
    return Decision(message=message, tool_calls=calls, usage=Usage(tokens, 0))


def final(text: str = "done", tokens: int = 0) -> Decision:
    return Decision(message=text, usage=Usage(tokens, 0))


def _echo(arguments: dict[str, Any], context: Any) -> str:
    return f"echo: {arguments['text']}"


def _boom(arguments: dict[str, Any], context: Any) -> str:
    raise RuntimeError("kaboom")


def _refuse(arguments: dict[str, Any], context: Any) -> str:
    raise ToolError("not today")


def _blob(arguments: dict[str, Any], context: Any) -> str:
    size = arguments["size"]
    tag = arguments.get("tag", "x")
    line = f"{tag} line of data\n"
    return (line * (size // len(line) + 1))[:size]


def _progress(arguments: dict[str, Any], context: Any) -> str:
    context.progress(0.5, "half way")
    return "finished"


def _counter_factory():
    counter = itertools.count(1)

    def _count(arguments: dict[str, Any], context: Any) -> dict[str, int]:
        return {"count": next(counter)}

    return _count


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


ECHO = Tool("echo", "Echo text back.", _object({"text": {"type": "string"}}, ["text"]), _echo)
BOOM = Tool("boom", "Always crashes.", _object({}, []), _boom)
REFUSE = Tool("refuse", "Always refuses.", _object({}, []), _refuse)
BLOB = Tool(
    "blob",
    "Return `size` characters of text.",
    _object({"size": {"type": "integer", "minimum": 0}, "tag": {"type": "string"}}, ["size"]),
    _blob,
)
PROGRESS = Tool("progress", "Reports progress.", _object({}, []), _progress)


def counter_tool() -> Tool:
    """A tool whose result changes on every call (fresh counter per registry)."""
    return Tool("count", "Count calls.", _object({}, []), _counter_factory())


def registry(*extra: Tool) -> ToolRegistry:
    return ToolRegistry(
        [*BUILTIN_TOOLS, ECHO, BOOM, REFUSE, BLOB, PROGRESS, counter_tool(), *extra]
    )


def start(prompt: str = PROMPT, system: str = SYSTEM) -> RunState:
    return RunState.start(prompt=prompt, system=system)


def make_agent(
    script: Any,
    *,
    tools: ToolRegistry | None = None,
    budget: Budget | None = None,
    clock: FakeClock | None = None,
    artifacts: MemoryArtifacts | None = None,
    sink: ListSink | None = None,
    policy: Any = None,
    **kwargs: Any,
) -> Agent:
    artifacts = artifacts if artifacts is not None else MemoryArtifacts()
    compressor = kwargs.pop("compressor", None)
    if isinstance(compressor, dict):
        compressor = Compressor(artifacts, **compressor)
    return Agent(
        policy=policy if policy is not None else ScriptedPolicy(script),
        tools=tools if tools is not None else registry(),
        sink=sink if sink is not None else ListSink(),
        artifacts=artifacts,
        budget=budget or Budget(),
        clock=clock or FakeClock(),
        compressor=compressor,
        **kwargs,
    )


def run(script: Any, state: RunState | None = None, **kwargs: Any):
    """Run a script to the end; return (outcome, state, sink events, agent)."""
    agent = make_agent(script, **kwargs)
    state = state or start()
    outcome = agent.run(state)
    return outcome, state, agent.sink.events, agent


def of_type(events: list[tuple[str, dict[str, Any]]], kind: str) -> list[dict[str, Any]]:
    return [payload for type_, payload in events if type_ == kind]


def types(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [type_ for type_, _ in events]


def without_timing(events: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    return [
        (kind, {key: value for key, value in payload.items() if key not in TIMING_FIELDS})
        for kind, payload in events
    ]


def tool_messages(state: RunState) -> list[dict[str, Any]]:
    return [message for message in state.messages if message["role"] == "tool"]
