"""Reads for the staff evaluation pages: evaluations, their task results, a task's history."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet

from agents.evaluation.suites import load_suites
from agents.models import EvaluationRun, TaskResult

STATUSES = ("passed", "failed", "skipped", "error")
RECENT = 50
HISTORY = 200


def _evaluations() -> QuerySet[EvaluationRun]:
    """Evaluations with `judged` (tasks that were not skipped), the pass rate's denominator."""
    return EvaluationRun.objects.annotate(judged=F("tasks_total") - F("tasks_skipped"))


def evaluation_list(*, limit: int = RECENT) -> list[EvaluationRun]:
    """The latest evaluations, newest first, finished or not."""
    return list(_evaluations()[:limit])


def finished_by_suite(*, limit: int = 500) -> dict[str, list[EvaluationRun]]:
    """Finished evaluations with a pass rate, oldest first, per suite (suites by name)."""
    rows = _evaluations().filter(finished_at__isnull=False, pass_rate__isnull=False)
    grouped: dict[str, list[EvaluationRun]] = defaultdict(list)
    for evaluation in reversed(rows.order_by("-finished_at", "-pk")[:limit]):
        grouped[evaluation.suite].append(evaluation)
    return dict(sorted(grouped.items()))


def suite_floors(suite: str) -> dict[str, float]:
    """The suite folder's floors ({"quick": .., "full": ..}); none where it cannot be read here."""
    if suite == "all":
        return {}
    try:
        floors = load_suites(suite)[0].floors
        return {str(key): float(value) for key, value in floors.items()}
    except Exception:  # a suite renamed since, or a broken file, must not break the results page
        return {}


def evaluation_get(*, evaluation_id: int) -> EvaluationRun | None:
    return _evaluations().filter(pk=evaluation_id).first()


@dataclass(frozen=True)
class EvaluationOverview:
    """An evaluation's task results with the counts the page summarises them by."""

    results: list[TaskResult]
    status_counts: dict[str, int]
    failing_verifiers: list[tuple[str, int]]
    regressions: list[str]
    """Tasks that failed (or erred) without being marked as known failures."""
    now_passing: list[str]
    """Tasks marked as known failures that pass now."""

    def filtered(self, *, status: str = "", check: str = "") -> list[TaskResult]:
        """The results with that status and failing that check; an unknown status is ignored."""
        chosen = self.results
        if status in STATUSES:
            chosen = [result for result in chosen if result.status == status]
        if check:
            chosen = [result for result in chosen if check in failed_check_names(result)]
        return chosen


def evaluation_overview(*, evaluation: EvaluationRun) -> EvaluationOverview:
    results = list(evaluation.results.prefetch_related("runs"))
    counts = Counter(result.status for result in results)
    failing = [result for result in results if result.status in ("failed", "error")]
    return EvaluationOverview(
        results=results,
        status_counts={status: counts[status] for status in STATUSES},
        failing_verifiers=failing_verifiers(results),
        regressions=sorted({r.task_id for r in failing if not r.known_failure}),
        now_passing=sorted({r.task_id for r in results if r.passed and r.known_failure}),
    )


def failing_verifiers(results: Iterable[TaskResult]) -> list[tuple[str, int]]:
    """How many checks of each verifier failed, most first."""
    counts = Counter(name for result in results for name in failed_check_names(result))
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def failed_check_names(result: TaskResult) -> list[str]:
    return [str(verdict.get("check", "?")) for verdict in failed_verdicts(result.verdicts)]


def failed_verdicts(verdicts: Sequence[Any]) -> list[dict[str, Any]]:
    return [v for v in verdicts if isinstance(v, dict) and not v.get("passed", False)]


def task_history(*, suite: str, task_id: str, limit: int = HISTORY) -> list[TaskResult]:
    """One task's results across the suite's evaluations, newest first."""
    rows = TaskResult.objects.filter(evaluation__suite=suite, task_id=task_id)
    return list(rows.select_related("evaluation").order_by("-created_at", "-pk")[:limit])
