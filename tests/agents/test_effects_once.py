"""A tool's database effects and its stored result are one transaction: a worker lost at any
moment of the call, or a database connection dropped in it, leaves the effect made exactly once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from agents.models import Event, Run, Workspace
from agents.registry import ExtraPlanner, register_planner
from agents.runtime import Decision, ScriptedPolicy, Tool, ToolCall, ToolError
from agents.services.execution import run_advance
from agents.services.runs import run_create

FAULTS: dict[str, list[str]] = {"after_effect": [], "seen": []}


def _make_copy(arguments, context):
    """The effect: a workspace row named after the call; then the injected fault, if any."""
    run = Run.objects.select_related("workspace").get(pk=context.options["run_id"])
    Workspace.objects.create(
        owner=run.workspace.owner, name=f"copy {context.call_key}", kind="finance"
    )
    context.progress(0.5, "copied, finishing")
    FAULTS["seen"].append(context.call_key)
    if FAULTS["after_effect"]:
        fault = FAULTS["after_effect"].pop(0)
        if fault == "killed":
            raise SystemExit("the worker was killed after the effect, before the call returned")
        if fault == "database":
            raise OperationalError("server closed the connection unexpectedly")
        if fault == "refused":
            raise ToolError("the copy was refused after it started")
    return {"copied": True}


COPY = Tool("make_copy", "Copy the workspace.", {"type": "object"}, _make_copy, effects=True)
SCRIPT = [
    Decision(tool_calls=(ToolCall("copy-1", "make_copy", {}),)),
    Decision(message="copied"),
]
register_planner("copy-test", ExtraPlanner(lambda: ScriptedPolicy(SCRIPT), (COPY,)))


@pytest.fixture
def copy_run(alice, make_workspace):
    FAULTS["after_effect"].clear()
    FAULTS["seen"].clear()
    workspace = make_workspace(alice)
    return run_create(workspace=workspace, prompt="copy it", options={"planner": "copy-test"})


def copies() -> list[str]:
    return list(Workspace.objects.filter(name__startswith="copy ").values_list("name", flat=True))


def take_over(run: Run, owner: str) -> str:
    """The lost execution's lease lapses; another worker advances the run to its end."""
    Run.objects.filter(pk=run.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    statuses = []
    for index in range(10):
        statuses.append(run_advance(run_id=run.pk, owner=f"{owner}-{index}", max_units=10).status)
        if statuses[-1] == "finished":
            break
    return statuses[-1]


def test_a_worker_killed_after_the_effect_leaves_it_made_once(copy_run):
    FAULTS["after_effect"].append("killed")

    with pytest.raises(SystemExit):
        run_advance(run_id=copy_run.pk, owner="worker-a", max_units=10)
    assert copies() == []  # the lost call's effect went with its transaction

    assert take_over(copy_run, "worker-b") == "finished"

    run = Run.objects.get(pk=copy_run.pk)
    assert run.status == Run.Status.SUCCEEDED and run.message == "copied"
    assert copies() == ["copy 1:copy-1"]
    assert len(FAULTS["seen"]) == 2  # called again, made once


def test_a_database_dropped_in_the_call_retries_the_slice_and_the_effect_is_made_once(copy_run):
    FAULTS["after_effect"].append("database")

    with pytest.raises(OperationalError):
        run_advance(run_id=copy_run.pk, owner="worker-a", max_units=10)
    held = Run.objects.get(pk=copy_run.pk)
    assert held.lease_owner == ""  # given back at once, so the retried task resumes

    assert run_advance(run_id=copy_run.pk, owner="worker-a-retry", max_units=10).status == (
        "finished"
    )
    assert copies() == ["copy 1:copy-1"]


def test_a_failed_effect_call_is_undone_and_the_policy_sees_the_error(copy_run):
    FAULTS["after_effect"].append("refused")

    assert run_advance(run_id=copy_run.pk, owner="worker", max_units=10).status == "finished"

    assert copies() == []  # the partial effect was rolled back with the failed call
    result = Event.objects.get(run=copy_run, type="tool.result").payload
    assert result["ok"] is False and "refused" in result["content"]


def test_progress_of_an_effect_call_is_recorded_once_with_its_unit(copy_run):
    assert run_advance(run_id=copy_run.pk, owner="worker", max_units=10).status == "finished"

    types = list(Event.objects.filter(run=copy_run).order_by("seq").values_list("type", flat=True))
    assert types.count("run.status") == 1
    assert types.index("run.status") < types.index("tool.result")
