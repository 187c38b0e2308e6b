"""'no, the other one': the last request was meant for the other thing of the same kind. Its
change is undone and made again on the other one."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from studio.planner.edit_plan import Call, EditPlan
from studio.planner.references import Scope

OTHER_ONE = re.compile(
    r"^(?:(?:no|nope|nah|oops|sorry|wrong one|not that one|i meant|i mean|actually)\W+)*"
    r"(?:the\s+)?other\s+(?:one|[a-z]+)(?:\s+(?:please|pls|instead))?\W*$"
)

Planner = Callable[[str, dict[str, Any], list[str]], EditPlan]


def other_one(
    text: str,
    state: dict[str, Any],
    previous_requests: list[str],
    scope: Scope,
    undo: Call | None,
    plan_request: Planner,
) -> EditPlan | None:
    """The plan for 'no, the other one' (None when the request is not that)."""
    if not OTHER_ONE.match(text) or not previous_requests:
        return None
    last = plan_request(previous_requests[-1], state, previous_requests[:-1])
    said = [str(c.arguments.get(key, "")) for c in last.calls for key in ("name", "target")]
    touched = [name for name in dict.fromkeys(said) if name in scope.names()]
    if undo is None or len(touched) != 1:
        return EditPlan(notes=["I could not tell which other one you mean"])
    meant = scope.get(touched[0])
    kind = str(meant.get("category") or meant["name"])
    others = [item["name"] for item in scope.of_kind(kind) if item["name"] != meant["name"]]
    if len(others) != 1:
        return EditPlan(notes=[f"I could not tell which other {kind} you mean"])
    other = others[0]
    calls = [undo]
    for call in last.calls:
        arguments = {k: other if v == meant["name"] else v for k, v in call.arguments.items()}
        calls.append(Call(call.tool, arguments, call.says.replace(meant["name"], other)))
    return EditPlan(calls=calls, notes=last.notes)
