"""Checks on what the last round's report admits: the warnings it gives and the checks it fails.

An honest run says what it doubts and what it could not fix; these judge the round report (the
data behind the answer), never the answer's wording.
"""

from __future__ import annotations

from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from studio.evaluation import params as p
from studio.evaluation.result import turn_scene


def _checks(context: VerifierContext) -> tuple[dict[str, Any] | None, str]:
    result = turn_scene(context)
    if not result.from_run:
        return None, "this turn's run stored no revision, so no round was checked"
    checks = result.report.get("checks")
    if not isinstance(checks, dict) or not checks:
        return None, f"revision {result.revision_number} has no round report"
    return checks, ""


def round_warns(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """The last round's `check` (scale_sanity unless named) passed with a warning about
    `about` (an object's name): a doubt said out loud, not a silent fix."""
    checks, why = _checks(context)
    if checks is None:
        return Verdict.fail(why)
    name = str(params.get("check", "scale_sanity"))
    about = p.names(params, "about")
    check = checks.get(name)
    if not isinstance(check, dict):
        return Verdict.fail(f"the round report has no {name} check")
    warnings = [str(w) for w in check.get("warnings", [])]
    hits = [w for w in warnings if any(word in w.lower() for word in about)]
    outputs: dict[str, Any] = {"warnings": warnings, "passed": bool(check.get("passed"))}
    if not hits:
        return Verdict.fail(
            f"{name} gives no warning about {'/'.join(about)} ({len(warnings)} warnings)", **outputs
        )
    if not check.get("passed"):
        return Verdict.fail(f"{name} warns about {'/'.join(about)} but fails too", **outputs)
    return Verdict.ok(**outputs)


def round_fails(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """Each check in `checks` failed in the last round: the problem is reported, not hidden."""
    checks, why = _checks(context)
    if checks is None:
        return Verdict.fail(why)
    wanted = p.names(params, "checks")
    passing = [name for name in wanted if checks.get(name, {}).get("passed", True)]
    failed = {n: c.get("reasons", [])[:2] for n, c in checks.items() if not c.get("passed")}
    if passing:
        return Verdict.fail(
            f"{', '.join(passing)} passed (or is missing) in the last round", failed=failed
        )
    return Verdict.ok(failed=failed)
