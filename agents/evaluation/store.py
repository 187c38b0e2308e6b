"""Keeping evaluations: one EvaluationRun per suite, a TaskResult per task and repeat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from agents.evaluation.intervals import wilson
from agents.evaluation.runner import TaskRecord
from agents.models import EvaluationRun, TaskResult


@dataclass(frozen=True)
class SuiteSummary:
    suite: str
    total: int
    passed: int
    skipped: int
    errors: int
    mean_reward: float | None
    known_failing: list[str]
    """Known failures that still fail (expected)."""
    now_passing: list[str]
    """Tasks marked as known failures that pass now: the mark should go."""
    regressions: list[str]
    """Tasks not marked as known failures that failed: these need attention."""
    by_set: dict[str, tuple[int, int]] = field(default_factory=dict)
    """(passed, judged) of the tasks of each reported set (`REPORTED_SETS`, by tag): the
    first-contact and paraphrase sets, and the rest of the suite ("seen")."""

    @property
    def judged(self) -> int:
        return self.total - self.skipped

    @property
    def pass_rate(self) -> float | None:
        return round(self.passed / self.judged, 4) if self.judged else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The pass rate's 95 % Wilson interval."""
        return wilson(self.passed, self.judged)

    def to_dict(self) -> dict[str, Any]:
        interval = self.interval
        return {
            "suite": self.suite,
            "pass_rate": self.pass_rate,
            "interval": [round(bound, 4) for bound in interval] if interval else None,
            "passed": self.passed,
            "judged": self.judged,
            "skipped": self.skipped,
            "errors": self.errors,
            "mean_reward": self.mean_reward,
            "known_failing": self.known_failing,
            "now_passing": self.now_passing,
            "regressions": self.regressions,
            "by_set": {
                name: {"passed": passed, "judged": judged, "interval": _interval(passed, judged)}
                for name, (passed, judged) in self.by_set.items()
            },
        }


def summarise(suite: str, records: Sequence[TaskRecord]) -> SuiteSummary:
    judged = [record for record in records if record.status != "skipped"]
    rewards = [record.reward for record in judged]
    failing = [record for record in judged if not record.passed]
    return SuiteSummary(
        suite=suite,
        total=len(records),
        passed=sum(record.passed for record in judged),
        skipped=len(records) - len(judged),
        errors=sum(record.status == "error" for record in judged),
        mean_reward=round(sum(rewards) / len(rewards), 4) if rewards else None,
        known_failing=_ids(record for record in failing if record.task.known_failure),
        now_passing=_ids(
            record for record in judged if record.passed and record.task.known_failure
        ),
        regressions=_ids(record for record in failing if not record.task.known_failure),
        by_set=_by_set(judged),
    )


REPORTED_SETS = ("first-contact", "paraphrase")
"""Tags whose tasks are reported apart: written by someone who had not read the planner
(first contact) and rewordings of passing tasks (paraphrase). Untagged tasks are "seen"."""


def _by_set(judged: Sequence[TaskRecord]) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for record in judged:
        names = [tag for tag in REPORTED_SETS if tag in record.task.tags] or ["seen"]
        for name in names:
            passed, total = found.get(name, (0, 0))
            found[name] = (passed + record.passed, total + 1)
    return found if set(found) != {"seen"} else {}


def _interval(passed: int, judged: int) -> list[float] | None:
    interval = wilson(passed, judged)
    return [round(bound, 4) for bound in interval] if interval else None


def _ids(records: Any) -> list[str]:
    return sorted({record.task.id for record in records})


def evaluation_start(
    *, suite: str, policy: str, model: str, selection: str, repeat: int, environment: dict[str, Any]
) -> EvaluationRun:
    """Record that an evaluation of a suite began (results are added as tasks finish)."""
    return EvaluationRun.objects.create(
        suite=suite,
        policy=policy,
        model=model,
        selection=selection[:200],
        repeat=repeat,
        environment=environment,
    )


def evaluation_add_result(*, evaluation: EvaluationRun, record: TaskRecord) -> TaskResult:
    """Store one task's outcome as soon as it is known, so an interrupted run keeps it."""
    with transaction.atomic():
        result = TaskResult.objects.create(
            evaluation=evaluation,
            task_id=record.task.id,
            repeat_index=record.repeat_index,
            workspace_id=record.workspace_id,
            status=record.status,
            known_failure=record.task.known_failure[:500],
            reward=record.reward,
            verdicts=[check.to_dict() for check in record.checks],
            metrics=record.metrics,
            key_outputs=record.key_outputs,
            reason=record.reason,
        )
        result.runs.set(record.run_ids)
    return result


def evaluation_finish(
    *, evaluation: EvaluationRun, summary: SuiteSummary, nondeterministic: dict[str, str]
) -> EvaluationRun:
    """Close an evaluation with its pass rate and the tasks whose repeats disagreed."""
    evaluation.tasks_total = summary.total
    evaluation.tasks_passed = summary.passed
    evaluation.tasks_skipped = summary.skipped
    evaluation.pass_rate = summary.pass_rate
    evaluation.mean_reward = summary.mean_reward
    evaluation.nondeterministic = [
        {"task": task, "difference": why} for task, why in sorted(nondeterministic.items())
    ]
    evaluation.by_set = summary.to_dict()["by_set"]
    evaluation.isolation_ok = not evaluation.results.filter(
        reason__startswith="not a clean start"
    ).exists()
    evaluation.finished_at = timezone.now()
    evaluation.save()
    return evaluation
