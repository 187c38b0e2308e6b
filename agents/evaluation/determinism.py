"""Comparing the repeats of a task: the same verdicts and the same key outputs, or a flag."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from agents.evaluation.runner import TaskRecord


def nondeterministic(records: Iterable[TaskRecord]) -> dict[str, str]:
    """Task ids whose repeats differ, each with what differed first."""
    by_task: dict[str, list[TaskRecord]] = defaultdict(list)
    for record in records:
        by_task[record.task.id].append(record)
    flagged = {}
    for task_id, repeats in by_task.items():
        difference = _first_difference(repeats)
        if difference:
            flagged[task_id] = difference
    return flagged


def _first_difference(repeats: list[TaskRecord]) -> str:
    if len(repeats) < 2:
        return ""
    first = repeats[0]
    for other in repeats[1:]:
        if other.status != first.status:
            return f"status {first.status} vs {other.status} (repeat {other.repeat_index})"
        mine, theirs = first.verdict_map(), other.verdict_map()
        changed = sorted(
            key for key in mine.keys() | theirs.keys() if mine.get(key) != theirs.get(key)
        )
        if changed:
            return f"check outcome differs: {', '.join(changed[:3])}"
        key = _first_changed_key(first.key_outputs, other.key_outputs)
        if key:
            return f"key output differs: {key}"
    return ""


def _first_changed_key(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys(), key=str):
            found = _first_changed_key(
                a.get(key), b.get(key), f"{path}.{key}" if path else str(key)
            )
            if found:
                return found
        return ""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            found = _first_changed_key(x, y, f"{path}[{index}]")
            if found:
                return found
        return ""
    same = json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)
    return "" if same else (path or "(value)")
