"""The studio kind's solvers for the verifiers' quality control (`agents.evaluation.qc`).

Every task gets the null solver (no tool call, "Done."), which must fail: a check that an empty
scene passes (an absence, a relation between objects that are not there) is a defect. The gold
(the scene the checks describe, built with the primitive tools) and the wrong solvers (the right
objects in the wrong places or sizes, colours swapped, one object dropped) are not written yet:
each task says so.
"""

from __future__ import annotations

from typing import Any

from agents.evaluation.qc import QcPlan, null_solver
from agents.evaluation.spec import Task

NO_GOLD = "no gold scene is written for studio tasks yet (built with the primitive tools)"


def plan(task: Task, inputs: dict[str, Any]) -> QcPlan:
    return QcPlan((null_solver(),), no_gold=NO_GOLD)
