"""Checkpoints append: a unit writes its new messages and events, never the conversation whole."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from agents.models import Event, Run, RunMessage
from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, RunState, ScriptedPolicy, Tool, ToolCall
from agents.selectors import run_messages, run_state
from agents.services import checkpoint, execution
from agents.services.execution import SavedConversation, lease_acquire, run_advance
from agents.services.runs import run_create
from agents.services.unit_log import UnitLog

STEPS = 12


def _echo(arguments, context):
    return {"echo": arguments["n"]}


ECHO = Tool(
    "echo",
    "Return n.",
    {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
    _echo,
)


def _script(steps: int) -> list[Decision]:
    calls = [Decision(tool_calls=(ToolCall(f"c{n}", "echo", {"n": n}),)) for n in range(steps)]
    return [*calls, Decision(message=f"echoed {steps} times")]


register_planner("echo-test", ExtraPlanner(lambda: ScriptedPolicy(_script(STEPS)), (ECHO,)))


@pytest.fixture
def echo_run(alice, make_workspace):
    workspace = make_workspace(alice)
    return run_create(workspace=workspace, prompt="echo", options={"planner": "echo-test"})


@pytest.fixture
def writes(monkeypatch):
    """Every UnitWrite the checkpoints made, in order."""
    seen: list[checkpoint.UnitWrite] = []
    original = execution.unit_commit

    def spy(write):
        seen.append(write)
        return original(write)

    monkeypatch.setattr(execution, "unit_commit", spy)
    return seen


def count_loads(monkeypatch) -> list[int]:
    """The runs whose conversation a slice read back from the database, in order."""
    loads: list[int] = []
    original = execution.run_messages

    def counted(*, run_id):
        loads.append(run_id)
        return original(run_id=run_id)

    monkeypatch.setattr(execution, "run_messages", counted)
    return loads


def finish(run, max_units=5):
    for index in range(100):
        if run_advance(run_id=run.pk, owner=f"w{index}", max_units=max_units).status == "finished":
            return Run.objects.get(pk=run.pk)
    raise AssertionError("the run did not finish")


def test_the_conversation_is_stored_as_rows_and_the_state_stays_small(echo_run, writes):
    run = finish(echo_run)

    assert run.status == Run.Status.SUCCEEDED and run.message == f"echoed {STEPS} times"
    assert "messages" not in run.state
    messages = run_messages(run_id=run.pk)
    assert run.state["message_count"] == len(messages) == 2 + 2 * STEPS + 1
    assert [m["role"] for m in messages[:4]] == ["system", "user", "assistant", "tool"]
    assert messages[-1]["content"] == f"echoed {STEPS} times"
    assert (run_state(run=run) or {})["messages"] == messages
    positions = list(RunMessage.objects.filter(run=run).values_list("position", flat=True))
    assert positions == list(range(len(messages)))


def test_each_unit_writes_only_its_own_messages_whatever_the_step(echo_run, writes):
    finish(echo_run)

    units = [write for write in writes if write.state is not None]
    assert len(units) == 2 * STEPS + 1
    assert units[0].message_start == 0 and len(units[0].messages) == 3  # system, request, call
    later = units[1:]
    assert all(not write.rewrite for write in later)
    assert all(len(write.messages) == 1 for write in later)  # one tool result or one decision
    assert [write.message_start for write in later] == list(range(3, 3 + len(later)))


def test_a_rewritten_message_is_stored_from_where_it_changed(echo_run):
    run = echo_run
    owner = "worker#1"
    assert lease_acquire(run_id=run.pk, owner=owner)
    log = UnitLog(run.pk)
    state = RunState.start(prompt="echo", system="system prompt")
    state.messages += [{"role": "assistant", "content": f"note {n}"} for n in range(4)]
    saved = SavedConversation(0)
    execution._checkpoint(
        run_id=run.pk, owner=owner, state=state, log=log, outcome=None, saved=saved
    )

    # an old observation compressed in place, and the last message dropped (a condensation)
    state.messages[3] = {"role": "assistant", "content": "[compressed] note 1"}
    state.messages.pop()
    state.mark_changed(3)
    execution._checkpoint(
        run_id=run.pk, owner=owner, state=state, log=log, outcome=None, saved=saved
    )

    assert run_messages(run_id=run.pk) == state.messages
    assert saved.count == len(state.messages) == 5
    reloaded, _ = execution._load_state(Run.objects.get(pk=run.pk))
    assert reloaded.messages == state.messages and reloaded.changed_from is None


def test_a_commit_without_the_lease_writes_nothing(echo_run):
    run = echo_run
    assert lease_acquire(run_id=run.pk, owner="worker-a#1")
    Run.objects.filter(pk=run.pk).update(lease_owner="worker-b#2")  # taken over meanwhile
    log = UnitLog(run.pk)
    log.emit("run.started", {})
    state = RunState.start(prompt="echo", system="system prompt")

    with pytest.raises(checkpoint.LeaseLost):
        execution._checkpoint(run_id=run.pk, owner="worker-a#1", state=state, log=log, outcome=None)

    assert not Event.objects.filter(run=run).exists()
    assert not RunMessage.objects.filter(run=run).exists()
    assert Run.objects.get(pk=run.pk).last_seq == 0


def test_a_commit_tells_whether_a_cancel_was_asked_for(echo_run):
    run = echo_run
    assert lease_acquire(run_id=run.pk, owner="w#1")
    Run.objects.filter(pk=run.pk).update(cancel_requested=True)

    committed = checkpoint.unit_commit(
        checkpoint.UnitWrite(run.pk, "w#1", [("run.status", run.created_at, {"status": "x"})])
    )

    assert committed.cancel_requested
    assert [(e.seq, e.type) for e in committed.events] == [(1, "run.status")]


def test_a_checkpoint_written_whole_by_an_older_version_resumes(echo_run, monkeypatch):
    run = echo_run
    monkeypatch.setattr(execution, "resume_take", lambda *args, **kwargs: None)  # a new process
    run_advance(run_id=run.pk, owner="w0", max_units=3)
    whole = run_state(run=Run.objects.get(pk=run.pk))
    assert whole is not None
    whole.pop("message_count")
    Run.objects.filter(pk=run.pk).update(state=whole)  # the shape before messages were rows
    RunMessage.objects.filter(run=run).delete()

    run = finish(run)

    assert run.status == Run.Status.SUCCEEDED
    assert len(run_messages(run_id=run.pk)) == run.state["message_count"] == 2 + 2 * STEPS + 1


def test_a_unit_costs_the_same_queries_at_step_one_and_step_twelve(echo_run):
    run = echo_run

    def slice_queries(units: int) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert run_advance(run_id=run.pk, owner=f"w{units}", max_units=units).status == (
                "continue"
            )
        return len(queries)

    run_advance(run_id=run.pk, owner="first", max_units=1)  # the run starts
    early = slice_queries(2), slice_queries(6)
    for _ in range(3):
        slice_queries(2)
    late = slice_queries(2), slice_queries(6)

    per_unit_early = (early[1] - early[0]) / 4
    per_unit_late = (late[1] - late[0]) / 4
    assert per_unit_late == per_unit_early
    # one statement a unit on PostgreSQL; a short transaction elsewhere, and no cancel poll
    assert per_unit_late <= (1 if connection.vendor == "postgresql" else 6)


def test_the_next_slice_in_the_same_process_reuses_the_state_it_left(echo_run, monkeypatch):
    run = echo_run
    loads = count_loads(monkeypatch)

    assert run_advance(run_id=run.pk, owner="w0", max_units=3).status == "continue"
    held = Run.objects.get(pk=run.pk)
    assert held.lease_owner == "" and held.lease_expires_at is None  # given back with the commit
    run = finish(run)

    assert run.status == Run.Status.SUCCEEDED and loads == []
    assert len(run_messages(run_id=run.pk)) == run.state["message_count"] == 2 + 2 * STEPS + 1


def test_a_slice_another_worker_took_in_between_makes_the_state_load_again(echo_run, monkeypatch):
    run = echo_run
    assert run_advance(run_id=run.pk, owner="w0", max_units=3).status == "continue"
    # another worker (another process: this one's memory is neither used nor changed) advances
    # the run meanwhile
    monkeypatch.setattr(execution, "resume_take", lambda *args, **kwargs: None)
    monkeypatch.setattr(execution, "resume_keep", lambda *args, **kwargs: None)
    assert run_advance(run_id=run.pk, owner="other", max_units=3).status == "continue"
    monkeypatch.undo()
    loads = count_loads(monkeypatch)

    run = finish(run)

    assert run.status == Run.Status.SUCCEEDED and loads == [run.pk]
    messages = run_messages(run_id=run.pk)
    assert [m.get("tool_call_id") for m in messages if m["role"] == "tool"] == [
        f"c{n}" for n in range(STEPS)
    ]
