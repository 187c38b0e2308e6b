"""Per-step overhead of the real worker path (run_advance: step, checkpoint, publish).

A zero-latency ScriptedPolicy asks for one trivial tool call per step (`bench_echo`), STEPS times,
then gives a final answer (bench/step_worker.py). The run goes through
`agents.services.execution.run_advance` slice by slice, exactly as a worker does (minus the
Celery hop between slices), so every unit commits its events and the runtime state in one
transaction and, with --redis-url, publishes them through the Redis channel layer. The same
script also runs through the pure runtime (Agent + ListSink + MemoryArtifacts, no database) as a
baseline, and through smolagents' ToolCallingAgent with a step callback that persists each step
as JSON, as the reference (bench/step_reference.py; skipped, with a message, when the bench-only
dependency is not installed: `uv sync --group bench`). All three run in this process.

A *step* is one policy decision plus its tool call: two units, so two checkpoints. Per-step times
are measured between checkpoints: from the end of the checkpoint that closed the previous step to
the end of the checkpoint that closes this one. That includes everything the worker does for the
step (policy, tool, state serialisation, the transaction, the publish, and the slice set-up when a
new slice starts). The figures and goals are described in bench/step_figures.py: mean (total
wall / steps) <= the smolagents reference on SQLite, <= 5 ms on PostgreSQL, growth (last tenth
of the steps over the first) <= 1.1.

    uv run --group bench python bench/step_overhead.py [--json]
    uv run --group bench python bench/step_overhead.py \
        --database-url postgresql://postgres@127.0.0.1:5432/postgres
    uv run --group bench python bench/step_overhead.py \
        --database-url postgresql://postgres@127.0.0.1:5432/postgres \
        --redis-url redis://127.0.0.1:6379/14

--json prints one JSON object on stdout instead of the table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.databases import create_database, drop_database  # noqa: E402
from bench.step_figures import (  # noqa: E402
    GROWTH_GOAL,
    POSTGRES_GOAL_MS,
    Figures,
    collect,
    goals,
    mean_ms_per_step,
    summary,
    to_json,
)
from bench.step_worker import listen, register_scripted_planner  # noqa: E402
from bench.support import bench_env, safe_url  # noqa: E402


def configure_django(*, var_dir: str, database_url: str, redis_url: str) -> None:
    os.environ.update(bench_env(var_dir=var_dir, database_url=database_url, redis_url=redis_url))
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100, help="tool-calling steps (default 100)")
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
    parser.add_argument(
        "--no-reference", action="store_true", help="skip the smolagents reference run"
    )
    parser.add_argument(
        "--json", action="store_true", help="print one JSON object on stdout instead of the table"
    )
    args = parser.parse_args(argv)
    if args.steps < 1 or args.runs < 1 or args.warmup_steps < 1:
        parser.error("--steps, --runs and --warmup-steps must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    var_dir = tempfile.mkdtemp(prefix="bench-steps-")
    db_name = ""
    database_url = ""
    try:
        if args.database_url:
            database_url, db_name = create_database(args.database_url, "bench_steps")
        configure_django(var_dir=var_dir, database_url=database_url, redis_url=args.redis_url)
        return measure(args, database_url=database_url, var_dir=Path(var_dir))
    finally:
        if db_name:
            from django.db import connections

            connections.close_all()
            drop_database(args.database_url, db_name)
        shutil.rmtree(var_dir, ignore_errors=True)


def measure(args: argparse.Namespace, *, database_url: str, var_dir: Path) -> int:
    from django.conf import settings

    holder = register_scripted_planner()
    slice_units = args.slice_units or settings.AGENT_SLICE_UNITS
    join, drain = listen() if args.redis_url else (None, None)
    if not args.json:
        describe(args, database_url=database_url, slice_units=slice_units)
    figures = collect(
        steps=args.steps,
        runs=args.runs,
        warmup_steps=args.warmup_steps,
        slice_units=slice_units,
        holder=holder,
        reference_dir=var_dir,
        reference=not args.no_reference,
        join=join,
        drain=drain,
    )
    if figures.reference_skipped and not args.no_reference:
        print(f"step_overhead: {figures.reference_skipped}", file=sys.stderr)
    if args.json:
        print(json.dumps(to_json(figures)))
    else:
        report(figures, redis=bool(args.redis_url))
    return 0


def describe(args: argparse.Namespace, *, database_url: str, slice_units: int) -> None:
    import django
    from django.db import connection

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
    publishing = (
        f"Redis channel layer {safe_url(args.redis_url)}, one listener channel in the run group"
        if args.redis_url
        else "off (no REDIS_URL: EVENTS_PUSH is False)"
    )
    print("step_overhead: per-step cost of run_advance (step + checkpoint + publish)")
    print("configuration")
    print(f"  python         {platform.python_version()}, Django {django.get_version()}")
    print(
        f"  machine        {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}, "
        f"load average {os.getloadavg()[0]:.2f} at start"
    )
    print(f"  database       {db_desc}")
    print(f"  publishing     {publishing}")
    print(f"  run            {args.steps} steps (1 decision + 1 bench_echo call each) + final")
    print(f"                 answer = {2 * args.steps + 1} units; slices of {slice_units} units")
    print(f"  repetitions    {args.runs} measured runs per path after a {args.warmup_steps}-step")
    print("                 warm-up run")
    print()


def report(figures: Figures, *, redis: bool) -> None:
    tenth = figures.tenth
    print("results (ms per step; a step = decide unit + tool unit; time between checkpoints)")
    print(f"  {'':36}{'median':>9}{'p95':>9}{'mean':>9}{'max':>9}")
    _row("pure runtime (Agent + ListSink)", figures.pure_steps)
    _row("run_advance (DB + publish)", figures.db_steps)
    _row("  of which inside _checkpoint", figures.checkpoints)
    _row("  steps inside a slice", figures.in_slice)
    _row("  steps that open a new slice", figures.slice_start)
    _row(f"  first {tenth} steps of each run", figures.first_tenth)
    _row(f"  last {tenth} steps of each run", figures.last_tenth)
    _row("smolagents ToolCallingAgent + JSON", figures.reference_steps)
    print()
    pure = mean_ms_per_step(figures.pure_totals, figures.steps)
    print(
        f"  total wall / steps: run_advance {figures.mean_ms:.3f} ms, pure {pure:.3f} ms"
        f" (run totals: {', '.join(f'{t:.3f}s' for t in figures.db_totals)})"
    )
    reference = figures.reference_ms
    if reference is None:
        print(f"  smolagents reference: skipped ({figures.reference_skipped})")
    else:
        print(
            f"  smolagents reference: total wall / steps {reference:.3f} ms, "
            f"growth {figures.reference_growth:.2f}"
        )
    print(f"  growth (mean of the last {tenth} steps / the first {tenth}): {figures.growth:.2f}")
    last = figures.last_run
    if last is not None:
        print(
            f"  per run: {last.events} events persisted, {last.slices} slices, "
            f"final checkpoint state {last.state_bytes / 1024:.0f} KiB of JSON"
        )
        if redis:
            print(f"  listener channel received {figures.received} events per run")
            print(f"  (expected {last.events})")
    print(f"  load average at the end: {os.getloadavg()[0]:.2f}")
    print()
    verdicts = goals(figures)
    print("goals")
    against = _verdict(verdicts, "mean_vs_reference")
    print(f"  mean {figures.mean_ms:.3f} ms <= smolagents reference: {against}")
    print(f"  mean <= {POSTGRES_GOAL_MS:g} ms on PostgreSQL: {_verdict(verdicts, 'postgres_5ms')}")
    print(f"  growth {figures.growth:.2f} <= {GROWTH_GOAL:g}: {_verdict(verdicts, 'growth')}")


def _verdict(verdicts: dict[str, bool | None], key: str) -> str:
    value = verdicts[key]
    return "n/a" if value is None else "MET" if value else "MISSED"


def _row(label: str, seconds: list[float]) -> None:
    if not seconds:
        return
    values = summary(seconds)
    cells = "".join(f"{values[key] * 1000:9.3f}" for key in ("median", "p95", "mean", "max"))
    print(f"  {label:36}{cells}")


if __name__ == "__main__":
    sys.exit(main())
