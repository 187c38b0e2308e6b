"""Quality control of the verifiers: a gold, a null and plausible wrong solvers for every task.

Each solver answers through the model path (the scripted OpenAI-compatible server, so the same
code a GPU model takes): the gold makes the tool calls a perfect agent would make and must pass
every check of its task; the null solver does nothing and says "Done."; each wrong solver is
right in form and wrong in substance (a sign flipped, a neighbouring figure with a true
citation, an object dropped...) and must fail. A task whose checks pass the null or a wrong
solver has a defective verifier; a task with no gold says why (the tool or the data missing).

A workspace kind plugs in `qc`: given a task and its prepared inputs, the solvers to try (or
None when the kind's QC does not cover the task yet, with the reason in `QcPlan.uncovered`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from agents.evaluation.kinds import InputUnavailable, get_evaluation_kind
from agents.evaluation.runner import TaskRecord, fresh_workspace, play_turns
from agents.evaluation.scoring import failed_reasons, passed
from agents.evaluation.scripted_server import FakeOpenAI, Reply, Request
from agents.evaluation.spec import Task

logger = logging.getLogger(__name__)
MODEL_POLICY = "model"
ROLES = ("gold", "null", "wrong")


@dataclass(frozen=True)
class Solver:
    """One way of answering a task: its name ("wrong:sign"), its role, and its replies (a
    function of each request the run makes to the model server)."""

    name: str
    role: str
    replies: Callable[[Request], Reply]
    setup: Callable[[Any, dict[str, Any]], None] | None = None
    """What the solver changes in the prepared workspace before its run (the statements a
    document's reading left, for a task that judges them): given the workspace and inputs."""


@dataclass(frozen=True)
class QcPlan:
    solvers: tuple[Solver, ...] = ()
    no_gold: str = ""
    """Why the task has no gold solver (a missing tool or missing reference data)."""
    uncovered: str = ""
    """Why the kind's QC does not cover this task at all."""
    fresh_workspace: bool = True
    """Each solver in a workspace of its own (a studio scene carries over between runs);
    False lets them share the one prepared (a finance filing read once)."""


QcPlanner = Callable[[Task, dict[str, Any]], QcPlan]


@dataclass
class TaskQc:
    """How the solvers of one task fared."""

    task: str
    status: str = "checked"
    """checked; uncovered (the kind's QC has no solvers for it); skipped (inputs absent);
    error (the harness could not run it)"""
    reason: str = ""
    gold: bool | None = None
    """True: the gold passed; False: it failed (a defect); None: no gold (see `reason`)."""
    null_failed: bool | None = None
    wrong: dict[str, bool] = field(default_factory=dict)
    """Each wrong solver's name, and whether it failed (as it must)."""
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def wrong_failed(self) -> bool | None:
        return all(self.wrong.values()) if self.wrong else None

    @property
    def defects(self) -> list[str]:
        found = []
        if self.gold is False:
            found.append(f"gold fails: {self.notes.get('gold', '')}")
        if self.null_failed is False:
            found.append("the null solver passes")
        found += [f"{name} passes" for name, failed in self.wrong.items() if not failed]
        return found

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "status": self.status,
            "reason": self.reason,
            "gold": self.gold,
            "null_failed": self.null_failed,
            "wrong": self.wrong,
            "defects": self.defects,
            "notes": self.notes,
        }


@dataclass
class SuiteQc:
    suite: str
    tasks: list[TaskQc]

    def counts(self) -> dict[str, int]:
        checked = [t for t in self.tasks if t.status == "checked"]
        return {
            "tasks": len(self.tasks),
            "checked": len(checked),
            "uncovered": sum(t.status == "uncovered" for t in self.tasks),
            "gold_passed": sum(t.gold is True for t in checked),
            "no_gold": sum(t.gold is None for t in checked),
            "null_failed": sum(t.null_failed is True for t in checked),
            "wrong_failed": sum(t.wrong_failed is True for t in checked),
            "no_wrong": sum(t.wrong_failed is None for t in checked),
            "defects": sum(bool(t.defects) for t in checked),
        }

    def to_dict(self) -> dict[str, Any]:
        return {**self.counts(), "per_task": [task.to_dict() for task in self.tasks]}


def qc_suite(
    tasks: Sequence[Task], *, on_task: Callable[[TaskQc], None] | None = None
) -> list[TaskQc]:
    """Run every task's solvers through one scripted model server."""
    results = []
    with FakeOpenAI() as server:
        for task in tasks:
            result = qc_task(task, server)
            results.append(result)
            if on_task is not None:
                on_task(result)
    return results


def qc_task(task: Task, server: FakeOpenAI) -> TaskQc:
    result = TaskQc(task=task.id)
    kind = get_evaluation_kind(task.kind)
    if kind.qc is None:
        result.status, result.reason = "uncovered", f"the {task.kind} kind has no QC solvers"
        return result
    try:
        workspace, inputs = _prepared(task, server)
        plan = kind.qc(task, inputs)
        if plan.uncovered:
            result.status, result.reason = "uncovered", plan.uncovered
            return result
        result.reason = plan.no_gold
        for number, solver in enumerate(plan.solvers):
            if plan.fresh_workspace and number:
                workspace, inputs = _prepared(task, server)
            ok, why = _solve(task, solver, workspace, inputs, server)
            result.notes[solver.name] = why or "passed"
            if solver.role == "gold":
                result.gold = ok
            elif solver.role == "null":
                result.null_failed = not ok
            else:
                result.wrong[solver.name] = not ok
    except InputUnavailable as error:
        result.status, result.reason = "skipped", str(error)
    except Exception as error:  # one task's harness failure must not stop the others
        logger.exception("QC of task %s could not run", task.id)
        result.status, result.reason = "error", f"{type(error).__name__}: {error}"
    return result


def _prepared(task: Task, server: FakeOpenAI) -> tuple[Any, dict[str, Any]]:
    kind = get_evaluation_kind(task.kind)
    workspace = fresh_workspace(task)
    workspace.model_base_url, workspace.model_name = server.base_url, server.model
    workspace.save(update_fields=["model_base_url", "model_name"])
    inputs = kind.prepare(workspace, dict(task.inputs)) if kind.prepare else {}
    return workspace, inputs


def _solve(
    task: Task, solver: Solver, workspace: Any, inputs: dict[str, Any], server: FakeOpenAI
) -> tuple[bool, str]:
    """Play the task's turns with `solver` answering as the model; whether every check passed,
    and the reasons of those that failed."""
    kind = get_evaluation_kind(task.kind)
    if solver.setup is not None:
        solver.setup(workspace, inputs)
    server.reset()
    server.responder = solver.replies
    record = TaskRecord(task=task)
    play_turns(task, kind, workspace, inputs, MODEL_POLICY, record)
    ok = passed(record.checks)
    return ok, "; ".join(failed_reasons(record.checks))[:500]


def null_solver(setup: Callable[[Any, dict[str, Any]], None] | None = None) -> Solver:
    """Does nothing: no tool call, and says it is done (after `setup`, where the task judges
    state a run does not make)."""
    return Solver("null", "null", lambda request: Reply.say("Done."), setup)


def state_solver(name: str, role: str, setup: Callable[[Any, dict[str, Any]], None]) -> Solver:
    """A solver whose answer is a state (`setup`), its run saying only "Done."."""
    return Solver(name, role, lambda request: Reply.say("Done."), setup)


def scripted(
    name: str, role: str, calls: Sequence[tuple[str, dict[str, Any]]], final: str = "Done."
) -> Solver:
    """Makes `calls` one after another (one per model request), then replies `final`."""

    def replies(request: Request) -> Reply:
        messages = request.messages
        asked = max((n for n, m in enumerate(messages) if m.get("role") == "user"), default=0)
        made = sum(1 for message in messages[asked:] if message.get("role") == "tool")
        if made < len(calls):
            tool, arguments = calls[made]
            return Reply.call(tool, arguments)
        return Reply.say(final)

    return Solver(name, role, replies)
