"""Placing things on a support's top: the surface an object rests on when let down onto another
(a bed's mattress, not its headboard), and something beside an object that stands on a support
("a mug right of the laptop on the desk": on the desk too, beside the laptop)."""

from __future__ import annotations

import numpy as np

from studio.planner.arrangements import GAP, bounds, move
from studio.planner.containers import heights
from studio.planner.uploads import current_resolver
from studio.scene.geometry import world_mesh
from studio.scene.model import Scene


def surface_under(scene: Scene, target: str, name: str, x: float, z: float) -> float | None:
    """The height of `target`'s highest surface under `name`'s footprint centred at (x, z):
    what it rests on when let down (a bed's mattress, not its headboard; a chair's seat, not its
    back); None when no part of the target is under it."""
    mine_low, mine_high = bounds(scene, name)
    half_x, half_z = (mine_high[0] - mine_low[0]) * 0.45, (mine_high[2] - mine_low[2]) * 0.45
    points = np.array(
        [(x + dx, z + dz) for dx in (-half_x, 0.0, half_x) for dz in (-half_z, 0.0, half_z)]
    )
    mesh = world_mesh(scene.object(target), resolve_mesh=current_resolver())
    found = heights(np.asarray(mesh.triangles, dtype=float), points)
    return None if np.isnan(found).all() else float(np.nanmax(found))


def beside_on_top(
    scene: Scene, name: str, kind: str, target: str, support: str, offset: int
) -> Scene:
    """`name` beside `target` on the top of `support` (both stand on it): a gap in keeping with
    their size, kept over the support where it is wide enough."""
    low, high = bounds(scene, target)
    mine_low, mine_high = bounds(scene, name)
    top_low, top_high = bounds(scene, support)
    half = (mine_high - mine_low) / 2
    gap = min(GAP, float(max(high[0] - low[0], high[2] - low[2], 2 * half[0])) / 2)
    centre = (low + high) / 2
    step = offset * float(2 * half[0] + gap)
    x, z = {
        "left_of": (low[0] - gap - half[0] - step, centre[2]),
        "right_of": (high[0] + gap + half[0] + step, centre[2]),
        "next_to": (high[0] + gap + half[0] + step, centre[2]),
        "in_front_of": (centre[0] + step, high[2] + gap + half[2]),
        "behind": (centre[0] + step, low[2] - gap - half[2]),
    }[kind]
    wanted = [x, z]
    for slot, axis in ((0, 0), (1, 2)):  # kept over the support where it is wide enough
        if top_high[axis] - top_low[axis] > 2 * half[axis]:
            wanted[slot] = min(
                max(wanted[slot], top_low[axis] + half[axis]), top_high[axis] - half[axis]
            )
    x, z = wanted
    scene = move(scene, name, float(x), float(low[1]), float(z))
    # pulled in from the edge onto the target: the target makes room, as far as its support lets
    axis = 2 if kind in ("in_front_of", "behind") else 0
    sign = -1.0 if kind in ("left_of", "behind") else 1.0
    mine_low, mine_high = bounds(scene, name)
    overlap = (high[axis] - mine_low[axis]) if sign > 0 else (mine_high[axis] - low[axis])
    if overlap > -0.005:
        shift = -sign * float(overlap + 0.01)
        shift = max(shift, float(top_low[axis] - low[axis])) if shift < 0 else shift
        shift = min(shift, float(top_high[axis] - high[axis])) if shift > 0 else shift
        moved = [float(centre[0]), float(centre[2])]
        moved[0 if axis == 0 else 1] += shift
        scene = move(scene, target, moved[0], float(low[1]), moved[1])
    return scene
