"""Where a copy goes: 'two more like that' of cakes on a counter are more cakes on the counter
(a free spot on its top), not a row running off its edge; things on the floor, or on a shelf's
inner level, get their copy beside the last one."""

from __future__ import annotations

from typing import Any

from studio.planner.references import SceneObjectView, Scope

TOUCH = 0.01
"""Metres between a thing's bottom and a top it rests on."""


def copy_place(item: SceneObjectView, scope: Scope) -> dict[str, Any]:
    """The relation a copy of `item` is placed with: on the top `item` rests on, else right of
    `item`."""
    host = resting_on(item, scope)
    if host is not None:
        return {"relation": "on", "target": host}
    return {"relation": "right_of", "target": item["name"]}


def resting_on(item: SceneObjectView, scope: Scope) -> str | None:
    """The object whose top `item` stands on (its footprint under the item's centre), if any."""
    box = _box(item)
    if box is None or box[0][1] < TOUCH:
        return None
    (x, bottom, z), _ = box
    for other in scope.objects:
        found = _box(other)
        if other["name"] == item["name"] or found is None:
            continue
        (ox, oy, oz), (width, height, depth) = found
        inside = abs(x - ox) <= width / 2 and abs(z - oz) <= depth / 2
        if inside and abs(oy + height - bottom) <= TOUCH:
            return str(other["name"])
    return None


def _box(item: SceneObjectView) -> tuple[tuple[float, float, float], tuple[float, ...]] | None:
    """An object's (centre x, bottom y, centre z) and size, when the state says."""
    at, size = item.get("position"), item.get("size")
    if not isinstance(at, list | tuple) or not isinstance(size, list | tuple):
        return None
    if len(at) != 3 or len(size) != 3:
        return None
    return (float(at[0]), float(at[1]), float(at[2])), tuple(float(v) for v in size)
