"""`manage.py evaluate --qc`: each suite's gold, null and wrong solvers, printed and kept.

Per suite: how many tasks the QC checked, whose gold passed (or has none, and why), whose null
solver and every wrong solver failed; then each defect (a verifier that passed a null or wrong
solver, a gold that failed). With `--json FILE` each suite carries `"qc": {"tasks", "checked",
"gold_passed", "no_gold", "null_failed", "wrong_failed", ...}` and the per-task detail.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from agents.evaluation.qc import SuiteQc, TaskQc, qc_suite
from agents.evaluation.session import inline_tasks
from agents.evaluation.spec import Suite, Task


def run_qc(
    chosen: Sequence[tuple[Suite, Sequence[Task]]], *, say: Callable[[str], None]
) -> list[SuiteQc]:
    results = []
    with inline_tasks():
        for suite, tasks in chosen:
            done = qc_suite(tasks, on_task=lambda result: say(task_line(result)))
            results.append(SuiteQc(suite.name, done))
    for result in results:
        for line in suite_lines(result):
            say(line)
    return results


def task_line(result: TaskQc) -> str:
    if result.status != "checked":
        return f"  {result.status.upper():9} {result.task}: {result.reason}"
    mark = "DEFECT" if result.defects else "ok"
    gold = {True: "gold passes", False: "GOLD FAILS", None: "no gold"}[result.gold]
    wrong = f"{sum(result.wrong.values())}/{len(result.wrong)} wrong fail"
    null = "null fails" if result.null_failed else "NULL PASSES"
    return f"  {mark:9} {result.task}: {gold}, {null}, {wrong}" + (
        f" - {'; '.join(result.defects)}" if result.defects else ""
    )


def suite_lines(result: SuiteQc) -> list[str]:
    c = result.counts()
    lines = [
        f"qc {result.suite}: {c['checked']}/{c['tasks']} tasks checked ({c['uncovered']} not "
        f"covered yet); gold passes {c['gold_passed']}, no gold {c['no_gold']}; null fails "
        f"{c['null_failed']}/{c['checked']}; every wrong solver fails "
        f"{c['wrong_failed']}/{c['checked'] - c['no_wrong']}; defects {c['defects']}"
    ]
    reasons: dict[str, int] = {}
    for task in result.tasks:
        if task.status == "uncovered" or (task.status == "checked" and task.gold is None):
            reasons[task.reason] = reasons.get(task.reason, 0) + 1
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1])[:5]:
        lines.append(f"  {count} x {reason}")
    return lines


def write_qc_json(path: Path, results: Sequence[SuiteQc]) -> None:
    document: dict[str, Any] = {"suites": {r.suite: {"qc": r.to_dict()} for r in results}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, default=str))


def defects(results: Sequence[SuiteQc]) -> list[str]:
    return [
        f"{result.suite}/{task.task}: {'; '.join(task.defects)}"
        for result in results
        for task in result.tasks
        if task.status == "checked" and task.defects
    ]
