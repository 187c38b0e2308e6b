"""Where a thing added in a follow-up goes when the request gives a place but names no object:
"one more chair on the other side" (opposite the one there, across what it stands by), "a third
box on top" (on the highest of what the conversation is about)."""

from __future__ import annotations

import math
import re
from typing import Any

from studio.planner.references import SceneObjectView, Scope

OTHER_SIDE = re.compile(r"\b(?:on |at )?the (?:other|opposite) side\b")
ON_TOP = re.compile(r"\bon (?:the )?top\s*(?:$|[,.;!]|please|pls|too|as well)")
OPPOSITE = {"left_of": "right_of", "right_of": "left_of", "in_front_of": "behind"}
OPPOSITE["behind"] = "in_front_of"


def implied_place(text: str, like: list[SceneObjectView], scope: Scope) -> dict[str, Any]:
    """The relation and target a place phrase without an object means, or {}."""
    if like and OTHER_SIDE.search(text):
        source = like[-1]
        anchor = _nearest_other(source, scope)
        if anchor is not None:
            return {"relation": OPPOSITE[side_of(source, anchor)], "target": anchor["name"]}
    if ON_TOP.search(text):
        group = [scope.get(n) for n in scope.focus if n in scope.names()] or like
        if group:
            top = max(group, key=lambda item: _top(item))
            return {"relation": "on", "target": top["name"]}
    return {}


def side_of(item: SceneObjectView, anchor: SceneObjectView) -> str:
    """Which side of `anchor` the item stands on: left_of, right_of, in_front_of or behind
    (+X is right, +Z is front)."""
    dx = float(item["position"][0]) - float(anchor["position"][0])
    dz = float(item["position"][2]) - float(anchor["position"][2])
    if abs(dx) >= abs(dz):
        return "right_of" if dx > 0 else "left_of"
    return "in_front_of" if dz > 0 else "behind"


def _nearest_other(source: SceneObjectView, scope: Scope) -> SceneObjectView | None:
    kind = source.get("category")
    others = [
        item
        for item in scope.objects
        if item["name"] != source["name"]
        and (not kind or item.get("category") != kind)
        and "position" in item
    ]
    if not others or "position" not in source:
        return None
    x, _, z = (float(v) for v in source["position"])
    return min(
        others,
        key=lambda item: math.hypot(float(item["position"][0]) - x, float(item["position"][2]) - z),
    )


def _top(item: SceneObjectView) -> float:
    size = item.get("size") or [0.0, 0.0, 0.0]
    return float(item.get("position", [0.0, 0.0, 0.0])[1]) + float(size[1])
