"""The evaluation as text: a progress line per task, a table, a summary per suite."""

from __future__ import annotations

from collections.abc import Sequence

from agents.evaluation.intervals import shown
from agents.evaluation.runner import TaskRecord
from agents.evaluation.session import SuiteResult

MARKS = {"passed": "PASS", "failed": "FAIL", "skipped": "SKIP", "error": "ERR "}


def progress_line(done: int, total: int, record: TaskRecord, width: int = 24) -> str:
    filled = int(width * done / total) if total else width
    bar = "#" * filled + "." * (width - filled)
    return f"[{bar}] {done}/{total} {MARKS[record.status]} {record.task.id}"


def task_table(records: Sequence[TaskRecord]) -> list[str]:
    columns = ("reward", "steps", "tools", "tokens", "wall s")
    header = f"{'task':<44} {'result':<6} " + " ".join(f"{name:>7}" for name in columns)
    lines = [header, "-" * len(header)]
    for record in records:
        metrics = record.metrics
        tools = f"{metrics.get('tool_calls', 0)}/{metrics.get('tool_failures', 0)}"
        label = MARKS[record.status] + ("*" if record.task.known_failure else " ")
        name = record.task.id + (f" #{record.repeat_index + 1}" if record.repeat_index else "")
        lines.append(
            f"{name[:44]:<44} {label:<6} {record.reward:>7.2f} {metrics.get('steps', 0):>7} "
            f"{tools:>7} {metrics.get('tokens', 0):>7} {metrics.get('task_wall_s', 0):>7.1f}"
        )
        if not record.passed and record.reason:
            lines.append(f"    {record.reason[:300]}")
    lines.append("(* known failure; tools = calls/failed)")
    return lines


def suite_summary(result: SuiteResult, *, floor: float | None) -> list[str]:
    summary = result.summary
    rate = shown(summary.passed, summary.judged)
    reward = "n/a" if summary.mean_reward is None else f"{summary.mean_reward:.3f}"
    lines = [
        f"suite {summary.suite}: pass rate {rate} ({summary.passed}/{summary.judged}), "
        f"mean reward {reward}, skipped {summary.skipped}, errors {summary.errors}"
        + ("" if floor is None else f", floor {floor:.0%}")
        + f"  [evaluation {result.evaluation.pk}]"
    ]
    for name, (passed, judged) in summary.by_set.items():
        lines.append(f"  {name}: {shown(passed, judged)} ({passed}/{judged})")
    if summary.regressions:
        lines.append("  failing, not marked as known failures: " + ", ".join(summary.regressions))
    if summary.now_passing:
        lines.append(
            "  known failures that pass now (remove the mark): " + ", ".join(summary.now_passing)
        )
    if summary.known_failing:
        lines.append(f"  known failures still failing: {len(summary.known_failing)}")
    for task, why in sorted(result.nondeterministic.items()):
        lines.append(f"  NONDETERMINISTIC {task}: {why}")
    return lines
