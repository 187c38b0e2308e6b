"""Running one task through the normal job path, in a workspace of its own, and scoring it.

Each task gets a fresh user and workspace; before anything runs, the harness proves the
workspace is clean (no runs, artifacts or domain objects of any earlier task). Inputs are laid
in by the workspace kind, each turn becomes a run (`run_create`, then slices of `run_advance`
under a lease, as a worker does), and the turn's checks judge what the run left behind.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User

from agents.evaluation.generic import GENERIC_VERIFIERS
from agents.evaluation.kinds import EvaluationKind, InputUnavailable, get_evaluation_kind
from agents.evaluation.metrics import run_metrics, sum_metrics
from agents.evaluation.scoring import ScoredCheck, failed_reasons, passed, reward
from agents.evaluation.spec import Check, Task
from agents.evaluation.verdicts import Verdict, Verifier, VerifierContext
from agents.models import Artifact, Run, Workspace
from agents.services.driving import RunDidNotFinish, run_drive
from agents.services.options import OptionsError
from agents.services.runs import RunInputError, run_create
from agents.services.workspaces import workspace_create

logger = logging.getLogger(__name__)
EVALUATION_USER_PREFIX = "eval-"


@dataclass
class TaskRecord:
    """What one task (one repeat of it) did and how it was judged."""

    task: Task
    repeat_index: int = 0
    status: str = "failed"
    """passed, failed, skipped (an input is absent here) or error (the harness could not run it)"""
    checks: list[ScoredCheck] = field(default_factory=list)
    metrics: dict[str, Any] = field(default_factory=dict)
    key_outputs: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    workspace_id: int | None = None
    run_ids: list[int] = field(default_factory=list)

    @property
    def reward(self) -> float:
        return reward(self.checks) if self.status in ("passed", "failed") else 0.0

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def verdict_map(self) -> dict[str, bool]:
        """Each check's outcome by position, for comparing repeats."""
        return {
            f"{check.turn}:{index}:{check.check}": check.verdict.passed
            for index, check in enumerate(self.checks)
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task.id,
            "suite": self.task.suite,
            "repeat": self.repeat_index,
            "status": self.status,
            "passed": self.passed,
            "reward": self.reward,
            "known_failure": self.task.known_failure,
            "tags": list(self.task.tags),
            "reason": self.reason,
            "checks": [check.to_dict() for check in self.checks],
            "metrics": self.metrics,
            "key_outputs": self.key_outputs,
            "workspace_id": self.workspace_id,
            "run_ids": self.run_ids,
        }


def run_task(task: Task, *, policy: str = "offline", repeat_index: int = 0) -> TaskRecord:
    """Run every turn of a task in a fresh workspace and judge each turn with its checks."""
    record = TaskRecord(task=task, repeat_index=repeat_index)
    started = time.monotonic()
    try:
        kind = get_evaluation_kind(task.kind)
        workspace = fresh_workspace(task)
        record.workspace_id = workspace.pk
        dirty = workspace_leftovers(workspace, kind)
        if dirty:
            record.status, record.reason = "error", "not a clean start: " + "; ".join(dirty)
            return record
        try:
            inputs = kind.prepare(workspace, dict(task.inputs)) if kind.prepare else {}
        except InputUnavailable as error:
            record.status, record.reason = "skipped", str(error)
            return record
        play_turns(task, kind, workspace, inputs, policy, record)
    except Exception as error:  # a harness or domain bug must not stop the other tasks
        logger.exception("task %s could not run", task.id)
        record.status, record.reason = "error", f"{type(error).__name__}: {error}"
        return record
    finally:
        record.metrics["task_wall_s"] = round(time.monotonic() - started, 3)
    record.status = "passed" if passed(record.checks) else "failed"
    record.reason = "; ".join(failed_reasons(record.checks))
    return record


def workspace_leftovers(workspace: Workspace, kind: EvaluationKind) -> list[str]:
    """Anything in a task's workspace (or of its user) that the task itself did not make."""
    found = []
    runs = Run.objects.filter(workspace=workspace).count()
    if runs:
        found.append(f"{runs} run(s) already in the workspace")
    artifacts = Artifact.objects.filter(run__workspace=workspace).count()
    if artifacts:
        found.append(f"{artifacts} artifact(s)")
    others = Workspace.objects.filter(owner_id=workspace.owner_id).exclude(pk=workspace.pk).count()
    if others:
        found.append(f"the task's user owns {others} other workspace(s)")
    return found + list(kind.leftovers(workspace))


def fresh_workspace(task: Task) -> Workspace:
    name = f"{EVALUATION_USER_PREFIX}{uuid.uuid4().hex[:12]}"
    user = User(username=name, is_active=False)
    user.set_unusable_password()
    user.save()
    return workspace_create(owner=user, name=f"eval {task.suite}/{task.id}"[:200], kind=task.kind)


def play_turns(
    task: Task,
    kind: EvaluationKind,
    workspace: Workspace,
    inputs: dict[str, Any],
    policy: str,
    record: TaskRecord,
) -> None:
    verifiers: dict[str, Verifier] = {**GENERIC_VERIFIERS, **kind.verifier_table()}
    context = VerifierContext(task=task, workspace=workspace, runs=[], turn=0, inputs=inputs)
    per_run = []
    for number, turn in enumerate(task.turns, start=1):
        try:
            run = run_create(
                workspace=workspace, prompt=turn.prompt, options={**task.options, "planner": policy}
            )
        except (RunInputError, OptionsError) as error:
            verdict = Verdict.fail(f"the run could not start: {error}")
            record.checks.append(ScoredCheck(number, "run_status", 1.0, verdict))
            break
        record.run_ids.append(run.pk)
        try:
            run = run_drive(run_id=run.pk, owner=f"evaluate:{run.pk}")
        except RunDidNotFinish as error:
            verdict = Verdict.fail(str(error))
            record.checks.append(ScoredCheck(number, "run_status", 1.0, verdict))
            break
        context.runs.append(run)
        context.turn = number
        generic = Check("run_status", {"status": turn.expect_status})
        judged = [_judge(check, context, verifiers, number) for check in (generic, *turn.checks)]
        Run.objects.filter(pk=run.pk).update(reward=reward(judged))
        record.checks.extend(judged)
        per_run.append(run_metrics(run))
    record.metrics.update(sum_metrics(per_run))
    record.key_outputs = _key_outputs(kind, context, record)


def _judge(
    check: Check, context: VerifierContext, verifiers: dict[str, Verifier], turn: int
) -> ScoredCheck:
    verifier = verifiers.get(check.name)
    if verifier is None:
        verdict = Verdict.fail(f"no verifier named {check.name!r} for {context.task.kind}")
    else:
        try:
            verdict = verifier(context, dict(check.params))
        except Exception as error:  # one broken check must not hide the others' verdicts
            logger.exception("verifier %s failed on task %s", check.name, context.task.id)
            verdict = Verdict.fail(f"the verifier raised {type(error).__name__}: {error}")
    return ScoredCheck(turn, check.name, check.weight, verdict, dict(check.params))


def _key_outputs(
    kind: EvaluationKind, context: VerifierContext, record: TaskRecord
) -> dict[str, Any]:
    outputs: dict[str, Any] = {"statuses": [run.status for run in context.runs]}
    if context.runs:
        try:
            outputs["state"] = kind.key_outputs(context)
        except Exception as error:
            logger.exception("key outputs of task %s", context.task.id)
            outputs["state"] = {"error": f"{type(error).__name__}: {error}"}
    outputs["measured"] = [check.verdict.outputs for check in record.checks]
    return outputs
