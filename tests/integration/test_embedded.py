"""End to end on the embedded default: SQLite, the filesystem broker, a threads-pool worker.

Needs no server, so it always runs. Without Redis, WebSocket consumers tail the event log.
"""

from __future__ import annotations

import time

import pytest

from tests.integration.stack import EventSocket, Stack, assert_seqs

pytestmark = pytest.mark.integration


def test_embedded_api_flow(embedded_stack: Stack) -> None:
    stack = embedded_stack
    workspace = stack.create_workspace("embedded")
    run_id = stack.create_run(workspace, "what is 17*23+4 and 2**10")

    run = stack.wait_finished(run_id, timeout=60)

    assert run["status"] == "succeeded", run
    assert "395" in run["message"] and "1024" in run["message"], run["message"]
    events = stack.events(run_id)
    assert_seqs(events, run["last_seq"])
    assert events[-1]["type"] == "run.finished"


def test_embedded_websocket_receives_live_events(embedded_stack: Stack) -> None:
    stack = embedded_stack
    workspace = stack.create_workspace("embedded live")
    run_id = stack.create_run(workspace, "count to 10", {"planner": "slow-count"})
    received: list[tuple[float, dict]] = []

    with EventSocket(stack, run_id) as socket:
        while not received or received[-1][1]["type"] not in {"run.finished", "run.failed"}:
            event = socket.next_event(timeout=20)
            received.append((time.monotonic(), event))

    run = stack.run(run_id)
    assert run["status"] == "succeeded", run
    assert run["message"] == "counted to 10"
    events = [event for _, event in received]
    assert_seqs(events, run["last_seq"])
    # streamed while the run went on (10 ticks of 0.2 s), not replayed in one batch at the end
    assert received[-1][0] - received[0][0] > 1.0
    stored = stack.events(run_id)
    assert [(e["seq"], e["type"]) for e in events] == [(e["seq"], e["type"]) for e in stored]
