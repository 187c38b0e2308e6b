"""How the studio's offline planner ends a run: an answer that says what was and was not done.

A run ends `succeeded` only when something was built and its last round passed every check.
Otherwise the final decision carries `status="failed"` and a reason code, and the answer says
what is missing:

* `nothing_built`: the request could not be built, or built no object;
* `round_failed`: a refinement round raised an error;
* `checks_failed`: the last round still fails checks (each listed, with its first reasons);
* `no_rounds`: the scene was built but never measured.

Parts of a request that were not understood, and sizes the person stated that look unusual
(kept as asked), are said in the answer of any run, successful or not. The structured result
(`built`, `not_understood`, `failing_checks`, `warnings`) lets a program read the same facts.
"""

from __future__ import annotations

from typing import Any

from agents.runtime import Decision, PolicyInput, answer_decision, result_object

MAX_REASONS = 2
MAX_CHANGES = 8


def final_decision(context: PolicyInput, build: str, rounds: list[str]) -> Decision:
    """The final answer for a run whose build result is `build` and round results `rounds`."""
    if build.startswith("error:"):
        text = f"I could not build a scene: {build[len('error:') :].strip()}. Nothing was built."
        return _final(context, text, "nothing_built", {"built": [], "error": build[7:]})
    built = result_object(build) or {}
    objects = built.get("objects", [])
    result: dict[str, Any] = {
        "built": [o.get("name") for o in objects],
        "not_understood": list(built.get("unparsed", [])),
        "failing_checks": {},
        "warnings": [],
    }
    if not objects:
        notes = " ".join(note + "." for note in built.get("notes", []))
        text = "Nothing was built: no object in the request is one I know." + (
            f" {notes}" if notes else ""
        )
        return _final(context, text, "nothing_built", result)
    parts = [_built_sentence(objects)]
    status, reason = "succeeded", ""
    if rounds and rounds[-1].startswith("error:"):
        status, reason = "failed", "round_failed"
        parts.append(f"A refinement round failed: {rounds[-1][len('error:') :].strip()}.")
        measured = rounds[:-1]
    else:
        measured = rounds
    last = (result_object(measured[-1]) or {}) if measured else None
    if last is None:
        if not reason:
            status, reason = "failed", "no_rounds"
            parts.append("No refinement round could run, so no check was made.")
    else:
        checks = last.get("checks", {})
        failing = {
            name: list(check.get("reasons", []))
            for name, check in checks.items()
            if not check.get("passed")
        }
        result["failing_checks"] = failing
        result["warnings"] = [w for check in checks.values() for w in check.get("warnings", [])]
        if failing:
            status, reason = "failed", reason or "checks_failed"
            shown = [r for reasons in failing.values() for r in reasons[:MAX_REASONS]]
            parts.append(
                f"Not done: after {len(measured)} round(s) these checks still fail: "
                + ", ".join(failing)
                + (f" ({'; '.join(shown)})" if shown else "")
                + "."
            )
        else:
            parts.append(f"All checks pass after {len(measured)} round(s): {', '.join(checks)}.")
        changes = list(
            dict.fromkeys(c for r in measured for c in (result_object(r) or {}).get("changes", []))
        )
        if changes:
            parts.append("Adjusted: " + "; ".join(changes[:MAX_CHANGES]) + ".")
        if result["warnings"]:
            parts.append("Kept as you asked: " + "; ".join(result["warnings"]) + ".")
    parts.extend(note + "." for note in built.get("notes", []))
    return _final(context, " ".join(parts), reason, result, status=status)


def _final(
    context: PolicyInput,
    text: str,
    reason: str,
    result: dict[str, Any],
    *,
    status: str = "failed",
) -> Decision:
    decision = answer_decision(context, text)
    if status == "succeeded":
        return Decision(decision.message, (), decision.usage, result=result)
    return Decision(
        decision.message, (), decision.usage, result=result, status="failed", reason=reason
    )


def _built_sentence(objects: list[dict[str, Any]]) -> str:
    return (
        "Built "
        + ", ".join(
            f"{o['name']} ({' x '.join(f'{v:g}' for v in o['size_m'])} m, {o['material']})"
            for o in objects
        )
        + "."
    )
