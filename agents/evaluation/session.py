"""One evaluation of a suite: every selected task, repeated, stored as it goes, summarised."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from agents.evaluation.determinism import nondeterministic
from agents.evaluation.runner import TaskRecord, run_task
from agents.evaluation.spec import Suite, Task
from agents.evaluation.store import (
    SuiteSummary,
    evaluation_add_result,
    evaluation_finish,
    evaluation_start,
    summarise,
)
from agents.models import EvaluationRun


@dataclass(frozen=True)
class SuiteResult:
    suite: Suite
    evaluation: EvaluationRun
    records: list[TaskRecord]
    summary: SuiteSummary
    nondeterministic: dict[str, str]

    def to_dict(self) -> dict[str, Any]:
        floors = self.suite.floors
        return {
            **self.summary.to_dict(),
            "evaluation_id": self.evaluation.pk,
            "floors": floors,
            "nondeterministic": self.nondeterministic,
            "tasks": [record.to_dict() for record in self.records],
        }


def evaluate_suite(
    suite: Suite,
    tasks: Sequence[Task],
    *,
    policy: str,
    model: str = "",
    repeat: int = 1,
    selection: str = "",
    environment: dict[str, Any] | None = None,
    on_record: Callable[[TaskRecord], None] | None = None,
) -> SuiteResult:
    """Run each task `repeat` times (each in a fresh workspace), store and summarise them."""
    evaluation = evaluation_start(
        suite=suite.name,
        policy=policy,
        model=model,
        selection=selection,
        repeat=repeat,
        environment=environment or {},
    )
    records = []
    with inline_tasks():
        for task in tasks:
            for index in range(repeat):
                record = run_task(task, policy=policy, repeat_index=index)
                evaluation_add_result(evaluation=evaluation, record=record)
                records.append(record)
                if on_record is not None:
                    on_record(record)
    flagged = nondeterministic(records) if repeat > 1 else {}
    summary = summarise(suite.name, records)
    evaluation_finish(evaluation=evaluation, summary=summary, nondeterministic=flagged)
    return SuiteResult(suite, evaluation, records, summary, flagged)


@contextmanager
def inline_tasks() -> Iterator[None]:
    """Run Celery tasks enqueued meanwhile (a run's slices, ingestion) in this process.

    The evaluation drives every run itself; without this, each run would also leave a
    message for a worker that may not exist (it would find the run finished and do nothing).
    """
    from config.celery import app

    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before
