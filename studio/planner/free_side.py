"""'put a lamp next to the table' in a scene that already has a chair on the table's right: the
lamp goes to a side of the table that is free (right, left, front, back, in that order), so
nothing already standing there has to be pushed away."""

from __future__ import annotations

from collections.abc import Callable

from studio.planner.arrangements import bounds
from studio.scene.model import Scene

SIDES_IN_TURN = ("right_of", "left_of", "in_front_of", "behind")
CLEAR = 0.02
"""Metres two footprints may share and still count as apart (touching is fine)."""


def first_free_side(
    scene: Scene, name: str, target: str, place_as: Callable[[str], Scene]
) -> Scene:
    """The scene with `name` placed on the first side of `target` where it touches nothing
    else; on the right when every side is taken."""
    for kind in SIDES_IN_TURN:
        placed = place_as(kind)
        if not _crowded(placed, name, target):
            return placed
    return place_as(SIDES_IN_TURN[0])


def _crowded(scene: Scene, name: str, target: str) -> bool:
    low, high = bounds(scene, name)
    target_bottom = float(bounds(scene, target)[0][1])
    for item in scene.objects:
        if item.name in (name, target):
            continue
        other_low, other_high = bounds(scene, item.name)
        if float(other_high[1]) <= target_bottom + CLEAR:
            continue  # what the target stands on (a table under a ball): not in the way
        apart = any(
            high[axis] - CLEAR <= other_low[axis] or other_high[axis] - CLEAR <= low[axis]
            for axis in (0, 1, 2)
        )
        if not apart:
            return True
    return False
