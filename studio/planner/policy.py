"""The studio's offline planner: build the scene from the request, then refine until it passes.

It is deterministic and decides from the conversation alone (so a resumed run carries on):
call `build_scene` with the request; then `refine_round` until a round passes every check or
the round budget is spent; then answer with what was built, what passed and what it could not
understand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from agents.runtime import (
    Decision,
    PolicyInput,
    answer_decision,
    call_decision,
    first_user_text,
    tool_results,
)


@dataclass
class StudioPlanner:
    name: str = "offline"

    def decide(self, context: PolicyInput) -> Decision:
        request = first_user_text(context)
        results = tool_results(context)
        build = results.get("build")
        if build is None:
            return call_decision(
                context,
                "build",
                "build_scene",
                {"request": request},
                "Building the scene from your description.",
            )
        if build.startswith("error:"):
            return answer_decision(context, f"I could not build a scene: {build[7:]}")
        rounds = [results[key] for key in sorted(results) if key.startswith("round-")]
        if rounds and rounds[-1].startswith("error:"):
            report = _report(_json(build) or {}, rounds[:-1])
            return answer_decision(context, f"{report} A refinement round failed: {rounds[-1][7:]}")
        last = _json(rounds[-1]) if rounds else None
        if last is None or (not last.get("passed") and last.get("rounds_left", 0) > 0):
            number = len(rounds) + 1
            return call_decision(
                context,
                f"round-{number:02d}",
                "refine_round",
                {},
                f"Round {number}: rendering and checking the scene.",
            )
        return answer_decision(context, _report(_json(build) or {}, rounds))


def _json(content: str) -> dict[str, Any] | None:
    try:
        value = json.loads(content)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def _report(build: dict[str, Any], rounds: list[str]) -> str:
    objects = build.get("objects", [])
    parts = [
        "Built "
        + ", ".join(
            f"{o['name']} ({' x '.join(f'{v:g}' for v in o['size_m'])} m, {o['material']})"
            for o in objects
        )
        + "."
    ]
    if rounds:
        last = _json(rounds[-1]) or {}
        checks = last.get("checks", {})
        failed = [name for name, check in checks.items() if not check.get("passed")]
        if failed:
            reasons = [r for name in failed for r in checks[name].get("reasons", [])[:2]]
            parts.append(
                f"After {len(rounds)} rounds these checks still fail: {', '.join(failed)}"
                + (f" ({'; '.join(reasons)})" if reasons else "")
                + "."
            )
        else:
            parts.append(f"All checks pass after {len(rounds)} round(s): {', '.join(checks)}.")
        changes = [c for r in rounds for c in (_json(r) or {}).get("changes", [])]
        if changes:
            parts.append("Adjusted: " + "; ".join(changes[:8]) + ".")
    else:
        last_error = "no refinement round could run"
        parts.append(last_error)
    for note in build.get("notes", []):
        parts.append(note + ".")
    return " ".join(parts)
