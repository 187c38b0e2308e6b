"""Simple, deterministic repairs for what the checks find. Each takes the scene (and the report
it answers), returns the new scene and a list of the changes made, in words.

* `drop_to_support`: floating or sunken objects move straight down or up until they rest on the
  highest surface beneath their footprint (or the ground); what rested on them moves with them.
* `separate_overlaps`: for each overlapping pair, the smaller object is pushed out along the axis
  of least AABB overlap (sideways or up onto the other, never down), preferring a direction that
  does not run into a third object, then set down on whatever is beneath it.
* `fix_collision_shapes`: a `box` collision shape on a round or irregular object (a box around a
  ball stands on an edge when the ball is turned; a box around a torus fills its hole) becomes
  `convex`.
* `stabilise`: objects the simulation saw move: a tilted object that topples is turned upright
  (onto its nearest face) and set down; an object that falls or topples off something beneath it
  is moved over that support and set down on it; furniture on the ground that still moves is made
  static; an object that slides gets more friction.
* `rescale_to_typical`: an object out of scale for its category is scaled uniformly into the
  typical range and set down again.

Objects are moved through `transform.translation` (a world offset) and turned through
`transform.rotation` about their own origin, as the scene model defines them.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import trimesh
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]

from studio.physics.common import (
    GROUND,
    WorldMesh,
    cached,
    euler_from_matrix,
    fmt,
    replace_objects,
    rotation_matrix,
    the,
    translated,
    with_transform,
)
from studio.physics.interpenetration import InterpenetrationReport
from studio.physics.mjcf import collision_geom
from studio.physics.scale import TYPICAL_SIZES, ScaleReport, match_category
from studio.physics.stability import StabilityReport
from studio.physics.support import Body, SupportReport, footing
from studio.scene.model import Scene, SceneObject
from studio.scene.solids import enclosed_volume

Changes = list[str]
ROUND_SHAPES = frozenset({"sphere", "cylinder", "cone", "capsule", "torus", "revolve"})
IRREGULAR_SHAPES = frozenset({"mesh", "boolean", "extrusion"})
BOX_FILL = 0.8
FURNITURE = frozenset(
    {
        "table",
        "coffee table",
        "desk",
        "chair",
        "stool",
        "bench",
        "sofa",
        "bed",
        "shelf",
        "bookshelf",
        "cabinet",
        "wardrobe",
        "door",
        "pillar",
        "lamp",
        "television",
        "wall",
        "fence",
    }
)
TILT_DEG = 1.0
REST_ITERATIONS = 4


class _World:
    """The scene being edited: current objects and their world meshes, kept in step."""

    def __init__(self, scene: Scene, world_mesh: WorldMesh) -> None:
        self.scene = scene
        self.world_mesh = cached(world_mesh)
        self.objects = {obj.name: obj for obj in scene.objects}
        self.bodies = {obj.name: Body.of(obj.name, self.world_mesh(obj)) for obj in scene.objects}

    def set(self, obj: SceneObject) -> None:
        self.objects[obj.name] = obj
        self.bodies[obj.name] = Body.of(obj.name, self.world_mesh(obj))

    def move(self, name: str, dx: float = 0.0, dy: float = 0.0, dz: float = 0.0) -> None:
        self.set(translated(self.objects[name], dx, dy, dz))

    def others(self, name: str) -> list[Body]:
        return [body for other, body in self.bodies.items() if other != name]

    def rest_offset(self, name: str, tolerance_m: float) -> tuple[float, str | None] | None:
        """The vertical move that sets `name` down on (or lifts it onto) what is beneath it, and
        what that is; None when nothing is beneath it."""
        body, others = self.bodies[name], self.others(name)
        total, nearest = 0.0, None
        for _ in range(REST_ITERATIONS):
            found = footing(body, others, self.scene, tolerance_m)
            if found.gap is None:
                return None if total == 0.0 else (total, nearest)
            nearest = found.nearest
            if abs(found.gap) <= tolerance_m / 4:
                break
            total -= found.gap
            mesh = body.mesh.copy()
            mesh.apply_translation((0.0, -found.gap, 0.0))
            body = Body.of(name, mesh)
        return total, nearest

    def rest(self, name: str, tolerance_m: float) -> tuple[float, str | None]:
        """Set `name` down on what is beneath it; returns the move and the support."""
        found = self.rest_offset(name, tolerance_m)
        if found is None:
            return 0.0, None
        offset, nearest = found
        if offset != 0.0:
            self.move(name, dy=offset)
        return offset, nearest

    def result(self) -> Scene:
        return replace_objects(self.scene, self.objects)


def _volume(mesh: trimesh.Trimesh) -> float:
    enclosed = enclosed_volume(mesh)
    if enclosed is not None:
        return abs(enclosed)
    extent = np.ptp(np.asarray(mesh.vertices), axis=0)
    return float(np.prod(np.maximum(extent, 1e-6)))


def _vertical(name: str, offset: float, onto: str | None) -> str:
    where = the(onto or GROUND)
    if offset < 0:
        return f"{name}: lowered {fmt(-offset)} onto {where}"
    return f"{name}: raised {fmt(offset)} to rest on {where}"


def drop_to_support(
    scene: Scene, report: SupportReport, world_mesh: WorldMesh
) -> tuple[Scene, Changes]:
    """Move every object the support check flagged straight down (floating) or up (sunk) until it
    rests on the highest surface beneath its footprint, or the ground. Lowest objects first, so a
    stack settles from the bottom; objects resting on a moved one are carried with it."""
    world = _World(scene, world_mesh)
    tolerance = report.tolerance_m
    changes: Changes = []
    flagged = {item.name for item in report.objects if item.status in ("floats", "sinks")}
    for item in report.objects:
        if item.status == "unsupported":
            changes.append(f"{item.name}: left alone: there is nothing beneath it to rest on")
    resting_on: dict[str, list[str]] = {}
    for item in report.objects:
        if item.status == "supported":
            for support in item.supports:
                resting_on.setdefault(support, []).append(item.name)
    order = sorted(flagged, key=lambda name: (float(world.bodies[name].low[1]), name))
    for name in order:
        offset, onto = world.rest(name, tolerance)
        if offset == 0.0:
            continue
        changes.append(_vertical(name, offset, onto))
        carried: list[str] = []
        stack = list(resting_on.get(name, []))
        while stack:
            above = stack.pop(0)
            if above in flagged or above in carried:
                continue
            carried.append(above)
            world.move(above, dy=offset)
            stack.extend(resting_on.get(above, []))
        if carried:
            direction = "down" if offset < 0 else "up"
            changes.append(f"{', '.join(carried)}: moved {direction} with {name} (resting on it)")
    return world.result(), changes


def separate_overlaps(
    scene: Scene,
    report: InterpenetrationReport,
    world_mesh: WorldMesh,
    margin_m: float = 0.0005,
) -> tuple[Scene, Changes]:
    """Push the smaller object of each overlapping pair out along the axis of least overlap
    (sideways, or up onto the other; never down into the ground), then set it down on whatever
    is beneath it so it stays supported. What rests on a pushed object is not carried along: run
    `support` and `drop_to_support` afterwards."""
    world = _World(scene, world_mesh)
    tolerance = report.tolerance_m
    changes: Changes = []
    for pair in report.pairs:
        a, b = world.bodies[pair.a], world.bodies[pair.b]
        overlap = np.minimum(a.high, b.high) - np.maximum(a.low, b.low)
        if np.any(overlap <= tolerance):
            changes.append(f"{pair.a} and {pair.b}: already apart after an earlier move")
            continue
        mover, fixed = (a, b) if _volume(a.mesh) < _volume(b.mesh) else (b, a)
        moves = [
            ("+x", 0, float(fixed.high[0] - mover.low[0]) + margin_m),
            ("-x", 0, -(float(mover.high[0] - fixed.low[0]) + margin_m)),
            ("+z", 2, float(fixed.high[2] - mover.low[2]) + margin_m),
            ("-z", 2, -(float(mover.high[2] - fixed.low[2]) + margin_m)),
            ("+y", 1, float(fixed.high[1] - mover.low[1])),
        ]
        moves.sort(key=lambda move: abs(move[2]))
        others = [o for o in world.bodies.values() if o.name not in (mover.name, fixed.name)]

        def clear(
            axis: int, distance: float, mover: Body = mover, others: list[Body] = others
        ) -> bool:
            shift = np.zeros(3)
            shift[axis] = distance
            low, high = mover.low + shift, mover.high + shift
            return all(
                np.any(np.minimum(high, o.high) - np.maximum(low, o.low) <= tolerance)
                for o in others
            )

        label, axis, distance = next((m for m in moves if clear(m[1], m[2])), moves[0])
        shift = [0.0, 0.0, 0.0]
        shift[axis] = distance
        world.move(mover.name, *shift)
        onto = f" onto {fixed.name}" if label == "+y" else f" out of {fixed.name}"
        changes.append(
            f"{mover.name}: pushed {fmt(abs(distance))} along {label}{onto} "
            f"(the smaller of the two; they overlapped by {fmt(pair.depth_m)})"
        )
        offset, support = world.rest(mover.name, tolerance)
        if abs(offset) > tolerance:
            changes.append(_vertical(mover.name, offset, support))
    return world.result(), changes


def fix_collision_shapes(
    scene: Scene,
    world_mesh: WorldMesh | None = None,
    report: StabilityReport | None = None,
) -> tuple[Scene, Changes]:
    """Give round or irregular objects that collide as a `box` a `convex` collision shape.

    Round kinds (sphere, cylinder, cone, capsule, torus, revolve) always change: a box around a
    ball stands on a corner once the ball is turned, and cannot roll. Irregular kinds (mesh,
    boolean, extrusion) change when `world_mesh` is given and the mesh fills less than 80 % of
    its box, or always without it. With a stability `report`, only the objects it flagged change.
    """
    only = None if report is None else {m.name for m in report.flagged()}
    lookup = None if world_mesh is None else cached(world_mesh)
    updated: dict[str, SceneObject] = {}
    changes: Changes = []
    for obj in scene.objects:
        if obj.physics.collision != "box" or (only is not None and obj.name not in only):
            continue
        kind = obj.shape.kind
        if kind in ROUND_SHAPES:
            why = f"a box is a poor stand-in for a {kind}"
        elif kind in IRREGULAR_SHAPES:
            if lookup is None:
                why = f"a box is a poor stand-in for a {kind} shape"
            else:
                mesh = lookup(obj)
                geom = collision_geom(obj, mesh)
                box_volume = float(np.prod(2 * geom.half_size)) if geom.half_size is not None else 0
                fill = _volume(mesh) / box_volume if box_volume > 0 else 1.0
                if fill >= BOX_FILL:
                    continue
                why = f"the {kind} fills only {fill:.0%} of its box"
        else:
            continue
        updated[obj.name] = replace(obj, physics=replace(obj.physics, collision="convex"))
        changes.append(f"{obj.name}: collision box → convex ({why})")
    return replace_objects(scene, updated), changes


def _upright(obj: SceneObject) -> tuple[tuple[float, float, float], float] | None:
    """The rotation that stands the object on its nearest face (its local axis closest to the
    vertical made vertical), and the tilt removed; None when it is already upright."""
    matrix = rotation_matrix(obj.transform.rotation)
    axis = int(np.argmax(np.abs(matrix[1, :])))
    current = matrix[:, axis]
    target = np.array([0.0, math.copysign(1.0, float(current[1])), 0.0])
    tilt = math.degrees(math.acos(min(1.0, abs(float(current[1])))))
    if tilt <= TILT_DEG:
        return None
    turn, _ = Rotation.align_vectors(target[None, :], current[None, :])
    return euler_from_matrix(turn.as_matrix() @ matrix), tilt


def _support_beneath(world: _World, name: str, tolerance_m: float) -> Body | None:
    """The object (not the ground) under the largest part of `name`'s footprint, whose top is no
    higher than `name`'s middle."""
    body = world.bodies[name]
    best: tuple[float, float, Body] | None = None
    for other in world.others(name):
        if other.high[1] > body.mid_height + tolerance_m:
            continue
        overlap = np.minimum(body.high, other.high) - np.maximum(body.low, other.low)
        area = float(max(overlap[0], 0.0) * max(overlap[2], 0.0))
        if area <= 0:
            continue
        key = (area, float(other.high[1]))
        if best is None or key > best[:2]:
            best = (*key, other)
    return None if best is None else best[2]


def _centre_on(world: _World, name: str, support: Body) -> tuple[float, float]:
    """The XZ move that brings `name`'s footprint inside `support`'s (or centres it there)."""
    body = world.bodies[name]
    centre = (body.low + body.high) / 2.0
    half = (body.high - body.low) / 2.0
    move = []
    for axis in (0, 2):
        low = float(support.low[axis] + half[axis])
        high = float(support.high[axis] - half[axis])
        target = (low + high) / 2.0 if low > high else min(max(float(centre[axis]), low), high)
        move.append(target - float(centre[axis]))
    return move[0], move[1]


def stabilise(
    scene: Scene,
    report: StabilityReport,
    world_mesh: WorldMesh,
    tolerance_m: float = 0.002,
) -> tuple[Scene, Changes]:
    """Repair the objects the simulation saw move, in order of the report:

    1. tilted and it topples, turns or rolls: turned upright onto its nearest face;
    2. it falls, topples, rolls, turns or drops off an object partly beneath it: moved over that
       object (its footprint inside the other's, or centred on it when larger);
    3. anything moved by 1-2 is set down on what is beneath it (`tolerance_m` for resting);
    4. otherwise, furniture standing on the ground is made static; an object that slides gets
       friction 1.0; one that rises starts inside something (use `separate_overlaps`).
    """
    world = _World(scene, world_mesh)
    changes: Changes = []
    for motion in report.flagged():
        name, verdict = motion.name, motion.verdict
        if name not in world.objects:
            continue
        obj = world.objects[name]
        moved = False
        if verdict in ("topples", "rotates", "rolls"):
            upright = _upright(obj)
            if upright is not None:
                rotation, tilt = upright
                world.set(with_transform(obj, rotation=rotation))
                changes.append(
                    f"{name}: stood upright (it was tilted {tilt:.0f}° and {verdict}); "
                    f"rotation {_angles(obj.transform.rotation)} → {_angles(rotation)}"
                )
                moved = True
        if verdict in ("falls", "topples", "rolls", "rotates", "drops"):
            support = _support_beneath(world, name, tolerance_m)
            if support is not None:
                dx, dz = _centre_on(world, name, support)
                if math.hypot(dx, dz) > tolerance_m:
                    world.move(name, dx=dx, dz=dz)
                    changes.append(
                        f"{name}: moved {fmt(math.hypot(dx, dz))} to sit over {support.name} "
                        f"(it {verdict} off its edge)"
                    )
                    moved = True
        if moved or verdict == "drops":
            offset, onto = world.rest(name, tolerance_m)
            if abs(offset) > tolerance_m:
                changes.append(_vertical(name, offset, onto))
                moved = True
        if moved:
            continue
        obj = world.objects[name]
        category = match_category(obj.category)
        on_ground = abs(float(world.bodies[name].low[1])) <= max(tolerance_m, 0.01)
        if category in FURNITURE and on_ground and obj.physics.dynamic:
            world.set(replace(obj, physics=replace(obj.physics, dynamic=False)))
            changes.append(
                f"{name}: made static (a {category} standing on the ground; it {verdict})"
            )
        elif verdict == "slides" and obj.physics.friction < 1.0:
            world.set(replace(obj, physics=replace(obj.physics, friction=1.0)))
            changes.append(f"{name}: friction {obj.physics.friction:g} → 1 (it slides)")
        elif verdict == "rises":
            changes.append(f"{name}: not changed: it starts inside something (separate_overlaps)")
        else:
            changes.append(f"{name}: not changed: no simple fix for an object that {verdict}")
    return world.result(), changes


def _angles(rotation: tuple[float, float, float]) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in rotation) + ")"


def rescale_to_typical(
    scene: Scene, report: ScaleReport, world_mesh: WorldMesh, tolerance_m: float = 0.002
) -> tuple[Scene, Changes]:
    """Scale each object flagged by `scale_sanity` uniformly so its height lands in the (geometric)
    middle of its category's range, or, when that leaves its width out of range, in the middle of
    the factors that fit both; then set it down on what is beneath it."""
    world = _World(scene, world_mesh)
    changes: Changes = []
    for item in report.flagged():
        if item.matched is None or item.height_m <= 0 or item.width_m <= 0:
            continue
        if world.objects[item.name].size_stated:
            continue  # the person's size is kept; scale_sanity reports it as a warning
        heights, widths = TYPICAL_SIZES[item.matched]
        low = max(heights[0] / item.height_m, widths[0] / item.width_m)
        high = min(heights[1] / item.height_m, widths[1] / item.width_m)
        factor = math.sqrt(heights[0] * heights[1]) / item.height_m
        if low <= high and not low <= factor <= high:
            factor = math.sqrt(low * high)
        obj = world.objects[item.name]
        scale = tuple(round(v * factor, 9) for v in obj.transform.scale)
        world.set(with_transform(obj, scale=scale))
        changes.append(
            f"{item.name}: scaled by {factor:.3g} to {item.height_m * factor:.2f} m tall "
            f"(a {item.matched} is usually {heights[0]:g}-{heights[1]:g} m)"
        )
        offset, onto = world.rest(item.name, tolerance_m)
        if abs(offset) > tolerance_m:
            changes.append(_vertical(item.name, offset, onto))
    return world.result(), changes
