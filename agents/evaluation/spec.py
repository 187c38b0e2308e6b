"""Task suites as data: a folder of YAML or JSON files, each a list of tasks with their checks.

    # studio/evaluation/suite/single.yaml
    defaults: {options: {rounds: 2}}
    tasks:
      - id: ball-on-table
        prompt: a red ball on a wooden table
        quick: true                     # part of the CI subset
        verify:
          - {check: object_count, name: ball, count: 1}
      - id: taller-table
        known_failure: follow-ups rebuild the scene   # fails today; reported, not hidden
        turns:
          - prompt: a table
          - prompt: make it 1 m tall
            verify: [{check: size, name: table, axis: height, value: 1.0, tolerance: 0.02}]

A task is one prompt or a list of turns (a conversation in one workspace); each turn's checks
run when its run has finished. `inputs` are laid into the task's fresh workspace by the kind.
The folder's `floors.json` holds the pass rates CI must not fall below: {"quick": .., "full": ..}.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

SUITE_FILE_SUFFIXES = (".yaml", ".yml", ".json")
NOT_TASK_FILES = ("floors.json", "known_failures.json", "statement_carries.json")
"""Files of a suite folder that are not task files: the floors, and hand-kept marks that a
generated suite's build script merges into its tasks."""
FINAL_STATUSES = ("succeeded", "failed", "cancelled", "stuck")


class SuiteError(ValueError):
    """A suite file that cannot be read; the message names the file and the task."""


@dataclass(frozen=True)
class Check:
    """One verifier call: the verifier's name, its parameters and its weight in the reward."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    weight: float = 1.0

    def describe(self) -> str:
        shown = ", ".join(f"{key}={value}" for key, value in self.params.items())
        return f"{self.name}({shown})"

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.name, **self.params, "weight": self.weight}


@dataclass(frozen=True)
class Turn:
    prompt: str
    checks: tuple[Check, ...] = ()
    expect_status: str = "succeeded"


@dataclass(frozen=True)
class Task:
    id: str
    suite: str
    kind: str
    turns: tuple[Turn, ...]
    inputs: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    known_failure: str = ""
    quick: bool = False
    tags: tuple[str, ...] = ()
    source: str = ""
    gold: dict[str, Any] = field(default_factory=dict)
    """What a perfect agent submits, for the quality control (`agents.evaluation.qc`): each
    kind says what it holds (a finance answer with its inputs and pages)."""

    @property
    def checks(self) -> list[Check]:
        return [check for turn in self.turns for check in turn.checks]

    def matches(self, pattern: str) -> bool:
        """Glob on the id (`ball-*`), or a tag (`tag:conversation`), or a substring."""
        if pattern.startswith("tag:"):
            return pattern[4:] in self.tags
        return fnmatch.fnmatch(self.id, pattern) or pattern in self.id


@dataclass(frozen=True)
class Suite:
    name: str
    kind: str
    tasks: tuple[Task, ...]
    floors: dict[str, float] = field(default_factory=dict)
    path: Path | None = None

    def select(self, pattern: str = "", *, quick: bool = False) -> list[Task]:
        chosen = [task for task in self.tasks if not quick or task.quick]
        if pattern:
            patterns = [part.strip() for part in pattern.split(",") if part.strip()]
            chosen = [task for task in chosen if any(task.matches(p) for p in patterns)]
        return chosen


def load_suite(name: str, kind: str, path: Path) -> Suite:
    """Read every task file of a suite folder (or one file), checking ids are unique."""
    files = (
        sorted(p for p in path.iterdir() if p.suffix in SUITE_FILE_SUFFIXES)
        if path.is_dir()
        else [path]
    )
    files = [p for p in files if p.name not in NOT_TASK_FILES]
    tasks: list[Task] = []
    for file in files:
        document = _read(file)
        defaults = document.get("defaults") or {}
        if not isinstance(defaults, dict):
            raise SuiteError(f"{file.name}: 'defaults' must be a mapping")
        raw_tasks = document.get("tasks")
        if not isinstance(raw_tasks, list):
            raise SuiteError(f"{file.name}: expected a 'tasks' list")
        for index, raw in enumerate(raw_tasks):
            tasks.append(_task(raw, defaults, suite=name, kind=kind, where=f"{file.name}#{index}"))
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise SuiteError(f"suite {name}: task id {task.id!r} appears twice")
        seen.add(task.id)
    floors_file = (path if path.is_dir() else path.parent) / "floors.json"
    floors = json.loads(floors_file.read_text()) if floors_file.exists() else {}
    return Suite(name=name, kind=kind, tasks=tuple(tasks), floors=floors, path=path)


def _read(file: Path) -> dict[str, Any]:
    try:
        text = file.read_text(encoding="utf-8")
        document = json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
    except (OSError, ValueError, yaml.YAMLError) as error:
        raise SuiteError(f"{file.name}: {error}") from error
    if not isinstance(document, dict):
        raise SuiteError(f"{file.name}: expected a mapping at the top")
    return document


def _task(raw: Any, defaults: dict[str, Any], *, suite: str, kind: str, where: str) -> Task:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"]:
        raise SuiteError(f"{where}: every task needs an 'id'")
    where = f"{where} ({raw['id']})"
    merged = {**defaults, **raw}
    if "turns" in raw and "prompt" in raw:
        raise SuiteError(f"{where}: give either 'prompt' (and 'verify') or 'turns', not both")
    if "turns" in raw:
        raw_turns = raw["turns"]
        if not isinstance(raw_turns, list) or not raw_turns:
            raise SuiteError(f"{where}: 'turns' must be a non-empty list")
    elif isinstance(raw.get("prompt"), str):
        raw_turns = [{key: raw[key] for key in ("prompt", "verify", "expect_status") if key in raw}]
    else:
        raise SuiteError(f"{where}: a task needs a 'prompt' or 'turns'")
    turns = tuple(_turn(turn, where=f"{where} turn {n}") for n, turn in enumerate(raw_turns, 1))
    return Task(
        id=raw["id"],
        suite=suite,
        kind=kind,
        turns=turns,
        inputs=dict(merged.get("inputs") or {}),
        options={**(defaults.get("options") or {}), **(raw.get("options") or {})},
        known_failure=str(raw.get("known_failure") or ""),
        quick=bool(raw.get("quick", False)),
        tags=tuple(str(tag) for tag in merged.get("tags") or ()),
        source=where,
        gold=dict(raw.get("gold") or {}),
    )


def _turn(raw: Any, *, where: str) -> Turn:
    if not isinstance(raw, dict) or not isinstance(raw.get("prompt"), str) or not raw["prompt"]:
        raise SuiteError(f"{where}: a turn needs a 'prompt'")
    status = str(raw.get("expect_status", "succeeded"))
    if status not in FINAL_STATUSES:
        raise SuiteError(f"{where}: expect_status must be one of {', '.join(FINAL_STATUSES)}")
    raw_checks = raw.get("verify") or []
    if not isinstance(raw_checks, list):
        raise SuiteError(f"{where}: 'verify' must be a list of checks")
    return Turn(
        prompt=raw["prompt"],
        checks=tuple(_check(c, where) for c in raw_checks),
        expect_status=status,
    )


def _check(raw: Any, where: str) -> Check:
    if not isinstance(raw, dict) or not isinstance(raw.get("check"), str):
        raise SuiteError(f"{where}: each check is a mapping with a 'check' name")
    params = {key: value for key, value in raw.items() if key not in ("check", "weight")}
    try:
        weight = float(raw.get("weight", 1.0))
    except (TypeError, ValueError):
        raise SuiteError(
            f"{where}: check {raw['check']!r} has a weight that is not a number"
        ) from None
    if weight <= 0:
        raise SuiteError(f"{where}: check {raw['check']!r} needs a positive weight")
    return Check(name=raw["check"], params=params, weight=weight)
