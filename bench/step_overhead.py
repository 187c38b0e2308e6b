"""Per-step overhead of the real worker path (run_advance: step, checkpoint, publish).

A zero-latency ScriptedPolicy asks for one trivial tool call per step (`bench_echo`), STEPS times,
then gives a final answer. The run goes through `agents.services.execution.run_advance` slice by
slice, exactly as a worker does (minus the Celery hop between slices), so every unit commits its
events and the runtime state in one transaction and, with --redis-url, publishes them through the
Redis channel layer. The same script also runs through the pure runtime (Agent + ListSink +
MemoryArtifacts, no database) in this process, as a baseline.

A *step* is one policy decision plus its tool call: two units, so two checkpoints. Per-step times
are measured between checkpoints: from the end of the checkpoint that closed the previous step to
the end of the checkpoint that closes this one. That includes everything the worker does for the
step (policy, tool, state serialisation, the transaction, the publish, and the slice set-up when a
new slice starts). The mean (total wall time / steps) is printed too.

    uv run python bench/step_overhead.py
    uv run python bench/step_overhead.py \
        --database-url postgresql://postgres@127.0.0.1:5432/postgres
    uv run python bench/step_overhead.py \
        --database-url postgresql://postgres@127.0.0.1:5432/postgres \
        --redis-url redis://127.0.0.1:6379/14
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.databases import create_database, drop_database  # noqa: E402
from bench.support import bench_env, percentile, safe_url  # noqa: E402

GOAL_MS = 5.0
PLANNER = "bench-scripted"
OWNER = "bench-step-overhead"


# --- helpers -------------------------------------------------------------------------------------


def summary(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": statistics.median(values),
        "p95": percentile(values, 95),
        "mean": statistics.fmean(values),
        "max": max(values),
    }


def configure_django(*, var_dir: str, database_url: str, redis_url: str) -> None:
    os.environ.update(bench_env(var_dir=var_dir, database_url=database_url, redis_url=redis_url))
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


# --- the scripted run ----------------------------------------------------------------------------


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


# --- the two paths -------------------------------------------------------------------------------


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
    state = RunState.start(prompt="Echo tokens, one per step.", system=kind.system_prompt)
    marks = [time.perf_counter()]
    while True:
        outcome = agent.step(state)
        marks.append(time.perf_counter())
        if outcome is not None:
            break
    assert outcome.status == "succeeded", outcome
    return marks, marks[-1] - marks[0]


class DbRunResult:
    def __init__(self) -> None:
        self.marks: list[float] = []
        self.checkpoint_s: list[float] = []
        self.slice_starts: list[float] = []
        self.slices = 0
        self.total_s = 0.0
        self.events = 0
        self.state_bytes = 0
        self.status = ""


def time_db(
    steps: int,
    slice_units: int,
    script_holder: dict[str, Any],
    before_start: Callable[[int], None] | None = None,
) -> DbRunResult:
    """One run through run_advance, timing the end of every checkpoint."""
    from django.contrib.auth.models import User

    from agents.models import Run
    from agents.services import execution
    from agents.services.workspaces import workspace_create

    script_holder["script"] = make_script(steps)
    user, _ = User.objects.get_or_create(username="bench")
    workspace = workspace_create(owner=user, name="bench", kind="studio")
    run = Run.objects.create(
        workspace=workspace,
        prompt="Echo tokens, one per step.",
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


def per_step(marks: Sequence[float], steps: int) -> list[float]:
    """Seconds per step from unit end times: each step is two units (decide, act)."""
    return [marks[2 * k + 2] - marks[2 * k] for k in range(steps)]


def listen(redis_url: str) -> tuple[Callable[[int], str], Callable[[str], int]]:
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


# --- main ----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=200, help="tool-calling steps (default 200)")
    parser.add_argument("--runs", type=int, default=3, help="measured runs per path (default 3)")
    parser.add_argument("--warmup-steps", type=int, default=20, help="steps of the warm-up run")
    parser.add_argument(
        "--database-url",
        default="",
        help="a PostgreSQL server URL: a throwaway database is created there and dropped after "
        "(default: SQLite in a temporary VAR_DIR, the embedded configuration)",
    )
    parser.add_argument(
        "--redis-url",
        default="",
        help="Redis URL for the channel layer, e.g. redis://127.0.0.1:6379/14 "
        "(default: none, so nothing is published, as in the embedded configuration)",
    )
    parser.add_argument(
        "--slice-units", type=int, default=0, help="units per slice (default AGENT_SLICE_UNITS)"
    )
    args = parser.parse_args()
    if args.steps < 1 or args.runs < 1:
        parser.error("--steps and --runs must be positive")

    var_dir = tempfile.mkdtemp(prefix="bench-steps-")
    db_name = ""
    database_url = ""
    try:
        if args.database_url:
            database_url, db_name = create_database(args.database_url, "bench_steps")
        configure_django(var_dir=var_dir, database_url=database_url, redis_url=args.redis_url)
        return measure(args, database_url=database_url)
    finally:
        if db_name:
            from django.db import connections

            connections.close_all()
            drop_database(args.database_url, db_name)
        shutil.rmtree(var_dir, ignore_errors=True)


def measure(args: argparse.Namespace, *, database_url: str) -> int:
    import django
    from django.conf import settings
    from django.db import connection

    from agents.registry import ExtraPlanner, register_planner
    from agents.runtime import ScriptedPolicy

    holder: dict[str, Any] = {}
    register_planner(
        PLANNER,
        ExtraPlanner(
            factory=lambda: ScriptedPolicy(holder["script"], name=PLANNER), tools=(make_tool(),)
        ),
    )
    slice_units = args.slice_units or settings.AGENT_SLICE_UNITS
    join = drain = None
    if args.redis_url:
        join, drain = listen(args.redis_url)

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            db_desc = f"PostgreSQL {cursor.fetchone()[0]} ({safe_url(database_url)})"
            cursor.execute("SHOW synchronous_commit")
            db_desc += f", synchronous_commit={cursor.fetchone()[0]}"
    else:
        db_desc = (
            f"SQLite {connection.Database.sqlite_version} (WAL, synchronous=NORMAL, temp file)"
        )

    print("step_overhead: per-step cost of run_advance (step + checkpoint + publish)")
    print("configuration")
    print(f"  python         {platform.python_version()}, Django {django.get_version()}")
    print(
        f"  machine        {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}, "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    print(f"  database       {db_desc}")
    publishing = (
        f"Redis channel layer {safe_url(args.redis_url)}, one listener channel in the run group"
        if args.redis_url
        else "off (no REDIS_URL: EVENTS_PUSH is False)"
    )
    print(f"  publishing     {publishing}")
    print(f"  run            {args.steps} steps (1 decision + 1 bench_echo call each) + final")
    print(f"                 answer = {2 * args.steps + 1} units; slices of {slice_units} units")
    print(f"  repetitions    {args.runs} measured runs per path after a {args.warmup_steps}-step")
    print("                 warm-up run")
    print()

    # warm-up both paths (imports, connections, caches)
    time_pure(args.warmup_steps)
    time_db(args.warmup_steps, slice_units, holder)

    pure_steps: list[float] = []
    pure_totals: list[float] = []
    for _ in range(args.runs):
        marks, total = time_pure(args.steps)
        pure_steps += per_step(marks, args.steps)
        pure_totals.append(total)

    db_steps: list[float] = []
    db_checkpoints: list[float] = []
    db_results: list[DbRunResult] = []
    in_slice: list[float] = []
    slice_start: list[float] = []
    first_tenth: list[float] = []
    last_tenth: list[float] = []
    tenth = max(1, args.steps // 10)
    received: list[int] = []
    channels: list[str] = []
    for _ in range(args.runs):
        channels.clear()
        result = time_db(
            args.steps,
            slice_units,
            holder,
            before_start=(lambda run_id: channels.append(join(run_id))) if join else None,
        )
        steps = per_step(result.marks, args.steps)
        db_steps += steps
        for k, seconds in enumerate(steps):
            begun, ended = result.marks[2 * k], result.marks[2 * k + 2]
            starts = any(begun <= at < ended for at in result.slice_starts)
            (slice_start if starts else in_slice).append(seconds)
        first_tenth += steps[:tenth]
        last_tenth += steps[-tenth:]
        # the checkpoints of a step's two units
        db_checkpoints += [
            result.checkpoint_s[2 * k] + result.checkpoint_s[2 * k + 1] for k in range(args.steps)
        ]
        db_results.append(result)
        if channels and drain:
            received.append(drain(channels[0]))

    ms = 1000.0
    pure = summary(pure_steps)
    db = summary(db_steps)
    ckpt = summary(db_checkpoints)
    print("results (ms per step; a step = decide unit + tool unit; time between checkpoints)")
    print(f"  {'':34}{'median':>9}{'p95':>9}{'mean':>9}{'max':>9}")
    _row("pure runtime (Agent + ListSink)", pure, ms)
    _row("run_advance (DB + publish)", db, ms)
    _row("  of which inside _checkpoint", ckpt, ms)
    _row("  steps inside a slice", summary(in_slice), ms)
    if slice_start:
        _row("  steps that open a new slice", summary(slice_start), ms)
    _row(f"  first {tenth} steps of each run", summary(first_tenth), ms)
    _row(f"  last {tenth} steps of each run", summary(last_tenth), ms)
    print()
    totals = [r.total_s for r in db_results]
    mean_total = statistics.fmean(totals) / args.steps * ms
    mean_pure = statistics.fmean(pure_totals) / args.steps * ms
    print(
        f"  total wall / steps: run_advance {mean_total:.3f} ms, pure {mean_pure:.3f} ms "
        f"(run totals: {', '.join(f'{t:.3f}s' for t in totals)})"
    )
    print(
        f"  overhead ratio (median run_advance / median pure): {db['median'] / pure['median']:.1f}x"
        f"; added per step: {(db['median'] - pure['median']) * ms:.3f} ms"
    )
    last = db_results[-1]
    print(
        f"  per run: {last.events} events persisted, {last.slices} slices, "
        f"final checkpoint state {last.state_bytes / 1024:.0f} KiB of JSON"
    )
    if args.redis_url:
        print(f"  listener channel received {received} events per run (expected {last.events})")
        if 2 * args.steps + 1 > 1000:
            print("  (the layer keeps 1000 messages per channel: longer runs under-count here)")
    print(f"  load average at the end: {os.getloadavg()[0]:.2f}")
    verdict = "MET" if db["median"] * ms <= GOAL_MS else "MISSED"
    verdict_p95 = "MET" if db["p95"] * ms <= GOAL_MS else "MISSED"
    print()
    print(
        f"goal: <= {GOAL_MS:g} ms per step -> median {db['median'] * ms:.3f} ms: {verdict}; "
        f"p95 {db['p95'] * ms:.3f} ms: {verdict_p95}"
    )
    return 0


def _row(label: str, values: dict[str, float], scale: float) -> None:
    cells = "".join(f"{values[key] * scale:9.3f}" for key in ("median", "p95", "mean", "max"))
    print(f"  {label:34}{cells}")


if __name__ == "__main__":
    sys.exit(main())
