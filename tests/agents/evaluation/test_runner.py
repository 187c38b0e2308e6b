"""Tasks run through the job path in fresh workspaces and are judged by their verifiers."""

from __future__ import annotations

import pytest

from agents.evaluation import Verdict
from agents.evaluation.runner import run_task
from agents.evaluation.session import evaluate_suite
from agents.evaluation.suites import load_suites
from agents.models import EvaluationRun, Run, TaskResult, Workspace

pytestmark = pytest.mark.django_db


def _task(task_id):
    (suite,) = load_suites("arith")
    return next(task for task in suite.tasks if task.id == task_id)


def test_a_right_result_passes_with_full_reward(arithmetic_kind):
    record = run_task(_task("sum-right"))
    assert record.status == "passed", record.reason
    assert record.reward == 1.0
    assert [check.check for check in record.checks] == ["run_status", "computed"]
    assert record.metrics["tool_calls"] == 1 and record.metrics["tool_failures"] == 0
    assert record.metrics["steps"] >= 2 and record.metrics["tokens"] > 0
    run = Run.objects.get(pk=record.run_ids[0])
    assert run.status == "succeeded" and run.reward == 1.0


def test_a_wrong_reference_fails_with_its_reason_and_partial_credit(arithmetic_kind):
    record = run_task(_task("sum-wrong-reference"))
    assert record.status == "failed"
    assert "expected 1000" in record.reason
    # run_status (1) + wrong (1) + right (3): 4 of 5 weighted credits
    assert record.reward == pytest.approx(0.8)


def test_turns_share_one_workspace_and_each_turn_is_judged_after_its_run(arithmetic_kind):
    record = run_task(_task("two-turns"))
    assert record.status == "passed", record.reason
    assert len(record.run_ids) == 2
    workspaces = {run.workspace_id for run in Run.objects.filter(pk__in=record.run_ids)}
    assert workspaces == {record.workspace_id}
    assert [check.turn for check in record.checks] == [1, 1, 2, 2]


def test_a_task_started_after_another_begins_from_a_clean_state(arithmetic_kind):
    first = run_task(_task("sum-right"))
    second = run_task(_task("sum-right"))
    assert first.workspace_id and second.workspace_id
    assert first.workspace_id != second.workspace_id
    one, two = (
        Workspace.objects.get(pk=first.workspace_id),
        Workspace.objects.get(pk=second.workspace_id),
    )
    assert one.owner_id != two.owner_id
    # The second task's workspace held nothing but its own run when it was judged.
    assert list(Run.objects.filter(workspace=two).values_list("pk", flat=True)) == second.run_ids
    assert Workspace.objects.filter(owner=two.owner).count() == 1


def test_leftovers_in_the_workspace_stop_the_task_before_it_runs(arithmetic_kind):
    arithmetic_kind(leftovers=lambda workspace: ["document 'old.pdf' of another task"])
    record = run_task(_task("sum-right"))
    assert record.status == "error"
    assert record.reason.startswith("not a clean start: document 'old.pdf'")
    assert record.run_ids == []


def test_an_absent_input_skips_the_task_with_the_reason(arithmetic_kind):
    import dataclasses

    task = dataclasses.replace(_task("sum-right"), inputs={"missing": "finance/x.pdf"})
    record = run_task(task)
    assert record.status == "skipped"
    assert "finance/x.pdf is not on this machine" in record.reason


def test_a_verifier_that_raises_fails_its_check_and_the_others_still_count(arithmetic_kind):
    import dataclasses

    from agents.evaluation import Check

    def broken(context, params):
        raise ZeroDivisionError("boom")

    arithmetic_kind(extra={"broken": broken})
    task = _task("sum-right")
    turn = dataclasses.replace(task.turns[0], checks=(*task.turns[0].checks, Check("broken")))
    record = run_task(dataclasses.replace(task, turns=(turn,)))
    assert record.status == "failed"
    assert "the verifier raised ZeroDivisionError: boom" in record.reason
    assert [check.verdict.passed for check in record.checks] == [True, True, False]


def test_repeats_that_disagree_are_flagged_and_stored(arithmetic_kind):
    calls = {"n": 0}

    def flaky(context, params):
        calls["n"] += 1
        return Verdict(calls["n"] % 2 == 1, "odd call", outputs={"n": calls["n"]})

    arithmetic_kind(extra={"computed": flaky})
    (suite,) = load_suites("arith")
    result = evaluate_suite(suite, suite.select("sum-right"), policy="offline", repeat=2)
    assert set(result.nondeterministic) == {"sum-right"}
    stored = EvaluationRun.objects.get(pk=result.evaluation.pk)
    assert stored.nondeterministic[0]["task"] == "sum-right"
    assert TaskResult.objects.filter(evaluation=stored).count() == 2


def test_deterministic_repeats_are_not_flagged(arithmetic_kind):
    (suite,) = load_suites("arith")
    result = evaluate_suite(suite, suite.select("sum-right"), policy="offline", repeat=2)
    assert result.nondeterministic == {}
    assert result.summary.pass_rate == 1.0
    assert result.evaluation.isolation_ok
