"""The staff pages' figures from stored rows: pass rate per suite, a task's rewards, the failing
verifiers, and an evaluation's environment as rows of text."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from agents.evaluation.charts import Bar, Point, Series, bar_chart, line_chart
from agents.models import EvaluationRun, TaskResult

STATUS_TONES = {"passed": "ok", "failed": "bad", "error": "bad", "skipped": "muted"}


def policy_label(evaluation: EvaluationRun) -> str:
    return f"{evaluation.policy} ({evaluation.model})" if evaluation.model else evaluation.policy


def pass_rate_chart(
    suite: str, evaluations: Sequence[EvaluationRun], *, floor: float | None
) -> SafeString:
    """Each finished evaluation a point; full runs joined per policy, subsets hollow."""
    by_policy: dict[str, list[Point]] = defaultdict(list)
    for evaluation in evaluations:
        if evaluation.finished_at is None or evaluation.pass_rate is None:
            continue
        judged = evaluation.tasks_total - evaluation.tasks_skipped
        label = (
            f"evaluation {evaluation.pk}, {evaluation.finished_at:%Y-%m-%d %H:%M}: "
            f"{evaluation.pass_rate:.0%} ({evaluation.tasks_passed}/{judged})"
            + (f", subset {evaluation.selection}" if evaluation.selection else "")
        )
        by_policy[policy_label(evaluation)].append(
            Point(
                when=evaluation.finished_at,
                value=evaluation.pass_rate,
                label=label,
                href=reverse("evaluation-detail", args=[evaluation.pk]),
                key=str(evaluation.pk),
                hollow=bool(evaluation.selection),
            )
        )
    series = [Series(name, points) for name, points in sorted(by_policy.items())]
    svg = line_chart(
        series,
        title=f"Pass rate of suite {suite} over time",
        y_label="pass rate",
        x_label="finished (UTC)",
        floor=floor,
        empty="No finished evaluations.",
    )
    return mark_safe(svg)  # line_chart escapes every text it places


def reward_chart(task_id: str, results: Sequence[TaskResult]) -> SafeString:
    """A task's reward in each evaluation, a line per policy, the marker coloured by outcome."""
    by_policy: dict[str, list[Point]] = defaultdict(list)
    for result in results:
        by_policy[policy_label(result.evaluation)].append(
            Point(
                when=result.created_at,
                value=result.reward,
                label=(
                    f"evaluation {result.evaluation_id}, {result.created_at:%Y-%m-%d %H:%M}: "
                    f"{result.status}, reward {result.reward:.2f}"
                ),
                href=reverse("evaluation-detail", args=[result.evaluation_id]),
                key=str(result.pk),
                tone=STATUS_TONES.get(result.status, "muted"),
            )
        )
    svg = line_chart(
        [Series(name, points) for name, points in sorted(by_policy.items())],
        title=f"Reward of task {task_id} over time",
        y_label="reward",
        x_label="judged (UTC)",
        percent=False,
    )
    return mark_safe(svg)  # line_chart escapes every text it places


def failing_verifiers_chart(counts: Sequence[tuple[str, int]]) -> SafeString:
    """How many checks of each verifier failed; each bar filters the task table by it."""
    bars = [Bar(name, count, href="?" + urlencode({"check": name})) for name, count in counts]
    svg = bar_chart(
        bars, title="Failed checks per verifier", x_label="failed checks", empty="No failed checks."
    )
    return mark_safe(svg)  # bar_chart escapes every text it places


def environment_rows(environment: dict[str, Any], prefix: str = "") -> list[tuple[str, str]]:
    """Nested facts flattened to (dotted name, text), in the order they were recorded."""
    rows: list[tuple[str, str]] = []
    for key, value in environment.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            rows += environment_rows(value, prefix=f"{name}.")
        elif isinstance(value, list):
            rows.append((name, ", ".join(str(item) for item in value)))
        else:
            rows.append((name, "" if value is None else str(value)))
    return rows
