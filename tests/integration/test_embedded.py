"""End to end on the embedded default: SQLite, the filesystem broker, a prefork worker.

Needs no server, so it always runs. Without Redis, WebSocket consumers tail the event log.
"""

from __future__ import annotations

import time

import pytest

from tests.integration.stack import EventSocket, Stack, assert_seqs, embedded

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


def test_a_tool_past_its_time_limit_is_stopped_in_the_embedded_worker(tmp_path) -> None:
    """The worker `deploy/dev.py run` starts enforces per-call tool limits (a prefork child's
    main thread): a tick that would sleep 5 s is stopped at the 0.5 s limit."""
    limits = {"AGENT_TOOL_TIMEOUT_SECONDS": "0.5", "SLOW_TICK_SECONDS": "5"}
    with embedded(tmp_path, token_for="alice", settings=limits) as stack:
        workspace = stack.create_workspace("limits")
        run_id = stack.create_run(
            workspace, "count to 2", {"planner": "slow-count", "max_steps": 4}
        )
        stack.wait_finished(run_id, timeout=60)
        results = [e for e in stack.events(run_id) if e["type"] == "tool.result"]

    assert results, "the tick was called"
    first = results[0]["payload"]
    assert first["ok"] is False and first["timed_out"] is True
    assert first["content"] == "error: tick timed out after 0.5 s"
    assert first["duration_ms"] < 3000
