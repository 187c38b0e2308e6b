"""The evaluation harness: task suites run through the normal job path, scored by verifiers.

The harness knows no domain. Workspace kinds register an `EvaluationKind` (their verifiers,
how to lay a task's inputs into a fresh workspace, their suite files) the way they register
tools; `run_suite` runs the tasks and `evaluation_store` keeps the results.
"""

from agents.evaluation.kinds import (
    EvaluationKind,
    evaluation_kinds,
    get_evaluation_kind,
    register_evaluation_kind,
)
from agents.evaluation.spec import Check, Suite, SuiteError, Task, Turn, load_suite
from agents.evaluation.verdicts import Verdict, Verifier, VerifierContext

__all__ = [
    "Check",
    "EvaluationKind",
    "Suite",
    "SuiteError",
    "Task",
    "Turn",
    "Verdict",
    "Verifier",
    "VerifierContext",
    "evaluation_kinds",
    "get_evaluation_kind",
    "load_suite",
    "register_evaluation_kind",
]
