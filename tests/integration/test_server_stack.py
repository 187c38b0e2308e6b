"""End to end on PostgreSQL + Redis with real Celery worker processes and uvicorn.

Skipped (with the reason) where PostgreSQL or Redis does not answer.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from tests.integration.stack import EventSocket, Stack, assert_seqs, wait_for

pytestmark = pytest.mark.integration

ARITHMETIC = "what is 17*23+4 and 2**10"
SLOW = "slow-count"


def test_offline_run_completes(server_stack: Stack) -> None:
    stack = server_stack
    workspace = stack.create_workspace("arithmetic")
    run_id = stack.create_run(workspace, ARITHMETIC)

    run = stack.wait_finished(run_id, timeout=60)

    assert run["status"] == "succeeded", run
    assert "395" in run["message"] and "1024" in run["message"], run["message"]
    events = stack.events(run_id)
    assert_seqs(events, run["last_seq"])
    assert events[0]["type"] == "run.started"
    assert events[-1]["type"] == "run.finished"
    assert [e["payload"]["name"] for e in events if e["type"] == "tool.call"] == ["calculate"] * 2
    final = [e for e in events if e["type"] == "model.message" and e["payload"]["final"]]
    assert len(final) == 1 and "395" in final[0]["payload"]["text"]


def test_run_survives_sigkill_of_its_worker(server_stack: Stack) -> None:
    """A worker killed mid-run (whole process group) loses nothing and records nothing twice."""
    stack = server_stack
    assert stack.worker is not None and stack.worker.alive
    workspace = stack.create_workspace("kill")
    run_id = stack.create_run(workspace, "count to 40", {"planner": SLOW, "max_steps": 100})

    wait_for(
        lambda: stack.run(run_id)["last_seq"] >= 8,
        timeout=30,
        what="the run to record 8 events",
        stack=stack,
    )
    stack.worker.kill_group()
    killed_at = stack.run(run_id)
    assert killed_at["status"] in {"queued", "running"}, killed_at
    time.sleep(0.5)
    assert stack.run(run_id)["last_seq"] == killed_at["last_seq"], "a killed worker still wrote"

    stack.start_worker(pool="prefork", concurrency=1)
    run = stack.wait_finished(run_id, timeout=90)

    assert run["status"] == "succeeded", run
    assert run["message"] == "counted to 40"
    assert run["last_seq"] > killed_at["last_seq"]
    events = stack.events(run_id)
    assert_seqs(events, run["last_seq"])
    types = Counter(event["type"] for event in events)
    assert types["run.started"] == 1 and types["run.finished"] == 1, types
    calls = Counter(e["payload"]["id"] for e in events if e["type"] == "tool.call")
    results = Counter(e["payload"]["id"] for e in events if e["type"] == "tool.result")
    expected = {f"tick-{n}": 1 for n in range(1, 41)}
    assert calls == expected
    assert results == expected
    counts = [e["payload"]["content"] for e in events if e["type"] == "tool.result"]
    assert counts == [f'{{"count": {n}}}' for n in range(1, 41)]
    assert events[-2]["payload"]["text"] == "counted to 40"


def test_websocket_follows_live_and_resumes_after_reconnect(server_stack: Stack) -> None:
    """Live events come through the Redis channel layer; a reconnect with ?after= fills the gap."""
    stack = server_stack
    if stack.worker is None or not stack.worker.alive:
        stack.start_worker(pool="prefork", concurrency=1)
    workspace = stack.create_workspace("socket")
    run_id = stack.create_run(workspace, "count to 15", {"planner": SLOW})
    received: list[dict] = []

    # Connected before the first event: with EVENTS_POLL_SECONDS=30, only pushes arrive in time.
    with EventSocket(stack, run_id) as socket:
        while len(received) < 10:
            received.append(socket.next_event(timeout=15))
    last_seen = received[-1]["seq"]
    wait_for(
        lambda: stack.run(run_id)["last_seq"] > last_seen + 2,
        timeout=20,
        what="events to be recorded while the client is away",
        stack=stack,
    )

    with EventSocket(stack, run_id, after=last_seen) as socket:
        while received[-1]["type"] not in {"run.finished", "run.failed"}:
            received.append(socket.next_event(timeout=15))
        with pytest.raises(TimeoutError):
            socket.next_event(timeout=0.5)  # nothing after the end, nothing twice

    run = stack.run(run_id)
    assert run["status"] == "succeeded", run
    assert run["message"] == "counted to 15"
    assert_seqs(received, run["last_seq"])
    stored = stack.events(run_id)
    assert [(e["seq"], e["type"], e["payload"]) for e in received] == [
        (e["seq"], e["type"], e["payload"]) for e in stored
    ]
