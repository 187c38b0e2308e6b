"""`evaluate --qc`: each task's gold, null and wrong solvers answer through the model path; a
verifier that passes the null or a wrong solver is a defect that fails the command."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from agents.evaluation import Verdict
from agents.evaluation.qc import QcPlan, null_solver, scripted
from agents.models import Run

pytestmark = pytest.mark.django_db


def sum_solvers(task, inputs):
    """Gold calculates the sum asked; a wrong solver calculates another one."""
    if task.id != "sum-right":
        return QcPlan(uncovered="only the first task has solvers here")
    return QcPlan(
        (
            scripted("gold", "gold", [("calculate", {"expression": "17*23+4"})]),
            null_solver(),
            scripted("wrong:other sum", "wrong", [("calculate", {"expression": "17*23"})]),
        ),
    )


def finished(context, params):
    """A defective verifier: any run that ended passes."""
    return Verdict(context.run.status == Run.Status.SUCCEEDED, "did not succeed")


def test_a_sound_verifier_holds_its_gold_null_and_wrong_solvers(arithmetic_kind, tmp_path, capsys):
    arithmetic_kind(qc=sum_solvers)
    out = tmp_path / "qc.json"

    call_command("evaluate", "--suite", "arith", "--qc", "--json", str(out))

    printed = capsys.readouterr().out
    assert "ok        sum-right: gold passes, null fails, 1/1 wrong fail" in printed
    assert "UNCOVERED sum-wrong-reference: only the first task has solvers here" in printed
    qc = json.loads(out.read_text())["suites"]["arith"]["qc"]
    assert {
        k: qc[k] for k in ("tasks", "checked", "gold_passed", "null_failed", "wrong_failed")
    } == {
        "tasks": 3,
        "checked": 1,
        "gold_passed": 1,
        "null_failed": 1,
        "wrong_failed": 1,
    }
    assert Run.objects.filter(options__planner="model").count() == 3  # each through the model


def test_a_verifier_that_passes_the_null_and_wrong_solvers_fails_the_command(
    arithmetic_kind, capsys
):
    folder = arithmetic_kind(qc=sum_solvers, extra={"finished": finished})
    (folder / "tasks.yaml").write_text(
        "tasks:\n- {id: sum-right, prompt: 'what is 17*23+4?', verify: [{check: finished}]}\n"
    )

    with pytest.raises(CommandError, match="1 verifier defect") as raised:
        call_command("evaluate", "--suite", "arith", "--qc")

    assert "the null solver passes; wrong:other sum passes" in str(raised.value)
    assert "DEFECT" in capsys.readouterr().out
