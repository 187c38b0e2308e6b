"""Fault trials: every effect exactly once while workers, Redis and database connections fail.

One stack (PostgreSQL, a private Redis server of its own, Celery prefork workers, uvicorn) serves
the whole module; its planners and effect tools come from tests/plugins/fault_tools.py, and its
model is the fake OpenAI-compatible server of tests/fakes, running in this process.

1. 20 trials: the worker's process group is SIGKILLed at a seeded random moment of a run whose
   model streams text and calls a tool with side effects; a new worker finishes the run.
2. A tool that runs longer than the lease (the heartbeat keeps it) while duplicate copies of the
   run's task (the same task id) reach a second worker.
3. The database connections of every process are terminated a few times during a run.
4. The Redis server (broker, channel layer, cache) is killed and restarted mid-run, on a machine
   kept busy by CPU burners, while WebSocket clients follow the run: one opened during the
   outage, one after the restart (?after=).

After each: the run succeeded, its seqs are 1..N once, every logical event is shown once (the
ranges of `events.superseded` left out), streamed text is not doubled, and each tool call made
its side effect exactly once.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from config.queues import AGENTS
from tests.fakes.openai_server import Call, FakeOpenAI, Reply, Request
from tests.integration.conftest import POSTGRES_ADMIN_URL
from tests.integration.stack import (
    PLUGIN,
    EventSocket,
    Service,
    Stack,
    assert_seqs,
    free_port,
    wait_for,
)
from tests.plugins.fault_tools import read_effects

pytestmark = [pytest.mark.integration, pytest.mark.fault_trials]

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
LEASE_SECONDS = 2
NAP_SECONDS = 3.5  # longer than the lease: only the heartbeat keeps it
KILL_TRIALS = 20
ITEMS = 3
RECORD = re.compile(r"record\s+(\d+)\s+items", re.IGNORECASE)
FILLER = "streaming a few words of reasoning before the call"


# --- the fake model -------------------------------------------------------------------------------


def recording_model(request: Request) -> Reply:
    """Stateless: one streamed sentence and one `record` call per item, then a streamed answer."""
    messages = request.messages
    prompt = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
    match = RECORD.search(prompt)
    count = int(match.group(1)) if match else ITEMS
    done = sum(1 for m in messages if m.get("role") == "tool")
    stream = {"chunk_delay": 0.01, "text_piece": 4}
    if done < count:
        item = done + 1
        text = f"Item {item} of {count}: {FILLER}, then I record it."
        call = Call("record", {"item": item}, id=f"rec-{item}")
        return Reply(text=text, calls=(call,), **stream)  # type: ignore[arg-type]
    return Reply.say(f"Recorded {count} items; {FILLER}.", **stream)


# --- the stack ------------------------------------------------------------------------------------


class RedisServer:
    """A private redis-server (no persistence) that can be killed and started again on its port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.starts += 1
        log = (self.folder / f"redis-{self.starts}.log").open("wb")
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(
            command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        wait_for(self.ping, timeout=10, what=f"redis-server on port {self.port}")

    def ping(self) -> bool:
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def private_redis(tmp_path_factory) -> Iterator[RedisServer]:
    if not Path(REDIS_SERVER).exists():
        pytest.skip(f"no redis-server binary at {REDIS_SERVER}")
    pytest.importorskip("redis")
    server = RedisServer(tmp_path_factory.mktemp("fault-redis"))
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture(scope="module")
def fake_model() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(responder=recording_model) as server:
        yield server


@pytest.fixture(scope="module")
def fault_stack(
    postgres_url: str, private_redis: RedisServer, fake_model: FakeOpenAI, tmp_path_factory
) -> Iterator[Stack]:
    folder: Path = tmp_path_factory.mktemp("fault-stack")
    stack = Stack.create(
        folder,
        {
            "DATABASE_URL": postgres_url,
            "REDIS_URL": private_redis.url,
            "CELERY_BROKER_URL": private_redis.url,
            "AGENT_PLUGINS": f"{PLUGIN},tests.plugins.fault_tools",
            "AGENT_LEASE_SECONDS": str(LEASE_SECONDS),
            "AGENT_SWEEP_SECONDS": "0.5",
            "AGENT_SLICE_UNITS": "4",
            "AGENT_REQUEUE_SECONDS": "4",
            "EVENTS_POLL_SECONDS": "1",
            "FAULT_MODEL_URL": fake_model.base_url,
            "FAULT_MODEL_NAME": fake_model.model,
            "FAULT_NAP_SECONDS": str(NAP_SECONDS),
            "FAULT_LINGER_SECONDS": "1.5",
        },
    )
    try:
        stack.start(pool="prefork", concurrency=1, token_for="alice")
        yield stack
    finally:
        stack.stop_all()


@pytest.fixture(scope="module")
def workspace(fault_stack: Stack) -> int:
    return fault_stack.create_workspace("faults")


# --- checks ---------------------------------------------------------------------------------------


def effects(stack: Stack, run_id: int) -> list[str]:
    return read_effects(stack.env["DATABASE_URL"], run_id)


def shown(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What clients show: events outside every superseded range, without the markers."""
    hidden: set[int] = set()
    for event in events:
        if event["type"] == "events.superseded":
            hidden.add(event["seq"])
            hidden.update(range(int(event["payload"]["from"]), int(event["payload"]["to"]) + 1))
    return [event for event in events if event["seq"] not in hidden]


def check_run(
    stack: Stack, run_id: int, tool: str, ids: list[str], final: str | None = None
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The checks every trial makes; returns the run and all its events."""
    run = stack.run(run_id)
    assert run["status"] == "succeeded", run
    events = stack.events(run_id)
    assert_seqs(events, run["last_seq"])
    visible = shown(events)
    types = Counter(event["type"] for event in visible)
    assert types["run.started"] == 1 and types["run.finished"] == 1, types
    assert visible[0]["type"] == "run.started" and visible[-1]["type"] == "run.finished"
    expected = {call_id: 1 for call_id in ids}
    calls = Counter(e["payload"]["id"] for e in visible if e["type"] == "tool.call")
    results = Counter(e["payload"]["id"] for e in visible if e["type"] == "tool.result")
    assert calls == expected, f"tool.call ids shown: {calls}"
    assert results == expected, f"tool.result ids shown: {results}"
    assert all(e["payload"]["ok"] for e in visible if e["type"] == "tool.result"), visible
    # streamed text, as shown, adds up to each message exactly: nothing lost, nothing twice
    streamed = ""
    for event in visible:
        if event["type"] == "model.delta":
            streamed += event["payload"]["text"]
        elif event["type"] == "model.message":
            assert streamed == event["payload"]["text"], (streamed, event)
            streamed = ""
    assert streamed == "", f"streamed text after the last message: {streamed!r}"
    messages = [e for e in visible if e["type"] == "model.message"]
    assert len(messages) == len(ids) + 1 and messages[-1]["payload"]["final"], messages
    if final is not None:
        assert run["message"] == final
    # the side effects: one line per call, with the call key of the step that made it
    lines = effects(stack, run_id)
    made = Counter(line.split()[0].split(":", 1)[1] for line in lines)
    summary = [(e["seq"], e["type"], e["payload"].get("id", "")) for e in events]
    assert made == {call_id: 1 for call_id in ids}, f"effects {lines}; events {summary}"
    assert all(f" {tool} " in line for line in lines), lines
    return run, events


def ensure_worker(stack: Stack) -> None:
    if stack.worker is None or not stack.worker.alive:
        stack.start_worker(pool="prefork", concurrency=1)


# --- 1. the worker killed at a random moment ------------------------------------------------------


def lease_holder(stack: Stack, run_id: int) -> str:
    """The task id whose execution holds the run's lease ("" when nobody holds it)."""
    import psycopg

    with psycopg.connect(stack.env["DATABASE_URL"], connect_timeout=5) as db:
        row = db.execute("SELECT lease_owner FROM agents_run WHERE id = %s", (run_id,)).fetchone()
    owner = str(row[0]) if row else ""
    return owner.removeprefix("task:").split("#")[0]


def running_workers(stack: Stack, task_id: str) -> list[Service]:
    """The alive workers that received `task_id` (all alive workers when it is unknown)."""
    alive = [s for s in stack.services if s.name == "worker" and s.alive]
    if not task_id:
        return alive
    return [s for s in alive if f"advance_run[{task_id}] received" in s.log()] or alive


@pytest.fixture
def two_workers(fault_stack: Stack) -> Iterator[Stack]:
    """Two ready workers: the one running the run is killed, the other (warm) takes over while
    a replacement starts, so a trial does not wait for a cold worker."""
    stack = fault_stack
    alive = [s for s in stack.services if s.name == "worker" and s.alive]
    for _ in range(2 - len(alive)):
        stack.start_worker(pool="prefork", concurrency=1, wait=False)
    for service in [s for s in stack.services if s.name == "worker" and s.alive]:
        stack.worker = service
        stack.wait_worker()
    yield stack


@pytest.mark.parametrize("trial", range(KILL_TRIALS))
def test_sigkill_of_the_worker_at_a_random_moment(
    two_workers: Stack, workspace: int, trial: int
) -> None:
    stack = two_workers
    seed = 7919 * (trial + 1)
    rng = random.Random(seed)
    # A random moment of the run: once it has recorded `after` events (0: from its creation),
    # `delay` seconds more; a run of this model records about 20 events.
    after, delay = rng.randint(0, 15), rng.uniform(0.0, 0.4)
    where = f"trial {trial}: seed {seed}, SIGKILL {delay:.3f} s after seq {after}"
    print(where)  # shown with the failure
    run_id = stack.create_run(
        workspace, f"record {ITEMS} items", {"planner": "fault-model", "max_steps": 40}
    )
    wait_for(
        lambda: stack.run(run_id)["last_seq"] >= after,
        timeout=60,
        interval=0.02,
        what=f"the run to record {after} events",
        stack=stack,
    )
    time.sleep(delay)
    victims = running_workers(stack, lease_holder(stack, run_id))
    for victim in victims:
        victim.kill_group()
    killed_at = stack.run(run_id)
    state = f"{killed_at['status']}, last_seq {killed_at['last_seq']}"
    print(f"{where}: killed {len(victims)} worker(s) at {state}")
    if killed_at["status"] in {"queued", "running"} and len(victims) == 2:
        time.sleep(0.3)  # no worker left: nothing may be written now
        assert stack.run(run_id)["last_seq"] == killed_at["last_seq"], "a killed worker wrote"

    started = time.monotonic()
    stack.start_worker(pool="prefork", concurrency=1, wait=False)  # the next spare
    stack.wait_finished(run_id, timeout=90)
    print(f"{where}: run finished {time.monotonic() - started:.1f} s after the kill")

    ids = [f"rec-{n}" for n in range(1, ITEMS + 1)]
    final = f"Recorded {ITEMS} items; {FILLER}."
    run, events = check_run(stack, run_id, "record", ids, final)
    superseded = [e["payload"] for e in events if e["type"] == "events.superseded"]
    print(f"{where}: finished with {run['last_seq']} events; superseded {superseded}")


def test_sigkill_after_the_effect_before_the_call_returns(
    two_workers: Stack, workspace: int
) -> None:
    """Deterministic: the kill lands after the tool's effect and before its result is stored
    (the effect and the stored result are one transaction, so the replay makes it once)."""
    stack = two_workers
    run_id = stack.create_run(workspace, "linger 1", {"planner": "fault-stream"})
    wait_for(
        lambda: any(e["type"] == "tool.call" for e in stack.events(run_id)),
        timeout=30,
        what="the linger call to start",
        stack=stack,
    )
    time.sleep(0.6)  # linger makes its effect at once, then works 1.5 s before it returns
    for victim in running_workers(stack, lease_holder(stack, run_id)):
        victim.kill_group()
    stack.start_worker(pool="prefork", concurrency=1, wait=False)
    stack.wait_finished(run_id, timeout=90)

    check_run(stack, run_id, "linger", ["linger-1"], "done: linger 1")


# --- 2. a unit longer than the lease, and the same task delivered twice ---------------------------


def test_long_unit_keeps_its_lease_and_duplicate_tasks_stop(
    two_workers: Stack, workspace: int, private_redis: RedisServer
) -> None:
    from celery import Celery

    stack = two_workers
    run_id = stack.create_run(workspace, "nap 2", {"planner": "fault-stream"})
    wait_for(
        lambda: any(e["type"] == "tool.call" for e in stack.events(run_id)),
        timeout=30,
        what="the first nap to start",
        stack=stack,
    )
    # Redelivered copies (the same task, the same task id) reach the idle worker once the nap
    # has outlasted the lease: only the heartbeat keeps them from taking the run over.
    time.sleep(LEASE_SECONDS * 1.1)
    client = Celery("fault-trials", broker=private_redis.url)
    task_id = f"dup-{uuid.uuid4().hex[:8]}"
    for _ in range(2):
        client.send_task("agents.advance_run", args=[run_id], task_id=task_id, queue=AGENTS)
    assert stack.run(run_id)["status"] == "running"

    stack.wait_finished(run_id, timeout=60)
    ids = ["nap-1", "nap-2"]
    _, events = check_run(stack, run_id, "nap", ids, "done: nap 2")
    assert not [e for e in events if e["type"] == "events.superseded"], events
    logs = "".join(s.log() for s in stack.services if s.name == "worker" and s.alive)
    duplicates = re.findall(rf"advance_run\[{task_id}\] succeeded in [\d.]+s: '(\w+)'", logs)
    assert duplicates == ["busy", "busy"], (duplicates, stack.logs())
    # No slice of the run lost its lease to another execution (a heartbeat that fires just after
    # its own slice released the lease logs "lease lost" but loses nothing: see the report).
    slices = re.findall(r"advance_run\[([\w-]+)\] received", logs)
    returned = dict(re.findall(r"advance_run\[([\w-]+)\] succeeded in [\d.]+s: '(\w+)'", logs))
    assert "lost" not in {returned.get(task) for task in slices}, stack.logs()


# --- 3. database connections terminated mid-run ---------------------------------------------------


def terminate_backends(database: str) -> int:
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=5, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (database,),
        ).fetchall()
    return len(rows)


def test_database_connections_dropped_mid_run(fault_stack: Stack, workspace: int) -> None:
    stack = fault_stack
    ensure_worker(stack)
    database = stack.env["DATABASE_URL"].rpartition("/")[2]
    run_id = stack.create_run(workspace, "record 8 items", {"planner": "fault-model"})
    rng = random.Random(4242)
    terminated = []
    seen = 0
    for _ in range(4):

        def progressed(since: int = seen) -> int:
            last = int(stack.run(run_id)["last_seq"])
            return last if last >= since + 3 else 0

        seen = wait_for(
            progressed,
            timeout=60,
            what="the run to progress between two terminations",
            stack=stack,
        )
        time.sleep(rng.uniform(0.0, 0.5))
        terminated.append(terminate_backends(database))
    print(f"terminated backends: {terminated}")
    stack.wait_finished(run_id, timeout=120)

    ids = [f"rec-{n}" for n in range(1, 9)]
    check_run(stack, run_id, "record", ids, f"Recorded 8 items; {FILLER}.")


def test_database_dropped_during_a_long_effect_tool(two_workers: Stack, workspace: int) -> None:
    stack = two_workers
    database = stack.env["DATABASE_URL"].rpartition("/")[2]
    run_id = stack.create_run(workspace, "nap 1", {"planner": "fault-stream"})
    wait_for(
        lambda: any(e["type"] == "tool.call" for e in stack.events(run_id)),
        timeout=30,
        what="the nap to start",
        stack=stack,
    )
    time.sleep(0.5)  # inside the nap (it sleeps NAP_SECONDS, then writes its line)
    print(f"terminated backends: {terminate_backends(database)}")
    stack.wait_finished(run_id, timeout=90)

    check_run(stack, run_id, "nap", ["nap-1"], "done: nap 1")


# --- 4. Redis restarted mid-run -------------------------------------------------------------------

ENDING = frozenset({"run.finished", "run.failed"})
BURN_SECONDS = 15  # covers the outage, the restart and the seconds after it


@contextmanager
def cpu_burners(seconds: float) -> Iterator[None]:
    """A busy process per core, as when other work loads the machine; each stops by itself."""
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end: pass"
    cores = len(os.sched_getaffinity(0))
    burners = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(cores)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait(timeout=10)


def follow(socket: EventSocket, received: list[dict[str, Any]]) -> None:
    """Read until the run's last event, then check that nothing more comes."""
    while not received or received[-1]["type"] not in ENDING:
        received.append(socket.next_event(timeout=20))
    with pytest.raises(TimeoutError):
        socket.next_event(timeout=0.5)  # nothing after the end, nothing twice


def test_redis_restarted_mid_run_the_socket_resumes(
    fault_stack: Stack, workspace: int, private_redis: RedisServer
) -> None:
    """Redis dies under a loaded machine: a socket opened during the outage is accepted (its
    channel-layer join fails), is served from the event log, and joins again in the background
    once Redis is back; a socket opened after the restart is served like any other."""
    stack = fault_stack
    ensure_worker(stack)
    run_id = stack.create_run(workspace, "record 12", {"planner": "fault-stream"})
    received: list[dict[str, Any]] = []
    with cpu_burners(BURN_SECONDS):
        with EventSocket(stack, run_id) as socket:
            while len(received) < 6:
                received.append(socket.next_event(timeout=15))
        private_redis.kill()
        with EventSocket(stack, run_id, after=received[-1]["seq"]) as socket:
            time.sleep(2.0)
            private_redis.start()
            follow(socket, received)
    stack.wait_finished(run_id, timeout=60)

    ids = [f"record-{n}" for n in range(1, 13)]
    run, stored = check_run(stack, run_id, "record", ids, "done: record 12")
    assert_seqs(received, run["last_seq"])
    as_shown = [(e["seq"], e["type"], e["payload"]) for e in stored]
    assert [(e["seq"], e["type"], e["payload"]) for e in received] == as_shown
    again: list[dict[str, Any]] = []
    with EventSocket(stack, run_id, after=3) as socket:
        follow(socket, again)
    assert [(e["seq"], e["type"], e["payload"]) for e in again] == as_shown[3:]
    # The outage socket's join failed, was retried in the background and worked: pushes again.
    joins = re.findall(rf"joined run-{run_id} after \d+ failed tries", stack.logs())
    print(f"the socket opened during the outage: {joins}")
    assert joins, "the socket opened during the outage never joined its group again"
