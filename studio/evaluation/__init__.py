"""The studio's part of the evaluation harness: verifiers that judge the exported GLB and the
round report, the suite of designer requests (`suite/`), and the workspace hooks.

`register()` runs in `StudioConfig.ready()`; it imports nothing heavy. Geometry, trimesh and the
renderer load only when an evaluation calls a verifier or a hook.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.evaluation.verdicts import Verifier, VerifierContext
    from agents.models import Workspace

SUITE = Path(__file__).resolve().parent / "suite"


def register() -> None:
    """Register the studio evaluation kind (suite `studio`) with the harness."""
    from agents.evaluation.kinds import EvaluationKind, register_evaluation_kind

    register_evaluation_kind(
        EvaluationKind(
            key="studio",
            suites={"studio": SUITE},
            verifiers=_verifiers,
            prepare=_prepare,
            leftovers=_leftovers,
            key_outputs=_key_outputs,
            environment=_environment,
            check_params=_check_params,
        )
    )


def _verifiers() -> Mapping[str, Verifier]:
    from studio.evaluation.verifiers import verifier_table

    return verifier_table()


def _prepare(workspace: Workspace, inputs: dict[str, Any]) -> dict[str, Any]:
    from studio.evaluation.workspace import prepare

    return prepare(workspace, inputs)


def _leftovers(workspace: Workspace) -> list[str]:
    from studio.evaluation.workspace import leftovers

    return leftovers(workspace)


def _key_outputs(context: VerifierContext) -> dict[str, Any]:
    from studio.evaluation.workspace import key_outputs

    return key_outputs(context)


def _environment() -> dict[str, Any]:
    from studio.evaluation.workspace import environment

    return environment()


def _check_params(name: str, params: dict[str, Any]) -> list[str]:
    from studio.evaluation.verifiers import parameter_problems

    return parameter_problems(name, params)
