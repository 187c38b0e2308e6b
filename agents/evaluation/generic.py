"""Checks every workspace kind gets: how each turn's run ended."""

from __future__ import annotations

from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext


def run_status(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The turn's run ended with the expected status (`succeeded` unless the task says so)."""
    expected = str(params.get("status", "succeeded"))
    run = context.run
    if run.status == expected:
        return Verdict.ok(status=run.status)
    why = f": {run.message[:200]}" if run.message else ""
    return Verdict.fail(f"the run ended {run.status}, expected {expected}{why}", status=run.status)


GENERIC_VERIFIERS = {"run_status": run_status}
