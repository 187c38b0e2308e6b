"""The finance kind's part of the evaluation harness: verifiers, inputs, the `finance` suite.

Registered from `FinanceConfig.ready`; the verifiers and their Django-heavy modules load only
when an evaluation asks for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from agents.evaluation.kinds import EvaluationKind, lazy, register_evaluation_kind
from agents.evaluation.verdicts import Verifier

if TYPE_CHECKING:
    pass

SUITE = Path(__file__).resolve().parent / "suite"


def verifiers() -> Mapping[str, Verifier]:
    from finance.evaluation.answer_checks import cited_page_prints_value, declined, numeric_answer
    from finance.evaluation.retrieval_checks import evidence_retrieved
    from finance.evaluation.statement_checks import (
        accounting_identities,
        core_lines,
        statements_years,
    )

    return {
        "numeric_answer": numeric_answer,
        "declined": declined,
        "cited_page_prints_value": cited_page_prints_value,
        "statements_years": statements_years,
        "accounting_identities": accounting_identities,
        "core_lines": core_lines,
        "evidence_retrieved": evidence_retrieved,
    }


def register() -> None:
    """Register the finance evaluation kind (called from `FinanceConfig.ready`)."""
    register_evaluation_kind(
        EvaluationKind(
            key="finance",
            suites={"finance": SUITE},
            verifiers=verifiers,
            prepare=lazy("finance.evaluation.prepare:prepare"),
            leftovers=lazy("finance.evaluation.summary:leftovers"),
            key_outputs=lazy("finance.evaluation.summary:key_outputs"),
            environment=lazy("finance.evaluation.summary:environment"),
            qc=lazy("finance.evaluation.qc:plan"),
        )
    )
