"""Moves and turns in a follow-up request: placing an object by a relation, nudging it by a
distance or a direction, bringing it closer to (or further from) another, and rotating it."""

from __future__ import annotations

import re
from typing import Any

from studio.planner.edit_mentions import Mention, related_pairs
from studio.planner.edit_plan import Call, EditPlan
from studio.planner.edit_tables import DEFAULT_STEP, DIRECTION_VECTORS, UNIT_PATTERN, UNITS_M
from studio.planner.edit_verbs import FACE
from studio.planner.references import Scope

NUDGE = re.compile(
    r"\b(?:(?:a\s+)?(?:bit|little|touch|tad)|slightly|further|farther|more)\s+"
    r"(?:more\s+)?(?:to\s+(?:the|its)\s+|towards?\s+the\s+)?(?:left|right|forwards?|backwards?|back)\b"
    r"|^\W*(?:now\s+|and\s+|then\s+)*(?:to\s+the\s+)(?:left|right)\b"
)
"""A move said by its direction alone: 'a bit to the left', 'further right', 'now to the left'."""
HEDGED = re.compile(r"\b(?:bit|little|touch|tad|slightly)\b")
SMALL_STEP = 0.2
"""Metres 'a bit' / 'slightly' moves a thing when no distance is given."""


def rotate(
    text: str,
    words: list[str],
    mentions: list[Mention],
    targets: list[str],
    scope: Scope,
    plan: EditPlan,
) -> None:
    if not re.search(r"\b(?:turn|rotate|spin|face|facing)\b", text):
        return
    if re.search(r"\bturn\b.*\b(?:into|to be|red|blue|green)\b", text) and not FACE.search(text):
        return
    subjects = [n for n in targets if n in scope.names()]
    if FACE.search(text):
        face = [m for m in mentions if m.names and not set(m.names) & set(subjects[:1])]
        goal = face[-1].names[0] if face else ""
        subjects = [n for n in subjects if n != goal]
        for name in subjects:
            plan.calls.append(
                Call("turn_object", {"name": name, "face": goal}, f"turned {name} to face {goal}")
            )
        return
    degrees = re.search(r"(-?\d+(?:\.\d+)?)\s*(?:degrees|deg|°)", text)
    angle = float(degrees.group(1)) if degrees else (180.0 if "around" in words else 90.0)
    for name in subjects:
        plan.calls.append(
            Call("turn_object", {"name": name, "degrees": angle}, f"turned {name} by {angle:g}°")
        )


def move(
    text: str,
    words: list[str],
    mentions: list[Mention],
    targets: list[str],
    scope: Scope,
    plan: EditPlan,
) -> None:
    placed = False
    for subject, relation, target in related_pairs(words, mentions):
        if subject.new or subject.restated or FACE.search(text):
            continue
        for name in subject.names:
            if name in target.names:
                continue
            goal = target.names[0]
            arguments = {"name": name, "relation": relation, "target": goal}
            says = f"moved {name} {relation.replace('_', ' ')} {goal}"
            plan.calls.append(Call("place_object", arguments, says))
            placed = True
    if placed or not (
        re.search(
            r"\b(?:move|shift|push|slide|nudge|put|bring|closer|further|farther|apart)\b", text
        )
        or NUDGE.search(text)
    ):
        return
    distance = _length(text) or (SMALL_STEP if HEDGED.search(text) else DEFAULT_STEP)
    if not NUDGE.search(text) and (
        re.search(r"\b(?:closer|nearer)\b|\btowards?\b", text)
        or re.search(r"\b(?:further|farther|apart|away)\b", text)
    ):
        _closer(text, mentions, targets, scope, plan)
        return
    if re.search(r"\b(?:to|on(?:to)?)\s+the\s+(?:floor|ground)\b", text):
        for name in targets:
            bottom = float(scope.get(name)["position"][1])
            plan.calls.append(
                Call(
                    "move_object", {"name": name, "by": [0, -bottom, 0]}, f"put {name} on the floor"
                )
            )
        return
    direction = next((DIRECTION_VECTORS[w] for w in words if w in DIRECTION_VECTORS), None)
    if direction is None:
        return
    by = [round(component * distance, 4) for component in direction]
    for name in targets:
        plan.calls.append(Call("move_object", {"name": name, "by": by}, f"moved {name} by {by} m"))


def _closer(
    text: str, mentions: list[Mention], targets: list[str], scope: Scope, plan: EditPlan
) -> None:
    away = bool(re.search(r"\b(?:further|farther|apart|away)\b", text))
    movers = targets[:1]
    if not movers:
        return
    mover = scope.get(movers[0])
    others = [m.names[0] for m in mentions if m.names and m.names[0] != mover["name"]]
    if not others:
        rest = [i for i in scope.objects if i["name"] != mover["name"] and "position" in i]
        if not rest:
            return
        nearest = min(rest, key=lambda i: _distance(i, mover))
        others = [nearest["name"]]
    other = scope.get(others[0])
    dx = other["position"][0] - mover["position"][0]
    dz = other["position"][2] - mover["position"][2]
    gap = _distance(other, mover)
    if gap < 1e-6:
        return
    ux, uz = abs(dx / gap), abs(dz / gap)  # the clear gap along the line between them
    halves = sum(ux * item["size"][0] / 2 + uz * item["size"][2] / 2 for item in (other, mover))
    clear = max(gap - halves, 0.0)
    step = _length(text) or (DEFAULT_STEP if away else clear / 2)
    step *= -1 if away else 1
    by = [round(dx / gap * step, 4), 0.0, round(dz / gap * step, 4)]
    word = "away from" if away else "closer to"
    plan.calls.append(
        Call(
            "move_object",
            {"name": mover["name"], "by": by},
            f"moved {mover['name']} {word} {other['name']}",
        )
    )


def _distance(a: dict[str, Any], b: dict[str, Any]) -> float:
    return float(
        ((a["position"][0] - b["position"][0]) ** 2 + (a["position"][2] - b["position"][2]) ** 2)
        ** 0.5
    )


def _length(text: str) -> float | None:
    """The first length in `text` ("30 cm", "2ft"), in metres."""
    match = re.search(rf"(\d+(?:\.\d+)?)\s*({UNIT_PATTERN})\b", text)
    if not match:
        return None
    return float(match.group(1)) * UNITS_M[match.group(2)]


def swap_places(mentions: list[Mention], scope: Scope, plan: EditPlan) -> bool:
    """'swap the lamp and the plant': two things already there trade places (each moved by the
    step between their footprints); False unless the request names exactly two of them."""
    named = [name for mention in mentions if not mention.new for name in mention.names]
    named = list(dict.fromkeys(named))
    if len(named) != 2 or any(mention.new for mention in mentions):
        return False
    first, second = (scope.get(name) for name in named)
    step = [
        round(float(b) - float(a), 4)
        for a, b in zip(first["position"], second["position"], strict=True)
    ]
    back = [-value for value in step]
    plan.calls.append(
        Call(
            "move_object",
            {"name": named[0], "by": step},
            f"moved {named[0]} to where {named[1]} was",
        )
    )
    plan.calls.append(
        Call(
            "move_object",
            {"name": named[1], "by": back},
            f"moved {named[1]} to where {named[0]} was",
        )
    )
    return True
