"""The finance kind's part of the evaluation harness: verifiers, inputs, the `finance` suite.

Registered from `FinanceConfig.ready`; the verifiers and their Django-heavy modules load only
when an evaluation asks for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.evaluation.kinds import EvaluationKind, register_evaluation_kind
from agents.evaluation.verdicts import Verifier, VerifierContext

if TYPE_CHECKING:
    from agents.models import Workspace

SUITE = Path(__file__).resolve().parent / "suite"


def verifiers() -> Mapping[str, Verifier]:
    from finance.evaluation.answer_checks import cited_page_prints_value, numeric_answer
    from finance.evaluation.retrieval_checks import evidence_retrieved
    from finance.evaluation.statement_checks import (
        accounting_identities,
        core_lines,
        statements_years,
    )

    return {
        "numeric_answer": numeric_answer,
        "cited_page_prints_value": cited_page_prints_value,
        "statements_years": statements_years,
        "accounting_identities": accounting_identities,
        "core_lines": core_lines,
        "evidence_retrieved": evidence_retrieved,
    }


def prepare(workspace: Workspace, inputs: dict[str, Any]) -> dict[str, Any]:
    from finance.evaluation.prepare import prepare as lay_in

    return lay_in(workspace, inputs)


def leftovers(workspace: Workspace) -> list[str]:
    from finance.evaluation.summary import leftovers as found

    return found(workspace)


def key_outputs(context: VerifierContext) -> dict[str, Any]:
    from finance.evaluation.summary import key_outputs as summarise

    return summarise(context)


def environment() -> dict[str, Any]:
    from finance.evaluation.summary import environment as probe

    return probe()


def register() -> None:
    """Register the finance evaluation kind (called from `FinanceConfig.ready`)."""
    register_evaluation_kind(
        EvaluationKind(
            key="finance",
            suites={"finance": SUITE},
            verifiers=verifiers,
            prepare=prepare,
            leftovers=leftovers,
            key_outputs=key_outputs,
            environment=environment,
        )
    )
