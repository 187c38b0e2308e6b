"""Runs advance in leased slices; every unit's events are committed once, in seq order."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.files.storage import default_storage
from django.utils import timezone

from agents.models import Artifact, Event, Run
from agents.services import execution
from agents.services.execution import lease_acquire, run_advance, run_cancel_idle
from agents.services.options import OptionsError
from agents.services.runs import run_cancel, run_create
from agents.services.sweeper import runs_rescue_stalled
from agents.services.unit_log import UnitLog
from tests.agents.helpers import (
    ONE_SUM,
    TWO_SUMS,
    comparable_events,
    events_of,
    seqs_of,
    stage_artifact,
    types_of,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_planner")]


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice)


@pytest.fixture
def make_run(workspace):
    def make(prompt=TWO_SUMS, **options):
        return run_create(workspace=workspace, prompt=prompt, options=options)

    return make


def advance_until_finished(run, *, max_units, owners=None, max_slices=100):
    """Advance in slices of max_units, each by a new owner; return the statuses seen."""
    statuses = []
    for index in range(max_slices):
        owner = owners(index) if owners else f"worker-{index}"
        result = run_advance(run_id=run.pk, owner=owner, max_units=max_units)
        statuses.append(result.status)
        if result.status == "finished":
            return statuses
    raise AssertionError(f"run {run.pk} did not finish: {statuses}")


def expire_lease(run, *, owner="dead-worker"):
    Run.objects.filter(pk=run.pk).update(
        lease_owner=owner, lease_expires_at=timezone.now() - timedelta(seconds=5)
    )


# --- completing a run ----------------------------------------------------------------------------


def test_a_run_completes_through_slices_with_contiguous_events(make_run):
    run = make_run()

    statuses = advance_until_finished(run, max_units=2)

    run.refresh_from_db()
    assert statuses[-1] == "finished" and statuses.count("continue") >= 2
    assert run.status == Run.Status.SUCCEEDED
    assert "395" in run.message and "1024" in run.message
    assert "395" in run.result["result"] and "1024" in run.result["result"]
    seqs = seqs_of(run)
    assert seqs == list(range(1, len(seqs) + 1))
    assert run.last_seq == len(seqs)
    types = types_of(run)
    assert types[0] == "run.started" and types[-1] == "run.finished"
    assert types.count("tool.result") == 2
    assert run.lease_owner == "" and run.lease_expires_at is None
    assert run.started_at is not None and run.finished_at is not None


def test_a_prompt_without_arithmetic_succeeds_saying_so(make_run, finish_run):
    run = finish_run(make_run("please paint the sky green"))

    assert run.status == Run.Status.SUCCEEDED
    assert "could not find anything" in run.message
    assert types_of(run)[-1] == "run.finished"


def test_advancing_a_finished_run_does_nothing(make_run, finish_run):
    run = finish_run(make_run())
    before = comparable_events(run)

    assert run_advance(run_id=run.pk, owner="late-worker").status == "busy"
    assert comparable_events(run) == before


# --- leases ------------------------------------------------------------------------------------


def test_a_second_worker_cannot_take_a_held_lease(make_run):
    run = make_run()
    assert lease_acquire(run_id=run.pk, owner="worker-a")

    assert run_advance(run_id=run.pk, owner="worker-b").status == "busy"

    run.refresh_from_db()
    assert run.lease_owner == "worker-a"
    assert run.status == Run.Status.QUEUED and events_of(run) == []
    # A redelivered copy of the same task (same task id) does not share the lease either.
    assert run_advance(run_id=run.pk, owner="worker-a").status == "busy"


def test_an_expired_lease_is_taken_over(make_run, finish_run):
    run = make_run()
    expire_lease(run)

    result = run_advance(run_id=run.pk, owner="worker-b", max_units=1)

    assert result.status == "continue" and result.units == 1
    assert types_of(run)[0] == "run.started"
    run = finish_run(run)
    assert run.status == Run.Status.SUCCEEDED
    assert seqs_of(run) == list(range(1, run.last_seq + 1))


def test_a_worker_that_lost_its_lease_mid_slice_writes_nothing(make_run, monkeypatch):
    run = make_run()
    original_build_agent = execution.build_agent

    def build_agent_losing_lease_on_second_unit(run_row, log, lease_lost=None):
        agent = original_build_agent(run_row, log, lease_lost)
        step, calls = agent.step, []

        def step_then_lose_lease(state):
            calls.append(state)
            if len(calls) == 2:  # another worker took the run over while this unit ran
                Run.objects.filter(pk=run_row.pk).update(lease_owner="worker-b")
            return step(state)

        monkeypatch.setattr(agent, "step", step_then_lose_lease)
        return agent

    monkeypatch.setattr(execution, "build_agent", build_agent_losing_lease_on_second_unit)

    result = run_advance(run_id=run.pk, owner="worker-a", max_units=10)

    assert result.status == "lost"
    run.refresh_from_db()
    first_unit = ["run.started", "model.message", "tool.call"]
    assert types_of(run) == first_unit, "the second unit's events must not be recorded"
    assert run.last_seq == len(first_unit)
    assert run.lease_owner == "worker-b"

    monkeypatch.undo()
    expire_lease(run, owner="worker-b")  # worker-b's execution went away in its turn
    assert run_advance(run_id=run.pk, owner="worker-c").status == "finished"
    run.refresh_from_db()
    assert run.status == Run.Status.SUCCEEDED and "1024" in run.message
    assert seqs_of(run) == list(range(1, run.last_seq + 1))
    assert types_of(run).count("tool.result") == 2, "no unit is recorded twice"


def test_resuming_unit_by_unit_records_the_same_events_as_one_slice(make_run):
    in_one_go, unit_by_unit = make_run(), make_run()

    assert run_advance(run_id=in_one_go.pk, owner="worker", max_units=100).status == "finished"
    advance_until_finished(unit_by_unit, max_units=1, owners=lambda index: f"worker-{index}")

    in_one_go.refresh_from_db()
    unit_by_unit.refresh_from_db()
    assert comparable_events(unit_by_unit) == comparable_events(in_one_go)
    assert unit_by_unit.message == in_one_go.message
    assert unit_by_unit.status == in_one_go.status == Run.Status.SUCCEEDED


# --- cancelling --------------------------------------------------------------------------------


def test_cancelling_only_records_the_wish_and_the_cancel_task_ends_the_run(
    make_run, django_capture_on_commit_callbacks
):
    queued = make_run()
    with django_capture_on_commit_callbacks() as callbacks:
        asked = run_cancel(run=queued)

    # The request did no agent work: the run is still queued, with the wish recorded.
    assert asked.status == Run.Status.QUEUED and asked.cancel_requested
    assert events_of(asked) == []
    assert len(callbacks) == 1

    callbacks[0]()  # the worker runs agents.cancel_run (eager Celery in the tests)

    run = Run.objects.get(pk=queued.pk)
    assert run.status == Run.Status.CANCELLED and run.finished_at is not None
    events = events_of(run)
    assert [event.type for event in events] == ["run.started", "run.finished"]
    assert events[-1].payload["status"] == "cancelled"
    assert run_advance(run_id=run.pk, owner="queued-task").status == "busy"


def test_cancelling_between_slices_keeps_what_was_done(
    make_run, django_capture_on_commit_callbacks
):
    run = make_run()
    run_advance(run_id=run.pk, owner="worker", max_units=2)
    done = comparable_events(run)

    with django_capture_on_commit_callbacks(execute=True):
        run_cancel(run=run)

    run.refresh_from_db()
    assert run.status == Run.Status.CANCELLED
    assert comparable_events(run)[: len(done)] == done
    assert seqs_of(run) == list(range(1, run.last_seq + 1))
    assert events_of(run)[-1].payload["status"] == "cancelled"


def test_the_cancel_task_leaves_a_run_a_worker_holds_to_that_worker(make_run):
    run = make_run()
    assert lease_acquire(run_id=run.pk, owner="task:busy#1")
    Run.objects.filter(pk=run.pk).update(cancel_requested=True)

    run_cancel_idle(run_id=run.pk)

    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED and run.lease_owner == "task:busy#1"
    assert events_of(run) == []


def test_cancelling_a_finished_run_changes_nothing(make_run, finish_run):
    run = finish_run(make_run())
    before = comparable_events(run)

    returned = run_cancel(run=run)

    run.refresh_from_db()
    assert returned.status == run.status == Run.Status.SUCCEEDED
    assert not run.cancel_requested
    assert comparable_events(run) == before


# --- options and budgets -----------------------------------------------------------------------


def test_a_step_budget_from_the_options_ends_the_run_as_failed(make_run, finish_run):
    run = finish_run(make_run(max_steps=1))

    assert run.status == Run.Status.FAILED
    assert run.result["reason"] == "budget"
    assert "step budget" in run.message
    last = events_of(run)[-1]
    assert last.type == "run.failed" and last.payload["reason"] == "budget"
    assert types_of(run).count("tool.result") == 1, "it stopped before the second expression"


@pytest.mark.parametrize(
    "options",
    [{"planner": "no-such-planner"}, {"colour": "red"}, {"max_steps": 0}, ["max_steps"]],
)
def test_bad_options_are_refused_before_a_run_exists(workspace, options):
    with pytest.raises(OptionsError):
        run_create(workspace=workspace, prompt=TWO_SUMS, options=options)

    assert not Run.objects.exists()


# --- the sweeper -------------------------------------------------------------------------------


def test_the_sweeper_rescues_a_run_whose_worker_died(make_run, django_capture_on_commit_callbacks):
    stalled = make_run(ONE_SUM)
    long_ago = timezone.now() - timedelta(minutes=10)
    expire_lease(stalled)
    Run.objects.filter(pk=stalled.pk).update(status=Run.Status.RUNNING, enqueued_at=long_ago)
    fresh = make_run(ONE_SUM)  # enqueued just now; its task is on its way
    done = make_run(ONE_SUM)
    Run.objects.filter(pk=done.pk).update(status=Run.Status.SUCCEEDED, enqueued_at=long_ago)

    with django_capture_on_commit_callbacks(execute=True):
        rescued = runs_rescue_stalled(exclusive=False)

    assert rescued == [stalled.pk]
    stalled.refresh_from_db()
    assert stalled.status == Run.Status.SUCCEEDED and "42" in stalled.message
    fresh.refresh_from_db()
    assert fresh.status == Run.Status.QUEUED and events_of(fresh) == []
    done.refresh_from_db()
    assert done.status == Run.Status.SUCCEEDED and events_of(done) == []


# --- artifacts ---------------------------------------------------------------------------------


def test_a_staged_artifact_is_saved_with_an_event_and_reads_back(make_run):
    run = make_run()
    content = b'{"cube": {"size_m": 1.5}}'

    artifact = stage_artifact(run, name="scene.json", content=content)

    assert artifact.file.name and default_storage.exists(artifact.file.name)
    with artifact.file.open("rb") as handle:
        assert handle.read() == content
    assert artifact.size == len(content) and artifact.media_type == "application/json"
    event = Event.objects.get(run=run, type="artifact.created")
    assert event.payload["ref"] == artifact.ref and event.payload["size"] == len(content)
    assert UnitLog(run.pk).read(artifact.ref) == content.decode()
    assert Artifact.objects.filter(run=run).count() == 1


def test_the_files_of_a_unit_that_was_not_recorded_are_removed(make_run):
    from agents.services.execution import LeaseLost, _checkpoint

    run = make_run()
    Run.objects.filter(pk=run.pk).update(lease_owner="worker-b#other")  # taken over meanwhile
    log = UnitLog(run.pk)
    ref = log.add_artifact(name="render.png", content=b"png", media_type="image/png", kind="render")

    with pytest.raises(LeaseLost):
        _checkpoint(run_id=run.pk, owner="worker-a#lost", state=None, log=log, outcome=None)

    assert not Artifact.objects.filter(run=run).exists()
    folder = f"runs/{run.pk}/{ref}"
    left = default_storage.listdir(folder)[1] if default_storage.exists(folder) else []
    assert left == [], "a lost unit left its files on disk"


def test_progress_reaches_the_log_while_the_tool_is_still_running(workspace):
    """A long tool's progress (like streamed model text) is visible before its unit ends."""
    from agents.registry import ExtraPlanner, register_planner
    from agents.runtime import Decision, ScriptedPolicy, Tool, ToolCall

    seen_while_running: list[list[str]] = []

    def slow_tool(arguments, context):
        context.progress(0.5, "half way")
        seen_while_running.append(list(Event.objects.values_list("type", flat=True)))
        return "done"

    tool = Tool("slow", "A tool that reports progress.", {"type": "object"}, slow_tool)
    script = [Decision(tool_calls=(ToolCall("c1", "slow", {}),)), Decision(message="finished")]
    register_planner("progress-test", ExtraPlanner(lambda: ScriptedPolicy(script), (tool,)))
    run = run_create(workspace=workspace, prompt="go", options={"planner": "progress-test"})

    advance_until_finished(run, max_units=10)

    assert seen_while_running == [["run.started", "tool.call", "run.status"]]
    status = Event.objects.get(run=run, type="run.status")
    assert status.payload["progress"] == 0.5 and status.payload["message"] == "half way"
    assert seqs_of(run) == list(range(1, Run.objects.get(pk=run.pk).last_seq + 1))


def test_a_run_waiting_in_a_busy_queue_is_not_enqueued_twice(make_run, settings):
    settings.AGENT_REQUEUE_SECONDS = 300
    waiting = make_run(ONE_SUM)  # between slices or queued: nobody holds it, enqueued a minute ago
    Run.objects.filter(pk=waiting.pk).update(
        status=Run.Status.RUNNING, enqueued_at=timezone.now() - timedelta(minutes=1)
    )
    lost = make_run(ONE_SUM)  # its message was lost: enqueued long ago, never picked up
    Run.objects.filter(pk=lost.pk).update(enqueued_at=timezone.now() - timedelta(minutes=10))

    assert runs_rescue_stalled(exclusive=False) == [lost.pk]


def test_one_sweeper_works_at_a_time(make_run):
    from django.core.cache import cache

    from agents.services.sweeper import SWEEP_LOCK

    cache.delete(SWEEP_LOCK)
    stalled = make_run(ONE_SUM)
    expire_lease(stalled)

    assert runs_rescue_stalled() == [stalled.pk]
    assert runs_rescue_stalled() == [], "a second worker's sweeper skips its pass"
    cache.delete(SWEEP_LOCK)


def test_a_database_error_inside_a_tool_retries_the_unit_instead_of_failing_the_call(
    make_run, monkeypatch
):
    from dataclasses import replace

    from django.db import OperationalError

    run = make_run(ONE_SUM)
    original_build_agent = execution.build_agent
    failures = []

    def build_agent_with_a_flaky_database(run_row, log, lease_lost=None):
        agent = original_build_agent(run_row, log, lease_lost)
        tool = agent.tools._tools["calculate"]

        def flaky(arguments, context):
            if not failures:
                failures.append(1)
                raise OperationalError("server closed the connection unexpectedly")
            return tool.function(arguments, context)

        agent.tools._tools["calculate"] = replace(tool, function=flaky)
        return agent

    monkeypatch.setattr(execution, "build_agent", build_agent_with_a_flaky_database)

    with pytest.raises(OperationalError):  # the task's autoretry takes it from here
        run_advance(run_id=run.pk, owner="worker-a", max_units=10)
    run.refresh_from_db()
    assert "tool.result" not in types_of(run), "the failed unit recorded nothing"
    assert run.lease_owner == "", "the lease was given back for the retry"

    assert run_advance(run_id=run.pk, owner="worker-a-retry").status == "finished"
    run.refresh_from_db()
    assert run.status == Run.Status.SUCCEEDED and "42" in run.message
    results = [e for e in events_of(run) if e.type == "tool.result"]
    assert len(results) == 1 and "error" not in results[0].payload["content"]
    assert seqs_of(run) == list(range(1, run.last_seq + 1))


def test_a_slice_past_its_time_limit_ends_the_run_failed_saying_so(make_run, monkeypatch, settings):
    from celery.exceptions import SoftTimeLimitExceeded

    from agents.tasks import advance_run

    settings.CELERY_TASK_SOFT_TIME_LIMIT = 600
    run = make_run()
    original_build_agent = execution.build_agent

    def build_agent_that_hangs(run_row, log, lease_lost=None):
        agent = original_build_agent(run_row, log, lease_lost)

        def hang(state):  # Celery raises this inside the unit when the soft limit passes
            raise SoftTimeLimitExceeded()

        monkeypatch.setattr(agent, "step", hang)
        return agent

    monkeypatch.setattr(execution, "build_agent", build_agent_that_hangs)

    assert advance_run.apply(args=(run.pk,)).get() == "failed"

    run.refresh_from_db()
    assert run.status == Run.Status.FAILED and run.result["reason"] == "time_limit"
    assert "ran past the 600 s time limit" in run.message
    assert types_of(run) == ["run.failed"]
    assert run.lease_owner == ""


# --- live events of a lost unit ----------------------------------------------------------------


def test_live_events_of_a_lost_unit_are_superseded_and_shown_once(make_run, finish_run):
    from agents.selectors import shown_events
    from agents.services.execution import _checkpoint, lease_release
    from agents.services.unit_log import UnitLog

    run = make_run(ONE_SUM)
    # A worker streams the first unit live (committed at once), then is lost before the unit ends.
    owner = "lost-worker#1"
    assert lease_acquire(run_id=run.pk, owner=owner)
    log = UnitLog(run.pk)
    log.emit("run.started", {"policy": "offline"})
    log.emit("model.delta", {"text": "Let me work out"})
    _checkpoint(run_id=run.pk, owner=owner, state=None, log=log, outcome=None)
    lease_release(run_id=run.pk, owner=owner)
    run.refresh_from_db()
    assert (run.last_seq, run.checkpoint_seq) == (2, 0)

    run = finish_run(run)

    assert run.status == Run.Status.SUCCEEDED and "42" in run.message
    assert seqs_of(run) == list(range(1, run.last_seq + 1)), "the log stays append-only"
    marker = events_of(run)[2]
    assert marker.type == "events.superseded"
    assert (marker.payload["from"], marker.payload["to"]) == (1, 2)
    shown = [event.type for event in shown_events(run_id=run.pk)]
    assert shown.count("run.started") == 1 and "model.delta" not in shown
    assert shown[0] == "run.started" and shown[-1] == "run.finished"
    assert run.checkpoint_seq == run.last_seq


def test_a_run_that_was_never_interrupted_has_nothing_superseded(make_run, finish_run):
    run = finish_run(make_run())

    assert "events.superseded" not in types_of(run)
    assert run.checkpoint_seq == run.last_seq


def test_a_tool_call_of_a_lost_unit_is_not_made_twice(make_run, monkeypatch):
    from dataclasses import replace

    from agents.models import ToolCallRecord

    run = make_run(ONE_SUM)
    made = []
    original_build_agent = execution.build_agent

    def build_agent_counting_calls(run_row, log, lease_lost=None):
        agent = original_build_agent(run_row, log, lease_lost)
        tool = agent.tools._tools["calculate"]

        def counted(arguments, context):  # stands for a side effect: a note, a revision
            made.append(context.call_key)
            return tool.function(arguments, context)

        agent.tools._tools["calculate"] = replace(tool, function=counted, effects=True)
        return agent

    monkeypatch.setattr(execution, "build_agent", build_agent_counting_calls)
    original_checkpoint = execution._checkpoint
    lost = []

    def worker_lost_after_the_tool(**kwargs):
        if made and not lost and kwargs["state"] is not None:
            lost.append(1)
            raise SystemExit("the worker was killed before the unit committed")
        return original_checkpoint(**kwargs)

    monkeypatch.setattr(execution, "_checkpoint", worker_lost_after_the_tool)

    with pytest.raises(SystemExit):
        run_advance(run_id=run.pk, owner="worker-a", max_units=10)
    expire_lease(run, owner=Run.objects.get(pk=run.pk).lease_owner)
    assert run_advance(run_id=run.pk, owner="worker-b", max_units=10).status == "finished"

    run.refresh_from_db()
    assert run.status == Run.Status.SUCCEEDED and "42" in run.message
    assert len(made) == 1, f"the tool ran {len(made)} times"
    assert ToolCallRecord.objects.filter(run=run).count() == 1
    assert types_of(run).count("tool.result") == 1
    assert seqs_of(run) == list(range(1, run.last_seq + 1))


def test_read_only_tool_calls_are_not_recorded(make_run, finish_run):
    from agents.models import ToolCallRecord

    run = finish_run(make_run())

    assert run.status == Run.Status.SUCCEEDED
    assert not ToolCallRecord.objects.filter(run=run).exists(), "calculate changes nothing"
