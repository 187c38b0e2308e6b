"""Placing things on a support's top: where several stand on it (in rows when one row is too
tight), the surface an object rests on when let down onto another (a bed's mattress, not its
headboard; a sofa's seat, clear of its back), and something beside an object that stands on a
support ("a mug right of the laptop on the desk": on the desk too, beside the laptop)."""

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


SPREAD_GAP = 0.01
"""Metres at least between things spread over one top."""


def spread_on_top(
    scene: Scene, names: list[str], low: np.ndarray, high: np.ndarray
) -> list[tuple[float, float]]:
    """Where several things on one top stand: evenly along it in one row, or, when they do not
    fit side by side, in as few rows across it as they need (four plates on a dining table)."""
    sizes = [bounds(scene, name)[1] - bounds(scene, name)[0] for name in names]
    span_x, span_z = float(high[0] - low[0]), float(high[2] - low[2])
    widest = max((float(size[0]) for size in sizes), default=0.0)
    deepest = max((float(size[2]) for size in sizes), default=0.0)
    rows = 1
    while (
        rows < len(names)
        and span_x / (-(-len(names) // rows) + 1) < widest + SPREAD_GAP
        and (rows + 1) * (deepest + SPREAD_GAP) <= span_z
    ):
        rows += 1
    per_row = -(-len(names) // rows)
    spots = []
    for index in range(len(names)):
        row, place = divmod(index, per_row)
        in_row = min(per_row, len(names) - row * per_row)
        x = float(low[0] + span_x * (place + 1) / (in_row + 1))
        z = float(low[2] + span_z / 2)  # one row: along the middle; more: edge to edge
        if rows > 1:
            z = float(low[2] + deepest / 2 + (span_z - deepest) * row / (rows - 1))
        spots.append((x, z))
    return spots


LEVEL = 0.01
"""Metres a resting surface may vary under a thing's footprint and still hold it flat."""
CLEAR = 0.015
"""Metres kept between a thing moved to a level spot and the step it was moved off."""


def resting_spot(
    scene: Scene, target: str, name: str, x: float, z: float
) -> tuple[float, float, float | None]:
    """Where `name` rests on `target` near (x, z), and the height it rests at: there when the
    surface under its whole footprint is level, else the nearest spot on `target` that is (a
    cushion on a sofa's seat, not straddling the seat and the back); (x, z, surface_under) where
    no spot is level."""
    mine_low, mine_high = bounds(scene, name)
    half_x, half_z = (mine_high[0] - mine_low[0]) * 0.45, (mine_high[2] - mine_low[2]) * 0.45
    low, high = bounds(scene, target)
    mesh = world_mesh(scene.object(target), resolve_mesh=current_resolver())
    triangles = np.asarray(mesh.triangles, dtype=float)

    def under(spots: list[tuple[float, float]], margin: float) -> np.ndarray:
        # the sampled 90% of the footprint, or all of it and `margin` more
        wide_x, wide_z = (
            (half_x / 0.9 + margin, half_z / 0.9 + margin) if margin else (half_x, half_z)
        )
        offsets = [(dx, dz) for dx in (-wide_x, 0.0, wide_x) for dz in (-wide_z, 0.0, wide_z)]
        points = np.array([(sx + dx, sz + dz) for sx, sz in spots for dx, dz in offsets])
        return heights(triangles, points).reshape(len(spots), len(offsets))

    def level(spots: list[tuple[float, float]], margin: float = 0.0) -> list[float | None]:
        found = under(spots, margin)
        good = np.isfinite(found).all(axis=1) & (np.ptp(found, axis=1) <= LEVEL)
        return [float(row.max()) if ok else None for row, ok in zip(found, good, strict=True)]

    here = level([(x, z)])[0]
    if here is not None:
        beside = under([(x, z)], CLEAR)[0]
        if not (np.nan_to_num(beside, nan=-np.inf) > here + LEVEL).any():
            return x, z, here  # level, and no step up right at its edge
    for step in (0.02, 0.05):
        xs = [x] if step == 0.02 else list(np.arange(low[0] + half_x, high[0] - half_x, step))
        zs = list(np.arange(low[2] + half_z, high[2] - half_z + 1e-9, step))
        spots = [(float(sx), float(sz)) for sx in xs for sz in zs]
        if not spots:
            continue
        # the whole footprint and a little more: clear of a step up (a sofa's back), not flush
        held = level(spots, CLEAR)
        found = [(spot, h) for spot, h in zip(spots, held, strict=True) if h is not None]
        if found:
            (sx, sz), surface = min(found, key=lambda f: (f[0][0] - x) ** 2 + (f[0][1] - z) ** 2)
            return sx, sz, surface
    return x, z, surface_under(scene, target, name, x, z)


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


def clear_spot(scene: Scene, target: str, name: str) -> Scene:
    """`name`, just put on `target`, moved to the free place nearest the middle of `target`
    when it stands in something already there (a cup put on a table with a vase in the middle
    goes beside the vase, not into it; three apples put one by one on a blanket stand apart)."""
    low, high = bounds(scene, target)
    mine_low, mine_high = bounds(scene, name)
    half = (mine_high - mine_low) / 2
    taken = []
    for item in scene.objects:
        if item.name in (name, target):
            continue
        other_low, other_high = bounds(scene, item.name)
        level = other_high[1] > mine_low[1] + 1e-3 and other_low[1] < mine_high[1] - 1e-3
        if level and not _apart(other_low, other_high, low, high, 0.0):
            taken.append((other_low, other_high))

    def free(x: float, z: float) -> bool:
        box_low = np.array([x - half[0], 0.0, z - half[2]])
        box_high = np.array([x + half[0], 0.0, z + half[2]])
        return all(_apart(box_low, box_high, a, b, SPREAD_GAP) for a, b in taken)

    middle = (mine_low + mine_high) / 2
    if free(float(middle[0]), float(middle[2])):
        return scene
    step = max(0.02, float(min(half[0], half[2])))
    xs = _steps(float(low[0] + half[0]), float(high[0] - half[0]), step)
    zs = _steps(float(low[2] + half[2]), float(high[2] - half[2]), step)
    centre = (low + high) / 2
    spots = sorted(
        ((float(x), float(z)) for x in xs for z in zs),
        key=lambda spot: (spot[0] - centre[0]) ** 2 + (spot[1] - centre[2]) ** 2,
    )
    for x, z in spots:
        if free(x, z):
            x, z, surface = resting_spot(scene, target, name, x, z)
            return move(scene, name, x, float(mine_low[1]) if surface is None else surface, z)
    return scene


def _apart(
    a_low: np.ndarray, a_high: np.ndarray, b_low: np.ndarray, b_high: np.ndarray, gap: float
) -> bool:
    """Whether two footprints stand at least `gap` apart along x or z."""
    return bool(
        a_high[0] + gap <= b_low[0]
        or b_high[0] + gap <= a_low[0]
        or a_high[2] + gap <= b_low[2]
        or b_high[2] + gap <= a_low[2]
    )


def _steps(start: float, stop: float, step: float) -> list[float]:
    """Spots from `start` to `stop` every `step`, the far end always among them (a fourth cake
    goes at the right end of a counter, not missed by a rounding error)."""
    if stop < start:
        return []
    spots = [start + step * n for n in range(int((stop - start) / step + 1e-6) + 1)]
    return spots if stop - spots[-1] <= 1e-6 else [*spots, stop]
