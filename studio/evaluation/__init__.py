"""The studio's part of the evaluation harness: verifiers that judge the exported GLB and the
round report, the suite of designer requests (`suite/`), and the workspace hooks.

`register()` runs in `StudioConfig.ready()`; it imports nothing heavy. Geometry, trimesh and the
renderer load only when an evaluation calls a verifier or a hook.
"""

from __future__ import annotations

from pathlib import Path

SUITE = Path(__file__).resolve().parent / "suite"


def register() -> None:
    """Register the studio evaluation kind (suite `studio`) with the harness."""
    from agents.evaluation.kinds import EvaluationKind, lazy, register_evaluation_kind

    hooks = "studio.evaluation.workspace"
    register_evaluation_kind(
        EvaluationKind(
            key="studio",
            suites={"studio": SUITE},
            verifiers=lazy("studio.evaluation.verifiers:verifier_table"),
            prepare=lazy(f"{hooks}:prepare"),
            leftovers=lazy(f"{hooks}:leftovers"),
            key_outputs=lazy(f"{hooks}:key_outputs"),
            environment=lazy(f"{hooks}:environment"),
            check_params=lazy("studio.evaluation.verifiers:parameter_problems"),
            qc=lazy("studio.evaluation.qc:plan"),
        )
    )
