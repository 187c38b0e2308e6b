"""An arithmetic suite on the finance kind (its offline planner hands sums to a calculator)."""

from __future__ import annotations

import json
import textwrap

import pytest

from agents.evaluation import Verdict, kinds
from agents.evaluation.kinds import EvaluationKind, InputUnavailable
from agents.models import Event

SUITE = """
tasks:
  - id: sum-right
    quick: true
    prompt: what is 17*23+4?
    verify:
      - {check: computed, value: 395}
  - id: sum-wrong-reference
    prompt: what is 2**10?
    verify:
      - {check: computed, value: 1000}
      - {check: computed, value: 1024, weight: 3}
  - id: two-turns
    turns:
      - prompt: what is 6*7?
        verify: [{check: computed, value: 42}]
      - prompt: and 2+2?
        verify: [{check: runs_so_far, count: 2}]
"""


def computed(context, params):
    """The run's calculate tool returned the expected value."""
    values = [
        json.loads(event.payload["content"]).get("value")
        for event in Event.objects.filter(run=context.run, type="tool.result")
        if event.payload.get("ok")
    ]
    if params["value"] in values:
        return Verdict.ok(values=values)
    return Verdict.fail(f"calculated {values}, expected {params['value']}", values=values)


def runs_so_far(context, params):
    count = len(context.runs)
    ok = count == params["count"] and len({run.workspace_id for run in context.runs}) == 1
    return Verdict(ok, "" if ok else f"{count} runs", outputs={"runs": count})


@pytest.fixture
def arithmetic_kind(tmp_path, offline_planner):
    """Registers an `arith` suite for finance workspaces, for the test only."""
    folder = tmp_path / "arith"
    folder.mkdir()
    (folder / "tasks.yaml").write_text(textwrap.dedent(SUITE))
    (folder / "floors.json").write_text(json.dumps({"quick": 1.0, "full": 0.9}))
    saved = dict(kinds._kinds)

    def prepare(workspace, inputs):
        if inputs.get("missing"):
            raise InputUnavailable(f"{inputs['missing']} is not on this machine")
        return {"prepared_for": workspace.pk}

    def register(**overrides):
        kinds._kinds["finance"] = EvaluationKind(
            key="finance",
            suites={"arith": folder},
            verifiers={
                "computed": computed,
                "runs_so_far": runs_so_far,
                **overrides.pop("extra", {}),
            },
            prepare=prepare,
            **overrides,
        )
        return folder

    register()
    yield register
    kinds._kinds.clear()
    kinds._kinds.update(saved)
