"""The offline planner's edit path: what the run started with, one call per change, the rounds,
and an answer that says what changed.

A new run in a workspace with a scene starts with context messages (see studio.tools.conversation):
earlier turns named "context-turn" and the scene summary named `STATE_LABEL`. The request is
the first user message that is not context.
"""

from __future__ import annotations

import json
from typing import Any

from agents.registry import CONTEXT_NAME, CONTEXT_TURN
from agents.runtime import Decision, PolicyInput, answer_decision, call_decision, result_object
from studio.planner.catalogue import _plurals
from studio.planner.edit_plan import STATE_LABEL, UPLOADS_LABEL, EditPlan


def request_text(context: PolicyInput) -> str:
    """The run's request: the first user message that is not workspace context."""
    for message in context.messages:
        if message.get("role") == "user" and not _is_context(message):
            return str(message.get("content") or "")
    return ""


def earlier_requests(context: PolicyInput) -> list[str]:
    """The workspace's earlier requests, oldest first."""
    return [
        str(message.get("content") or "")
        for message in context.messages
        if message.get("role") == "user" and message.get("name") == CONTEXT_TURN
    ]


def scene_state(context: PolicyInput) -> dict[str, Any] | None:
    """The scene summary the run started with, or None in a workspace with no scene."""
    for message in context.messages:
        if message.get("name") == STATE_LABEL:
            content = str(message.get("content") or "")
            return result_object(content[content.find("{") :]) if "{" in content else None
    return None


def upload_words(context: PolicyInput) -> dict[str, str]:
    """Word forms of the workspace's uploaded meshes ("duck", "ducks") -> noun, from the uploads
    message the run started with (empty where there is none)."""
    for message in context.messages:
        if message.get("name") == UPLOADS_LABEL:
            content = str(message.get("content") or "")
            try:
                listed = json.loads(content[content.find("[") :]) if "[" in content else []
            except ValueError:
                return {}
            words: dict[str, str] = {}
            for item in listed if isinstance(listed, list) else []:
                noun = str(item.get("noun") or "") if isinstance(item, dict) else ""
                for form in (noun, *_plurals(noun)) if noun else ():
                    words.setdefault(form, noun)
            return words
    return {}


def _is_context(message: dict[str, Any]) -> bool:
    return str(message.get("name") or "").startswith(CONTEXT_NAME)


def edit_decision(context: PolicyInput, plan: EditPlan, results: dict[str, str]) -> Decision:
    """The next step of an edit run: the next change, the next round, or the answer."""
    if not plan.calls:
        if plan.answer:
            return answer_decision(context, plan.answer)
        notes = "".join(f" {note}." for note in plan.notes)
        text = "I could not find a change to make in that request; the scene is unchanged." + notes
        return _final(context, text, "nothing_changed")
    for number, call in enumerate(plan.calls, start=1):
        call_id = f"edit-{number:02d}"
        if call_id not in results:
            return call_decision(context, call_id, call.tool, call.arguments, call.says + ".")
    rounds = [results[key] for key in sorted(results) if key.startswith("round-")]
    last = result_object(rounds[-1]) if rounds else None
    round_failed = bool(rounds) and rounds[-1].startswith("error:")
    if not round_failed and (
        last is None or (not last.get("passed") and last.get("rounds_left", 0) > 0)
    ):
        number = len(rounds) + 1
        return call_decision(
            context,
            f"round-{number:02d}",
            "refine_round",
            {},
            f"Round {number}: rendering and checking the edited scene.",
        )
    return _report(context, plan, results, rounds)


def _report(
    context: PolicyInput, plan: EditPlan, results: dict[str, str], rounds: list[str]
) -> Decision:
    done, failed = [], []
    for number, call in enumerate(plan.calls, start=1):
        outcome = results.get(f"edit-{number:02d}", "")
        if outcome.startswith("error:"):
            failed.append(f"{call.says}: {outcome[len('error:') :].strip()}")
        else:
            done.append(call.says)
    parts = []
    if done:
        parts.append("Changed: " + "; ".join(done) + ".")
    if failed:
        parts.append("Not done: " + "; ".join(failed) + ".")
    parts.append("Everything else is as it was.")
    parts += [note + "." for note in plan.notes]
    reason = "edit_failed" if failed else ""
    if rounds and rounds[-1].startswith("error:"):
        parts.append(f"A refinement round failed: {rounds[-1][len('error:') :].strip()}.")
        reason = reason or "round_failed"
    elif rounds:
        checks = (result_object(rounds[-1]) or {}).get("checks", {})
        failing = [name for name, check in checks.items() if not check.get("passed")]
        if failing:
            reasons = [r for n in failing for r in checks[n].get("reasons", [])[:2]]
            parts.append(
                f"Not done: after {len(rounds)} round(s) these checks still fail: "
                + ", ".join(failing)
                + (f" ({'; '.join(reasons)})" if reasons else "")
                + "."
            )
            reason = reason or "checks_failed"
        else:
            parts.append(f"All checks pass after {len(rounds)} round(s).")
        changes = [c for r in rounds for c in (result_object(r) or {}).get("changes", [])]
        if changes:
            parts.append("Physics fixes: " + "; ".join(dict.fromkeys(changes)) + ".")
        warnings = [w for check in checks.values() for w in check.get("warnings", [])]
        if warnings:
            parts.append("Kept as you asked: " + "; ".join(dict.fromkeys(warnings)) + ".")
    text = " ".join(parts)
    return _final(context, text, reason) if reason else answer_decision(context, text)


def _final(context: PolicyInput, text: str, reason: str) -> Decision:
    """An answer that says the work is not (all) done: the run ends `failed` with `reason`."""
    decision = answer_decision(context, text)
    return Decision(decision.message, (), decision.usage, status="failed", reason=reason)
