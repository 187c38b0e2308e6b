"""What a workspace kind plugs into the harness: verifiers, input preparation, suites."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.evaluation.verdicts import Verifier, VerifierContext

if TYPE_CHECKING:
    from agents.evaluation.qc import QcPlan
    from agents.evaluation.spec import Task
    from agents.models import Workspace

Prepare = Callable[["Workspace", dict[str, Any]], dict[str, Any]]
"""Lay a task's `inputs` (from the suite) into its fresh workspace; return what verifiers need.

Raise `InputUnavailable` when an input file is absent on this machine: the task is skipped
with that reason instead of failing."""


class InputUnavailable(Exception):
    """A task's input (a shared data file) is not on this machine; the task is skipped."""


@dataclass(frozen=True)
class EvaluationKind:
    """A workspace kind's part of the harness, registered in its `AppConfig.ready`.

    `verifiers` may be a function returning them, so heavy domain modules load only when an
    evaluation runs. `leftovers` lists anything of the kind already in a workspace (documents,
    revisions...): a fresh task's workspace must have none. `key_outputs` summarises the state
    a task left (scene geometry, extracted figures) for the determinism check. `environment`
    names the library versions and backends the results depend on. `check_params` says what is
    wrong with a check's parameters (a missing reference, a word it does not know).
    """

    key: str
    suites: Mapping[str, Path]
    verifiers: Mapping[str, Verifier] | Callable[[], Mapping[str, Verifier]]
    prepare: Prepare | None = None
    leftovers: Callable[[Workspace], list[str]] = field(default=lambda workspace: [])
    key_outputs: Callable[[VerifierContext], dict[str, Any]] = field(default=lambda context: {})
    environment: Callable[[], dict[str, Any]] = field(default=lambda: {})
    check_params: Callable[[str, dict[str, Any]], list[str]] = field(
        default=lambda name, params: []
    )
    """What is wrong with one check's parameters, so a bad suite is refused before any run."""
    qc: Callable[[Task, dict[str, Any]], QcPlan] | None = None
    """The gold, null and wrong solvers of a task, given its prepared inputs
    (`agents.evaluation.qc`); None: the kind has no quality control yet."""

    def verifier_table(self) -> Mapping[str, Verifier]:
        return self.verifiers() if callable(self.verifiers) else self.verifiers


def lazy(target: str) -> Callable[..., Any]:
    """`"package.module:function"` as a function that imports it on first call, so a kind's
    registration (at start-up) loads none of its heavy verifier modules."""
    module_name, _, attribute = target.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        function = getattr(import_module(module_name), attribute)
        return function(*args, **kwargs)

    call.__qualname__ = call.__name__ = attribute
    return call


_kinds: dict[str, EvaluationKind] = {}


def register_evaluation_kind(kind: EvaluationKind) -> None:
    _kinds[kind.key] = kind


def evaluation_kinds() -> dict[str, EvaluationKind]:
    return dict(_kinds)


def get_evaluation_kind(key: str) -> EvaluationKind:
    try:
        return _kinds[key]
    except KeyError:
        raise LookupError(f"no evaluation is registered for workspace kind {key!r}") from None
