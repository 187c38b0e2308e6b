"""Checks every workspace kind gets: how each turn's run ended and what its answer says."""

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


def answer_mentions(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The turn's answer (or, for a run that failed, the reason it gives) says each of
    `phrases`, case and spacing aside: a refusal names what it refused and why."""
    phrases = params.get("phrases")
    if not isinstance(phrases, list) or not phrases or not all(isinstance(p, str) for p in phrases):
        return Verdict.fail("answer_mentions needs phrases: a list of strings")
    said = " ".join(context.run.message.lower().split())
    missing = [phrase for phrase in phrases if " ".join(phrase.lower().split()) not in said]
    if missing:
        quoted = ", ".join(repr(phrase) for phrase in missing)
        return Verdict.fail(f"the answer does not say {quoted}: {context.run.message[:200]!r}")
    return Verdict.ok(phrases=phrases)


GENERIC_VERIFIERS = {"run_status": run_status, "answer_mentions": answer_mentions}
