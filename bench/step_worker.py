"""The scripted run of bench/step_overhead.py, through the worker path and the pure runtime.

A zero-latency ScriptedPolicy asks for one trivial tool call per step (`bench_echo`), STEPS
times, then gives a final answer. `time_db` advances it with `agents.services.execution.
run_advance` slice by slice, as a worker does (minus the Celery hop between slices); `time_pure`
runs the same script through `Agent.step` with a ListSink and MemoryArtifacts (no database).
Both return the time at which every unit ended: a step is two units (decide, act).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

PLANNER = "bench-scripted"
OWNER = "bench-step-overhead"
PROMPT = "Echo tokens, one per step."


def _echo(arguments: dict[str, Any], context: Any) -> dict[str, Any]:
    return {"echo": arguments["text"]}


def make_tool() -> Any:
    from agents.runtime import Tool

    return Tool(
        name="bench_echo",
        description="Echo a short text back (a tool that costs nothing).",
        parameters={
            "type": "object",
            "properties": {"text": {"type": "string", "maxLength": 200}},
            "required": ["text"],
            "additionalProperties": False,
        },
        function=_echo,
    )


def make_script(steps: int) -> list[Any]:
    """STEPS decisions with one varied tool call each (so loop detection stays quiet), then done."""
    from agents.runtime import Decision, ToolCall, Usage

    script: list[Any] = [
        Decision(
            message=f"Step {index}: echoing a token.",
            tool_calls=(ToolCall(f"call-{index}", "bench_echo", {"text": f"token {index}"}),),
            usage=Usage(prompt_tokens=50, completion_tokens=10),
        )
        for index in range(1, steps + 1)
    ]
    script.append(Decision(message=f"Done after {steps} steps.", usage=Usage(50, 10)))
    return script


def budget_for(steps: int) -> Any:
    from agents.runtime import Budget

    return Budget(max_steps=steps + 1, max_tokens=10_000_000, max_seconds=24 * 3600)


def register_scripted_planner() -> dict[str, Any]:
    """Register the planner `bench-scripted`; `time_db` puts each run's script in what returns."""
    from agents.registry import ExtraPlanner, register_planner
    from agents.runtime import ScriptedPolicy

    holder: dict[str, Any] = {}
    register_planner(
        PLANNER,
        ExtraPlanner(
            factory=lambda: ScriptedPolicy(holder["script"], name=PLANNER), tools=(make_tool(),)
        ),
    )
    return holder


def per_step(marks: Sequence[float], steps: int) -> list[float]:
    """Seconds per step from unit end times: each step is two units (decide, act)."""
    return [marks[2 * k + 2] - marks[2 * k] for k in range(steps)]


def time_pure(steps: int) -> tuple[list[float], float]:
    """Unit end times through Agent.step with a ListSink; returns (marks, total seconds)."""
    from agents.registry import get_kind, kind_tools
    from agents.runtime import (
        Agent,
        ListSink,
        MemoryArtifacts,
        RunState,
        ScriptedPolicy,
        ToolRegistry,
    )

    kind = get_kind("studio")
    agent = Agent(
        policy=ScriptedPolicy(make_script(steps), name=PLANNER),
        tools=ToolRegistry([*kind_tools(kind), make_tool()]),
        sink=ListSink(),
        artifacts=MemoryArtifacts(),
        budget=budget_for(steps),
    )
    state = RunState.start(prompt=PROMPT, system=kind.system_prompt)
    marks = [time.perf_counter()]
    while True:
        outcome = agent.step(state)
        marks.append(time.perf_counter())
        if outcome is not None:
            break
    assert outcome.status == "succeeded", outcome
    return marks, marks[-1] - marks[0]


@dataclass
class DbRunResult:
    marks: list[float] = field(default_factory=list)  # start, then the end of every checkpoint
    checkpoint_s: list[float] = field(default_factory=list)
    slice_starts: list[float] = field(default_factory=list)
    slices: int = 0
    total_s: float = 0.0
    events: int = 0
    state_bytes: int = 0
    status: str = ""

    def steps(self, steps: int) -> list[float]:
        return per_step(self.marks, steps)

    def opens_slice(self, step: int) -> bool:
        """Whether a slice started during step `step` (0-based)."""
        begun, ended = self.marks[2 * step], self.marks[2 * step + 2]
        return any(begun <= at < ended for at in self.slice_starts)

    def step_checkpoints(self, steps: int) -> list[float]:
        """Seconds inside _checkpoint per step (its two units)."""
        return [self.checkpoint_s[2 * k] + self.checkpoint_s[2 * k + 1] for k in range(steps)]


def time_db(
    steps: int,
    slice_units: int,
    holder: dict[str, Any],
    before_start: Callable[[int], None] | None = None,
) -> DbRunResult:
    """One run through run_advance, timing the end of every checkpoint."""
    from django.contrib.auth.models import User

    from agents.models import Run
    from agents.services import execution
    from agents.services.workspaces import workspace_create

    holder["script"] = make_script(steps)
    user, _ = User.objects.get_or_create(username="bench")
    workspace = workspace_create(owner=user, name="bench", kind="studio")
    run = Run.objects.create(
        workspace=workspace,
        prompt=PROMPT,
        options={"planner": PLANNER},
        budget=budget_for(steps).to_dict(),
    )
    if before_start is not None:
        before_start(run.pk)
    result = DbRunResult()
    original = execution._checkpoint

    def timed_checkpoint(**kwargs: Any) -> None:
        begun = time.perf_counter()
        original(**kwargs)
        ended = time.perf_counter()
        result.checkpoint_s.append(ended - begun)
        result.marks.append(ended)

    execution._checkpoint = timed_checkpoint
    try:
        result.marks.append(time.perf_counter())
        while True:
            result.slice_starts.append(time.perf_counter())
            outcome = execution.run_advance(
                run_id=run.pk, owner=f"{OWNER}-{result.slices}", max_units=slice_units
            )
            result.slices += 1
            if outcome.status == "finished":
                break
            if outcome.status != "continue":
                raise RuntimeError(f"unexpected slice status {outcome.status!r}")
        result.total_s = time.perf_counter() - result.marks[0]
    finally:
        execution._checkpoint = original
    run.refresh_from_db()
    result.status = run.status
    result.events = run.events.count()
    result.state_bytes = len(json.dumps(run.state))
    if run.status != "succeeded":
        raise RuntimeError(f"the run ended {run.status}: {run.message}")
    return result


def listen() -> tuple[Callable[[int], str], Callable[[str], int]]:
    """Helpers that put one listener channel in a run's group and later count what it got."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from agents.services.publishing import run_group

    layer = get_channel_layer()
    groups: dict[str, str] = {}

    def join(run_id: int) -> str:
        channel = str(async_to_sync(layer.new_channel)())
        groups[channel] = run_group(run_id)
        async_to_sync(layer.group_add)(groups[channel], channel)
        return channel

    async def _drain(channel: str) -> int:
        count = 0
        while True:
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=1.0)
            except TimeoutError:
                await layer.group_discard(groups.pop(channel), channel)
                return count
            count += len(message.get("events", []))

    def drain(channel: str) -> int:
        return int(async_to_sync(_drain)(channel))

    return join, drain
