"""Event latency from the worker to browser WebSockets, through PostgreSQL and the Redis layer.

The script creates a throwaway PostgreSQL database (migrated), a user with an API token, a
workspace and a run; starts uvicorn (`config.asgi:application`) as a subprocess on a free port with
the same DATABASE_URL and REDIS_URL; connects CLIENTS WebSocket clients (asyncio, one process) to
`ws/runs/<id>/?after=0` with `Authorization: Bearer <token>`; then, acting as the worker, appends
EVENTS events at RATE per second through the worker's own code path: each event is one unit,
committed with `agents.services.execution._checkpoint` under a held lease (events and run state in
one transaction), after which `events_publish` pushes it through the channel layer.

Every event's payload carries `sent_at` (time.time() when the unit ended, just before its
checkpoint); each client records time.time() when the frame arrives, so a latency covers commit,
publish, Redis, the consumer, the socket and the client's own event loop. The database and the
subprocess are removed at the end.

    uv run python bench/event_latency.py
    uv run python bench/event_latency.py --clients 100 --events 200 --rate 20
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.databases import create_database, drop_database  # noqa: E402
from bench.server import Server  # noqa: E402
from bench.support import bench_env, cpu_seconds, free_port, percentile, safe_url  # noqa: E402

GOAL_P95_MS = 50.0
OWNER = "bench-event-latency"


# --- fixtures and the worker ---------------------------------------------------------------------


def create_fixtures() -> tuple[int, str]:
    """A user with an API token, a workspace and a queued run; returns (run id, raw token)."""
    from django.contrib.auth.models import User

    from accounts.services import api_token_create
    from agents.models import Run
    from agents.services.workspaces import workspace_create

    user = User.objects.create_user("bench-latency", password=uuid.uuid4().hex)
    _, raw = api_token_create(user=user, name="event latency benchmark")
    workspace = workspace_create(owner=user, name="latency bench", kind="studio")
    run = Run.objects.create(workspace=workspace, prompt="Benchmark: stream events.", options={})
    return run.pk, raw


@dataclass
class WorkerReport:
    sent: int = 0
    checkpoint_ms: list[float] = field(default_factory=list)
    published_at: dict[int, float] = field(default_factory=dict)
    started: float = 0.0
    finished: float = 0.0
    error: BaseException | None = None


def work(*, run_id: int, count: int, rate: float, report: WorkerReport) -> None:
    """Append `count` events at `rate` per second, one unit (commit, then publish) each."""
    from django.db import connection

    from agents.registry import get_kind
    from agents.runtime import RunState, events
    from agents.services.execution import _checkpoint, lease_acquire
    from agents.services.unit_log import UnitLog

    try:
        if not lease_acquire(run_id=run_id, owner=OWNER):
            raise RuntimeError("could not take the run's lease")
        _warm_up_publishing()
        log = UnitLog(run_id)
        state = RunState.start(
            prompt="Benchmark: stream events.", system=get_kind("studio").system_prompt
        )
        report.started = time.perf_counter()
        for index in range(1, count + 1):
            delay = report.started + (index - 1) / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            state.units += 1
            payload = {
                "status": "running",
                "message": f"benchmark event {index} of {count}",
                "bench_index": index,
                "sent_at": time.time(),
            }
            log.emit(events.RUN_STATUS, payload)
            begun = time.perf_counter()
            _checkpoint(run_id=run_id, owner=OWNER, state=state, log=log, outcome=None)
            report.published_at[index] = time.time()
            report.checkpoint_ms.append((time.perf_counter() - begun) * 1000)
            report.sent += 1
        report.finished = time.perf_counter()
    except BaseException as error:  # reported by the main thread
        report.error = error
    finally:
        connection.close()


def _warm_up_publishing() -> None:
    """First-use costs (imports, the layer, this thread's connection) stay out of the figures."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from agents.models import Run

    Run.objects.exists()
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)("bench-warm-up", {"type": "bench.warm_up"})


# --- clients -------------------------------------------------------------------------------------


@dataclass
class ClientResult:
    index: int
    seqs: list[int] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    received_at: list[float] = field(default_factory=list)
    others: list[Any] = field(default_factory=list)
    error: str = ""


async def receive_all(ws: Any, result: ClientResult, expected: int, deadline: float) -> None:
    try:
        while len(result.seqs) < expected:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            frame = await asyncio.wait_for(ws.recv(), timeout=remaining)
            received = time.time()
            message = json.loads(frame)
            if message.get("type") != "event":
                result.others.append(message)
                continue
            event = message["event"]
            result.seqs.append(int(event["seq"]))
            result.received_at.append(received)
            sent_at = event.get("payload", {}).get("sent_at")
            if sent_at is not None:
                result.latencies_ms.append((received - float(sent_at)) * 1000)
    except TimeoutError:
        return
    except Exception as error:
        result.error = f"{type(error).__name__}: {error}"


async def drive(
    args: argparse.Namespace, *, url: str, token: str, run_id: int, server_pid: int
) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    headers = {"Authorization": f"Bearer {token}"}
    results = [ClientResult(index) for index in range(args.clients)]

    async def open_one(result: ClientResult) -> Any:
        try:
            return await connect(
                url, additional_headers=headers, max_size=None, ping_interval=None, open_timeout=60
            )
        except Exception as error:
            result.error = f"connect: {type(error).__name__}: {error}"
            return None

    began = time.perf_counter()
    sockets = await asyncio.gather(*(open_one(result) for result in results))
    connect_s = time.perf_counter() - began
    failed = [result for result in results if result.error]
    if failed:
        for ws in sockets:
            if ws is not None:
                await ws.close()
        raise RuntimeError(f"{len(failed)} clients could not connect, e.g. {failed[0].error}")

    # the consumers joined the group before accepting; give their first catch-up a moment
    await asyncio.sleep(0.5)
    report = WorkerReport()
    send_seconds = args.events / args.rate
    deadline = time.monotonic() + send_seconds + args.grace
    receivers = [
        asyncio.create_task(receive_all(ws, result, args.events, deadline))
        for ws, result in zip(sockets, results, strict=True)
    ]
    worker = threading.Thread(
        target=work,
        kwargs={"run_id": run_id, "count": args.events, "rate": args.rate, "report": report},
        name="bench-worker",
    )
    cpu_before = (cpu_seconds(server_pid), cpu_seconds(os.getpid()), time.perf_counter())
    worker.start()
    await asyncio.gather(*receivers)
    await asyncio.to_thread(worker.join)
    cpu_after = (cpu_seconds(server_pid), cpu_seconds(os.getpid()), time.perf_counter())
    await asyncio.gather(*(ws.close() for ws in sockets))
    wall = cpu_after[2] - cpu_before[2]
    cpu = {
        "wall_s": wall,
        "server": (cpu_after[0] - cpu_before[0]) / wall,
        "bench": (cpu_after[1] - cpu_before[1]) / wall,
    }
    return {"results": results, "report": report, "connect_s": connect_s, "cpu": cpu}


# --- main ----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=100, help="WebSocket clients (default 100)")
    parser.add_argument("--events", type=int, default=200, help="events to append (default 200)")
    parser.add_argument("--rate", type=float, default=20.0, help="events per second (default 20)")
    parser.add_argument(
        "--database-url",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="PostgreSQL server URL; a throwaway database is created there and dropped after",
    )
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/14",
        help="Redis URL for the channel layer: a spare db number (default db 14; the "
        "integration tests flush db 13)",
    )
    parser.add_argument(
        "--grace", type=float, default=10.0, help="seconds to wait for stragglers (default 10)"
    )
    args = parser.parse_args()
    if args.clients < 1 or args.events < 1 or args.rate <= 0:
        parser.error("--clients, --events and --rate must be positive")

    var_dir = tempfile.mkdtemp(prefix="bench-latency-")
    db_name = ""
    server: Server | None = None
    try:
        database_url, db_name = create_database(args.database_url, "bench_latency")
        env = bench_env(var_dir=var_dir, database_url=database_url, redis_url=args.redis_url)
        os.environ.update(env)
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))
        import django
        from django.conf import settings
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        run_id, token = create_fixtures()

        port = free_port()
        server = Server(port=port, env=env, log_path=Path(var_dir) / "uvicorn.log")
        ready_s = server.wait_ready()
        url = f"ws://127.0.0.1:{port}/ws/runs/{run_id}/?after=0"

        print("event_latency: worker -> Redis channel layer -> uvicorn -> WebSocket clients")
        print("configuration")
        print(f"  python       {platform.python_version()}, Django {django.get_version()}")
        print(
            f"  machine      {platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}, "
            f"load average {os.getloadavg()[0]:.2f} at start"
        )
        print(f"  database     {safe_url(database_url)} (fresh, migrated; dropped at the end)")
        print(f"  redis        {safe_url(args.redis_url)}")
        print(f"  server       uvicorn config.asgi:application on 127.0.0.1:{port}, 1 process")
        print(f"               (listening after {ready_s:.1f} s)")
        print(f"  clients      {args.clients} websockets clients in this process, {url}")
        print(f"  worker       a thread here: {args.events} events at {args.rate:g}/s, one")
        print("               _checkpoint (commit events + state, then events_publish) per event")
        print(f"  consumers    log tail every {settings.EVENTS_POLL_SECONDS:g} s (EVENTS_POLL)")
        print()

        try:
            outcome = asyncio.run(
                drive(args, url=url, token=token, run_id=run_id, server_pid=server.process.pid)
            )
        except Exception:
            print(f"--- uvicorn log (tail) ---\n{server.tail()}\n---", file=sys.stderr)
            raise
        return print_report(args, outcome, server)
    finally:
        if server is not None:
            server.stop()
        if db_name:
            if "django" in sys.modules:
                from django.db import connections

                connections.close_all()
            drop_database(args.database_url, db_name)
        shutil.rmtree(var_dir, ignore_errors=True)


def print_report(args: argparse.Namespace, outcome: dict[str, Any], server: Server) -> int:
    results: list[ClientResult] = outcome["results"]
    worker: WorkerReport = outcome["report"]
    if worker.error is not None:
        print(f"the worker failed: {type(worker.error).__name__}: {worker.error}")
        print(server.tail())
        return 1
    expected_seqs = list(range(1, args.events + 1))
    expected = args.clients * args.events
    delivered = sum(len(result.seqs) for result in results)
    duplicates = sum(len(result.seqs) - len(set(result.seqs)) for result in results)
    out_of_order = sum(result.seqs != sorted(result.seqs) for result in results)
    complete = sum(result.seqs == expected_seqs for result in results)
    errors = [result.error for result in results if result.error]
    others = sum(len(result.others) for result in results)
    latencies = [value for result in results for value in result.latencies_ms]
    by_event: dict[int, list[float]] = {}
    for result in results:
        for seq, latency in zip(result.seqs, result.latencies_ms, strict=False):
            by_event.setdefault(seq, []).append(latency)
    slowest = [max(values) for values in by_event.values()]
    # seq n is the n-th event appended (the run had none before)
    after_publish = [
        (received - worker.published_at[seq]) * 1000
        for result in results
        for seq, received in zip(result.seqs, result.received_at, strict=True)
        if seq in worker.published_at
    ]
    tenth = max(1, args.events // 10)
    early = [v for seq, values in by_event.items() if seq <= tenth for v in values]
    late = [v for seq, values in by_event.items() if seq > args.events - tenth for v in values]
    elapsed = worker.finished - worker.started
    achieved = (worker.sent - 1) / elapsed if worker.sent > 1 and elapsed > 0 else 0.0

    print(f"connected {args.clients} clients in {outcome['connect_s']:.2f} s")
    print(
        f"worker: sent {worker.sent} events in {elapsed:.2f} s ({achieved:.1f}/s); "
        f"checkpoint (commit + publish) p50 {statistics.median(worker.checkpoint_ms):.2f} ms, "
        f"p95 {percentile(worker.checkpoint_ms, 95):.2f} ms"
    )
    cpu = outcome["cpu"]
    print(
        f"CPU while streaming ({cpu['wall_s']:.1f} s): uvicorn {cpu['server']:.0%} of a core, "
        f"this process (worker + clients) {cpu['bench']:.0%}; load average now "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    print()
    print("deliveries")
    print(f"  delivered     {delivered} of {expected} expected ({args.clients} x {args.events})")
    print(f"  complete      {complete} of {args.clients} clients got seq 1..{args.events} in order")
    print(f"  duplicates    {duplicates}; clients out of order: {out_of_order}")
    if others:
        print(f"  other frames  {others} (non-event messages)")
    if errors:
        print(f"  errors        {len(errors)}, e.g. {errors[0]}")
        print(f"--- uvicorn log (tail) ---\n{server.tail()}\n---")
    print()
    print("latency, send (time.time() in the worker) -> frame received by a client, in ms")
    if latencies:
        print(f"  {'':24}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}")
        print("  " + f"{'all deliveries':24}" + _cells(latencies))
        print("  " + f"{'slowest client per event':24}" + _cells(slowest))
        print("  " + f"{f'first {tenth} events':24}" + _cells(early))
        print("  " + f"{f'last {tenth} events':24}" + _cells(late))
        print("  " + f"{'after publish returned':24}" + _cells(after_publish))
        print(
            "  (after publish returned: from the end of the worker's checkpoint, i.e. without the"
        )
        print("   commit and publish; a negative value means the frame beat publish's return)")
    ok = delivered == expected and complete == args.clients and duplicates == 0
    p95 = percentile(latencies, 95) if latencies else math.inf
    print()
    print(
        f"goal: p95 <= {GOAL_P95_MS:g} ms -> p95 {p95:.1f} ms: "
        f"{'MET' if p95 <= GOAL_P95_MS else 'MISSED'}; "
        f"deliveries {'complete, in order, no duplicates' if ok else 'INCOMPLETE OR WRONG'}"
    )
    return 0 if ok else 1


def _cells(values: Sequence[float]) -> str:
    if not values:
        return f"{'n/a':>9}" * 4
    points = (percentile(values, 50), percentile(values, 95), percentile(values, 99), max(values))
    return "".join(f"{value:9.1f}" for value in points)


if __name__ == "__main__":
    sys.exit(main())
