"""Does the scene stay put? A rigid-body simulation of it with MuJoCo.

The model is MJCF built in memory: gravity -9.81 along Y; the ground as a plane whose normal is
turned to +Y (a quarter turn about X), top at y = 0 (MuJoCo collides planes as unbounded, so
unlike `support` the simulation does not let things fall off the `ground_size` square; MuJoCo's
default Euler integrator at 2 ms steps); one body with a free
joint per dynamic object; every static object as geoms of the world body. Collision shapes:

* `box`: a box aligned with the object's own rotation that encloses its world mesh (the object's
  oriented bounding box, exact for boxes);
* `convex`: the convex hull of the world mesh (vertices written inline in `<asset><mesh>`); a
  fine mesh's hull is reduced to its farthest vertices in 256 spread directions and along the
  axes (inside the true hull by about 1 % of the size at most; extremes such as the lowest
  point exact), which MuJoCo compiles and collides several times faster; a hull whose vertices
  are all as far from its centre (within 2 %: a ball) becomes a true sphere, which rests on one
  point and rolls as a ball does, where a polyhedron tips off the vertex it stands on;
* `mesh`: also the convex hull: MuJoCo collides meshes as convex;
* a hollow revolved object (a bowl, a cup: a profile filling under 80 % of its hull) collides as
  convex pieces of its wall (`hollow_parts`), so what rests inside it rests on its floor;
* a mesh with no volume (a plane, a flat sheet) becomes a thin box.

Mass is `physics.mass`, else density * volume (the mesh's volume, or its hull's when it is not
closed), where density is `physics.density`, unless that was left at its default and the material
is a known one (`materials.DENSITY`, e.g. 7850 for steel). Friction is the object's own: the ground
has none of its own (MuJoCo uses the larger of two touching friction coefficients, so the
object's applies on the ground, and the larger of two objects' between them). Restitution is not
modelled: MuJoCo's default soft contacts are inelastic. Objects start at rest.

After `seconds` of simulated time (timestep 0.002 s, deterministic) each dynamic object's
displacement and rotation are read; more than `tolerance_m` or `tolerance_deg` is flagged, named
as well as the motion allows: slides (moves mostly sideways without turning, down a ramp too),
falls (its lowest point drops), topples (turns and gets lower), rolls, rotates, drops (settles a
little) or rises (pushed out of something it started inside).

**Perturbation.** Resting is not enough: a ball exactly on the tip of a cone, or a tower of
cubes on one, stays put in a perfect simulation. So every scene that rests is also nudged, once
per seed in `PERTURB_SEEDS` (fixed, so the check is deterministic): every dynamic object starts
with a small push (`PUSH_SPEED` m/s in a random horizontal direction) and a small tilt
(its centre moving at `TILT_SPEED` m/s about a random horizontal axis through its lowest
point), and the scene runs
`PERTURB_SECONDS`. A
stable scene absorbs that (a crate rocks back, a ball on a table rolls a few centimetres); an
object balanced on a point or an edge falls (its lowest point drops more than `FALL_M`) or
topples (it turns past `TOPPLE_DEG` and its centre drops more than `SINK_M`), and is flagged
with the seed that showed it. The seeds run on their own `MjData` of the same compiled model,
side by side on threads of their own (MuJoCo releases the GIL while it steps). A
nudged run stops once everything is at rest again (see `simulate`), so a steady scene costs a
fraction of PERTURB_SECONDS.
"""

from __future__ import annotations

import itertools
import math
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import mujoco  # type: ignore[import-untyped]
import numpy as np
import trimesh
from scipy.spatial import ConvexHull  # type: ignore[import-untyped]
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]
from shapely.geometry import Polygon  # type: ignore[import-untyped]

from studio.physics.common import (
    FloatArray,
    Report,
    WorldMesh,
    cached,
    fmt,
    rotation_matrix,
)
from studio.scene.geometry import shape_mesh
from studio.scene.materials import DENSITY
from studio.scene.model import Physics, Scene, SceneObject, Shape
from studio.scene.transforms import object_matrix, transform_from_dict

TIMESTEP = 0.002
GRAVITY = 9.81
PERTURB_SEEDS = (1, 2, 3)
PUSH_SPEED = 0.05
"""m/s: a push a hand barely notices; a ball on a table rolls about 3 cm in PERTURB_SECONDS."""
TILT_SPEED = 0.1
"""m/s: how fast a tilt about its lowest point first moves an object's centre (so a tall pillar
turns slower than a crate: the nudge is the same hand, not the same angle). It lifts a 0.5 m
crate's edge by about a millimetre, rocks a 2 m pillar on a 0.2 m base by under a degree, and
tips a tower balanced on a cone's tip past TOPPLE_DEG within PERTURB_SECONDS."""
PERTURB_SECONDS = 0.8
NUDGE_TIMESTEP = 0.004
"""The nudged runs look for coarse motions (a 5 cm fall, a 15° tip), which 4 ms steps resolve
(MuJoCo's default contacts, time constant 0.02 s, want steps of at most half that); the run at
rest keeps 2 ms steps for its 1 cm tolerance."""
FALL_M = 0.05
REST_SPEED = 1e-3
REST_SPIN = 0.01
REST_CHECK_S = 0.05
REST_CHECKS = 3
MIN_SETTLE_S = 0.3
TOPPLE_DEG = 15.0
SINK_M = 0.01
HOLLOW_FILL = 0.8
HOLLOW_SECTORS = 16
MIN_HALF_SIZE = 5e-4
MIN_MASS = 1e-4
HULL_DIRECTIONS = 256
SPHERE_SPREAD = 0.02


@dataclass
class Motion:
    name: str
    verdict: str
    """stable | falls | topples | rolls | rotates | slides | drops | rises | unstable"""
    displacement_m: float
    displacement: list[float]
    rotation_deg: float
    drop_m: float
    """How far the object's lowest point went down (negative: up)."""
    mass_kg: float
    collision: str
    """The shape simulated: box, sphere, convex hull or thin box."""
    reason: str
    nudged: int | None = None
    """The perturbation seed that made it fall or topple; None when it moved at rest already
    (or did not move at all)."""


@dataclass(kw_only=True)
class StabilityReport(Report):
    check: str = "stability"
    unit: str = "m"
    seconds: float = 1.5
    timestep: float = TIMESTEP
    steps: int = 0
    """Steps simulated at rest: fewer than seconds / timestep when the scene came to rest early."""
    tolerance_m: float = 0.01
    tolerance_deg: float = 5.0
    perturb_seeds: list[int] = field(default_factory=list)
    """The seeds of the nudged runs (none when the scene already moved at rest)."""
    push_speed: float = PUSH_SPEED
    tilt_speed: float = TILT_SPEED
    perturb_seconds: float = PERTURB_SECONDS
    objects: list[Motion] = field(default_factory=list)
    """Every dynamic object, the ones that moved first."""
    static: list[str] = field(default_factory=list)
    build_s: float = 0.0
    simulate_s: float = 0.0
    perturb_s: float = 0.0

    def item(self, name: str) -> Motion:
        """The result for the object called `name` (KeyError when it was not checked)."""
        for entry in self.objects:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def flagged(self) -> list[Motion]:
        return [m for m in self.objects if m.verdict != "stable"]


@dataclass
class CollisionGeom:
    """One object's collision geometry, placed in the world."""

    kind: str
    origin: FloatArray
    """World position of the body frame (the geom's centre)."""
    points: FloatArray
    """The collision shape's vertices in world coordinates (box corners or hull vertices)."""
    volume: float
    half_size: FloatArray | None = None
    quat: FloatArray | None = None
    """Box orientation (w, x, y, z)."""
    radius: float | None = None
    """Set for a hull that is a sphere: all its vertices as far from its centre and as wide as
    that on every axis, within 2 % (a cylinder's rim vertices are equidistant too)."""


def _directions(count: int) -> FloatArray:
    """`count` directions spread evenly over the sphere (a Fibonacci lattice), and the six axes."""
    index = np.arange(count) + 0.5
    polar = np.arccos(1.0 - 2.0 * index / count)
    azimuth = np.pi * (1.0 + 5.0**0.5) * index
    spread = np.column_stack(
        [np.cos(azimuth) * np.sin(polar), np.cos(polar), np.sin(azimuth) * np.sin(polar)]
    )
    return np.vstack([np.eye(3), -np.eye(3), spread])


_DIRECTIONS = _directions(HULL_DIRECTIONS)


def _extreme_points(vertices: FloatArray) -> FloatArray:
    """The vertices a convex hull needs, at most about HULL_DIRECTIONS of them.

    Small meshes keep every (distinct) vertex. Finer ones keep the farthest vertex in each of
    HULL_DIRECTIONS directions and along ±x, ±y, ±z: a hull inside the true one by about 1 % of
    the object's size at most (a fine sphere), with its extremes, its lowest point included,
    exact. MuJoCo compiles and collides such hulls much faster than 2,500-vertex ones.
    """
    if len(vertices) > 2 * HULL_DIRECTIONS:
        centred = vertices - vertices.mean(axis=0)
        # einsum, not `@`: BLAS threads make this small product erratic on a busy machine.
        reach = np.einsum("dk,nk->dn", _DIRECTIONS, centred)
        vertices = vertices[np.unique(reach.argmax(axis=1))]
    unique: FloatArray = np.unique(np.round(vertices, 9), axis=0)
    return unique


def collision_geom(obj: SceneObject, mesh: trimesh.Trimesh) -> CollisionGeom:
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    if obj.physics.collision != "box":
        candidates = _extreme_points(vertices)
        try:
            hull = ConvexHull(candidates)
        except Exception:  # flat or degenerate: no hull, fall back to a thin box
            hull = None
        if hull is not None and hull.volume > 1e-12:
            points = candidates[hull.vertices]
            origin = (points.min(axis=0) + points.max(axis=0)) / 2.0
            volume = float(mesh.volume) if mesh.is_volume else float(hull.volume)
            distances = np.linalg.norm(points - origin, axis=1)
            radius = float(distances.max())
            extents = points.max(axis=0) - points.min(axis=0)
            if (
                len(points) >= 20
                and radius - float(distances.min()) <= SPHERE_SPREAD * radius
                and float(extents.min()) >= 2 * radius * (1 - SPHERE_SPREAD)
            ):
                return CollisionGeom("sphere", origin, points, abs(volume), radius=radius)
            return CollisionGeom("convex hull", origin, points, abs(volume))
    rotation = rotation_matrix(obj.transform.rotation)
    local = vertices @ rotation  # each row: R^T v, the vertex in the object's rotated frame
    low, high = local.min(axis=0), local.max(axis=0)
    half = np.maximum((high - low) / 2.0, MIN_HALF_SIZE)
    centre = rotation @ ((low + high) / 2.0)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    corners = centre + (signs * half) @ rotation.T
    x, y, z, w = Rotation.from_matrix(rotation).as_quat()
    kind = "box" if obj.physics.collision == "box" else "thin box"
    volume = float(mesh.volume) if mesh.is_volume else float(np.prod(2 * half))
    return CollisionGeom(
        kind, centre, corners, abs(volume), half, np.array([w, x, y, z], dtype=np.float64)
    )


def object_mass(obj: SceneObject, volume: float) -> float:
    if obj.physics.mass is not None:
        return obj.physics.mass
    density = obj.physics.density
    if density == Physics().density and obj.material.name in DENSITY:
        density = DENSITY[obj.material.name]
    return max(density * volume, MIN_MASS)


def _numbers(values: FloatArray) -> str:
    return " ".join(map("{:.9g}".format, np.ravel(values).tolist()))


def _geom_xml(index: int, geom: CollisionGeom, relative_to: FloatArray, extra: str) -> str:
    if geom.half_size is not None and geom.quat is not None:
        pos = geom.origin - relative_to
        return (
            f'<geom name="g{index}" type="box" size="{_numbers(geom.half_size)}" '
            f'pos="{_numbers(pos)}" quat="{_numbers(geom.quat)}" {extra}/>'
        )
    if geom.radius is not None:
        pos = geom.origin - relative_to
        return (
            f'<geom name="g{index}" type="sphere" size="{geom.radius:.9g}" '
            f'pos="{_numbers(pos)}" {extra}/>'
        )
    return f'<geom name="g{index}" type="mesh" mesh="m{index}" {extra}/>'


def union_parts(obj: SceneObject) -> list[FloatArray]:
    """World vertices of each leaf of an object's boolean-union tree; [] for any other shape."""
    if obj.shape.kind != "boolean" or obj.shape.params.get("op") != "union":
        return []
    leaves: list[FloatArray] = []

    def walk(data: dict[str, Any], matrix: FloatArray) -> None:
        params = dict(data.get("params") or {})
        local = object_matrix(
            transform_from_dict(data.get("transform", params.pop("transform", None)), "part")
        )
        here = matrix @ local
        if data.get("kind") == "boolean" and params.get("op") == "union":
            walk(params["a"], here)
            walk(params["b"], here)
            return
        mesh = shape_mesh(Shape(kind=data["kind"], params=params))
        points = np.asarray(mesh.vertices, dtype=np.float64)
        leaves.append(points @ here[:3, :3].T + here[:3, 3])

    top = object_matrix(obj.transform)
    walk({"kind": "boolean", "params": obj.shape.params}, top)
    return leaves


def hollow_parts(obj: SceneObject) -> list[FloatArray]:
    """World vertices of convex pieces of a hollow revolved object (a bowl, a cup), or [].

    A revolve profile that fills less than HOLLOW_FILL of its own convex hull is hollow: the
    profile is cut into triangles and each is turned through HOLLOW_SECTORS sectors; a piece is
    the hull of a triangle's corners at both ends of a sector (its curved faces become flat, by
    about 2 % of the radius at 16 sectors)."""
    if obj.shape.kind != "revolve":
        return []
    profile = obj.shape.params.get("profile") or []
    try:
        polygon = Polygon([(float(r), float(y)) for r, y in profile])
    except (TypeError, ValueError):
        return []
    if not polygon.is_valid or polygon.area >= HOLLOW_FILL * polygon.convex_hull.area:
        return []
    corners, triangles = trimesh.creation.triangulate_polygon(polygon, engine="earcut")
    angles = np.linspace(0.0, 2.0 * math.pi, HOLLOW_SECTORS + 1)
    matrix = object_matrix(obj.transform)
    parts: list[FloatArray] = []
    for triangle in triangles:
        radius, height = corners[triangle, 0], corners[triangle, 1]
        for start, end in itertools.pairwise(angles):
            local = np.array(
                [
                    [r * math.cos(angle), y, r * math.sin(angle)]
                    for angle in (start, end)
                    for r, y in zip(radius, height, strict=True)
                ]
            )
            unique = np.unique(np.round(local, 9), axis=0)
            if len(unique) >= 4:
                parts.append(unique @ matrix[:3, :3].T + matrix[:3, 3])
    return parts


def _hull_volume(points: FloatArray) -> float:
    try:
        return float(ConvexHull(points).volume)
    except Exception:  # flat: no volume
        return 0.0


def build_mjcf(
    scene: Scene, geoms: list[CollisionGeom], masses: list[float], timestep: float = TIMESTEP
) -> str:
    """The MJCF text of the scene (see the module docstring)."""
    assets: list[str] = []
    world: list[str] = []
    bodies: list[str] = []
    if scene.ground:
        half = scene.ground_size / 2.0
        # A plane's normal is its local +Z; a -90° turn about X points it at +Y.
        world.append(
            f'<geom name="ground" type="plane" size="{half:.9g} {half:.9g} 0.1" '
            'quat="0.70710678118654757 -0.70710678118654757 0 0" friction="0 0 0"/>'
        )
    for index, (obj, geom) in enumerate(zip(scene.objects, geoms, strict=True)):
        dynamic = obj.physics.dynamic
        origin = geom.origin if dynamic else np.zeros(3)
        if geom.half_size is None and geom.radius is None and not hollow_parts(obj):
            # MuJoCo keeps a mesh where its vertices say, in the frame of the body holding it.
            assets.append(f'<mesh name="m{index}" vertex="{_numbers(geom.points - origin)}"/>')
        friction = f'friction="{obj.physics.friction:.9g} 0.005 0.0001"'
        hollow = hollow_parts(obj)
        if dynamic and hollow:
            # A hollow revolved object (a bowl) as convex pieces of its wall, sharing its mass
            # by volume: one hull around it all would fill the bowl.
            volumes = [max(_hull_volume(part), 1e-12) for part in hollow]
            pieces = []
            for number, (part, volume) in enumerate(zip(hollow, volumes, strict=True)):
                assets.append(
                    f'<mesh name="m{index}p{number}" vertex="{_numbers(part - origin)}"/>'
                )
                share = masses[index] * volume / sum(volumes)
                pieces.append(
                    f'<geom name="g{index}p{number}" type="mesh" mesh="m{index}p{number}" '
                    f'{friction} mass="{share:.9g}"/>'
                )
            bodies.append(
                f'<body name="b{index}" pos="{_numbers(origin)}"><freejoint/>'
                f"{''.join(pieces)}</body>"
            )
        elif dynamic:
            extra = f'{friction} mass="{masses[index]:.9g}"'
            bodies.append(
                f'<body name="b{index}" pos="{_numbers(origin)}"><freejoint/>'
                f"{_geom_xml(index, geom, origin, extra)}</body>"
            )
        elif parts := union_parts(obj) or hollow:
            # A static union (a table: top and legs) collides part by part, so the space under
            # its top stays free; one hull around it all would fill that space.
            for number, part in enumerate(parts):
                assets.append(f'<mesh name="m{index}p{number}" vertex="{_numbers(part)}"/>')
                world.append(
                    f'<geom name="g{index}p{number}" type="mesh" mesh="m{index}p{number}" '
                    f"{friction}/>"
                )
        else:
            world.append(_geom_xml(index, geom, origin, friction))
    return (
        '<mujoco model="studio-stability"><compiler angle="radian"/>'
        f'<option timestep="{timestep:.9g}" gravity="0 {-GRAVITY:.9g} 0"/>'
        f"<asset>{''.join(assets)}</asset>"
        f"<worldbody>{''.join(world)}{''.join(bodies)}</worldbody></mujoco>"
    )


def _quat_matrix(quat: FloatArray) -> FloatArray:
    w, x, y, z = (float(v) for v in quat)
    matrix: FloatArray = Rotation.from_quat([x, y, z, w]).as_matrix()
    return matrix


def _judge(
    name: str,
    geom: CollisionGeom,
    position: FloatArray,
    quat: FloatArray,
    seconds: float,
    tolerance_m: float,
    tolerance_deg: float,
) -> tuple[str, FloatArray, float, float, str]:
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quat))):
        reason = f"{name}: the simulation blew up (it probably starts deep inside something)"
        return "unstable", np.zeros(3), 0.0, 0.0, reason
    displacement = position - geom.origin
    distance = float(np.linalg.norm(displacement))
    along = float(np.linalg.norm(displacement[[0, 2]]))
    w = min(1.0, abs(float(quat[0])) / max(float(np.linalg.norm(quat)), 1e-12))
    rotation = math.degrees(2.0 * math.acos(w))
    after = (geom.points - geom.origin) @ _quat_matrix(quat).T + position
    drop = float(geom.points[:, 1].min() - after[:, 1].min())
    height_before = float(np.ptp(geom.points[:, 1]))
    height_after = float(np.ptp(after[:, 1]))
    when = f"in {seconds:g} s"
    if distance <= tolerance_m and rotation <= tolerance_deg:
        return "stable", displacement, rotation, drop, f"{name} stays put"
    if rotation <= tolerance_deg and along > tolerance_m and along >= abs(float(displacement[1])):
        verdict = "slides"
        reason = f"{name} slides {fmt(along)} {when}"
    elif drop > max(5 * tolerance_m, 0.05):
        verdict = "falls"
        reason = (
            f"{name} falls {fmt(drop)} {when} (its lowest point drops to {after[:, 1].min():.2f} m)"
        )
    elif rotation > tolerance_deg and height_before - height_after > max(
        tolerance_m, 0.1 * height_before
    ):
        verdict = "topples"
        reason = f"{name} topples: it tips {rotation:.0f}° and moves {fmt(distance)} {when}"
    elif rotation > tolerance_deg and along > tolerance_m:
        verdict = "rolls"
        reason = f"{name} rolls {fmt(along)} {when}"
    elif rotation > tolerance_deg:
        verdict = "rotates"
        reason = f"{name} turns {rotation:.0f}° in place {when}"
    elif displacement[1] > 0:
        verdict = "rises"
        reason = (
            f"{name} is pushed up {fmt(float(displacement[1]))} {when} (it starts inside something)"
        )
    else:
        verdict = "drops"
        reason = (
            f"{name} drops {fmt(-float(displacement[1]))} {when} (it was not resting on anything)"
        )
    return verdict, displacement, rotation, drop, reason


def simulate(model: Any, data: Any, steps: int, rolling: list[int] | None = None) -> int:
    """Step up to `steps`; stop early once the scene is at rest. Returns the steps taken.

    At rest means every free body slower than REST_SPEED m/s and REST_SPIN rad/s at
    REST_CHECKS checks in a row, REST_CHECK_S apart, after at least MIN_SETTLE_S. A scene at
    rest stays at rest (nothing is left to accelerate it), so the rest of the time could move
    nothing by more than REST_SPEED x the time left (under 1.5 mm in 1.5 s, against a 1 cm
    tolerance); a balance that only holds without a disturbance is what the nudged runs are for.
    In a nudged run the free bodies listed in `rolling` (balls) only need to stop going up or
    down: a ball rolling level on a table after a push is not falling.
    """
    timestep = float(model.opt.timestep)
    chunk = max(1, round(REST_CHECK_S / timestep))
    least = round(MIN_SETTLE_S / timestep)
    done = quiet = 0
    while done < steps:
        count = min(chunk, steps - done)
        mujoco.mj_step(model, data, nstep=count)
        done += count
        velocity = np.abs(np.asarray(data.qvel).reshape(-1, 6))
        if rolling:
            # A nudged ball rolling level on its support is neither falling nor tipping.
            velocity[np.ix_(rolling, [0, 2, 3, 4, 5])] = 0.0
        still = not len(velocity) or (
            velocity[:, :3].max() < REST_SPEED and velocity[:, 3:].max() < REST_SPIN
        )
        quiet = quiet + 1 if still else 0
        if quiet >= REST_CHECKS and done >= least:
            break
    return done


def _nudged_qpos(
    model: Any, seed: int, bodies: list[tuple[int, float]], seconds: float, rolling: list[int]
) -> FloatArray:
    """The scene's positions after `seconds` from rest, every free body (its velocity address
    and the height of its centre over its lowest point) given a push and a tilt drawn from
    `seed`. The tilt turns the body about its lowest point, as a hand tipping it would: its
    angular velocity is about a horizontal axis (body frames start aligned with the world's,
    so local and world axes agree) and its centre moves with it (omega x (0, h, 0))."""
    data = mujoco.MjData(model)
    rng = np.random.default_rng(seed)
    for address, height in bodies:
        push, tilt = rng.uniform(0.0, 2.0 * math.pi, size=2)
        omega = np.array([math.cos(tilt), 0.0, math.sin(tilt)]) * (TILT_SPEED / max(height, 0.01))
        swing = np.cross(omega, [0.0, height, 0.0])
        shove = np.array([math.cos(push), 0.0, math.sin(push)]) * PUSH_SPEED
        data.qvel[address : address + 3] = swing + shove
        data.qvel[address + 3 : address + 6] = omega
    simulate(model, data, max(1, round(seconds / NUDGE_TIMESTEP)), rolling)
    return np.array(data.qpos, dtype=np.float64)


def _judge_nudged(
    name: str, geom: CollisionGeom, position: FloatArray, quat: FloatArray, seed: int
) -> tuple[str, float, float, str] | None:
    """(verdict, drop, tilt, reason) when a nudge made the object fall or topple, else None."""
    how = f"when nudged (a {PUSH_SPEED:g} m/s push and a {TILT_SPEED:g} m/s tilt, seed {seed})"
    if not (np.all(np.isfinite(position)) and np.all(np.isfinite(quat))):
        return "unstable", 0.0, 0.0, f"{name}: the simulation blew up {how}"
    rotation = _quat_matrix(quat)
    after = (geom.points - geom.origin) @ rotation.T + position
    drop = float(geom.points[:, 1].min() - after[:, 1].min())
    tilt = math.degrees(math.acos(min(1.0, max(-1.0, float(rotation[1, 1])))))
    if drop > FALL_M:
        return "falls", drop, tilt, f"{name} falls {fmt(drop)} {how}: it is balanced, not resting"
    # A resting object rocks back within a degree or two. One that stays tipped and whose
    # centre went down has toppled; a ball or a pipe on its side rolls: it turns, but its centre
    # stays as high as it was.
    sink = float(geom.origin[1] - position[1])
    if tilt > TOPPLE_DEG and sink > SINK_M:
        reason = f"{name} topples {how}: it tips {tilt:.0f}° and its centre drops {fmt(sink)}"
        return "topples", drop, tilt, reason
    return None


def _perturb(
    model: Any,
    objects: tuple[SceneObject, ...],
    geoms: list[CollisionGeom],
    bodies: dict[int, tuple[int, int]],
    seeds: tuple[int, ...],
    seconds: float,
) -> dict[int, tuple[int, str, float, float, str]]:
    """Per object index, the first seed (and its verdict) under which a nudge topples it."""
    nudged = [
        (dof, float(geoms[index].origin[1] - geoms[index].points[:, 1].min()))
        for index, (_, dof) in bodies.items()
    ]
    rolling = [n for n, index in enumerate(bodies) if geoms[index].radius is not None]
    model.opt.timestep = NUDGE_TIMESTEP  # the rest run is done: the model is the nudges' now
    # Each seed steps its own MjData of the one compiled model (MuJoCo only reads the model
    # while stepping, and releases the GIL), so the seeds run side by side on their own threads;
    # every run is as deterministic as it is alone.
    with ThreadPoolExecutor(max_workers=max(1, len(seeds)), thread_name_prefix="nudge") as pool:
        runs = list(
            pool.map(lambda seed: _nudged_qpos(model, seed, nudged, seconds, rolling), seeds)
        )
    found: dict[int, tuple[int, str, float, float, str]] = {}
    for seed, qpos in zip(seeds, runs, strict=True):
        for index, (address, _) in bodies.items():
            if index in found:
                continue
            position, quat = qpos[address : address + 3], qpos[address + 3 : address + 7]
            judged = _judge_nudged(objects[index].name, geoms[index], position, quat, seed)
            if judged is not None:
                found[index] = (seed, *judged)
    return found


def stability(
    scene: Scene,
    world_mesh: WorldMesh,
    seconds: float = 1.5,
    tolerance_m: float = 0.01,
    tolerance_deg: float = 5.0,
    perturb_seeds: tuple[int, ...] = PERTURB_SEEDS,
) -> StabilityReport:
    """Simulate `seconds` and flag every dynamic object that moves or turns beyond tolerance;
    when nothing does, nudge the scene once per seed and flag what falls or topples."""
    started = time.perf_counter()
    world_mesh = cached(world_mesh)
    objects = scene.objects
    dynamic = [i for i, obj in enumerate(objects) if obj.physics.dynamic]
    static = [obj.name for obj in objects if not obj.physics.dynamic]
    notes: list[str] = []
    if any(obj.physics.collision == "mesh" for obj in objects):
        notes.append(
            "mesh collisions are simulated as convex hulls (MuJoCo collides convex shapes)"
        )
    if not dynamic:
        return StabilityReport(
            passed=True,
            value=0.0,
            summary="no dynamic objects: nothing can move",
            notes=notes,
            seconds=seconds,
            tolerance_m=tolerance_m,
            tolerance_deg=tolerance_deg,
            static=static,
            elapsed_s=time.perf_counter() - started,
        )
    geoms = [collision_geom(obj, world_mesh(obj)) for obj in objects]
    masses = [object_mass(obj, geom.volume) for obj, geom in zip(objects, geoms, strict=True)]
    for obj, geom in zip(objects, geoms, strict=True):
        if geom.kind == "thin box":
            notes.append(f"{obj.name} encloses no volume; it is simulated as a thin box")
    model = mujoco.MjModel.from_xml_string(build_mjcf(scene, geoms, masses))
    data = mujoco.MjData(model)
    built = time.perf_counter()
    steps = simulate(model, data, max(1, round(seconds / TIMESTEP)))
    simulated = time.perf_counter()

    bodies: dict[int, tuple[int, int]] = {}
    for index in dynamic:
        body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, f"b{index}")
        joint = model.body_jntadr[body]
        bodies[index] = (int(model.jnt_qposadr[joint]), int(model.jnt_dofadr[joint]))
    motions: list[Motion] = []
    for index in dynamic:
        address = bodies[index][0]
        position = np.array(data.qpos[address : address + 3], dtype=np.float64)
        quat = np.array(data.qpos[address + 3 : address + 7], dtype=np.float64)
        name = objects[index].name
        verdict, displacement, rotation, drop, reason = _judge(
            name, geoms[index], position, quat, seconds, tolerance_m, tolerance_deg
        )
        motions.append(
            Motion(
                name=name,
                verdict=verdict,
                displacement_m=float(np.linalg.norm(displacement)),
                displacement=[round(float(v), 6) for v in displacement],
                rotation_deg=rotation,
                drop_m=drop,
                mass_kg=masses[index],
                collision=geoms[index].kind,
                reason=reason,
            )
        )
    moved = [m for m in motions if m.verdict != "stable"]
    seeds = tuple(perturb_seeds) if not moved else ()
    if seeds:
        nudged = _perturb(model, objects, geoms, bodies, seeds, PERTURB_SECONDS)
        for slot, index in enumerate(dynamic):
            if index in nudged:
                seed, verdict, drop, tilt, reason = nudged[index]
                motions[slot] = replace(
                    motions[slot],
                    verdict=verdict,
                    drop_m=drop,
                    rotation_deg=max(motions[slot].rotation_deg, tilt),
                    reason=reason,
                    nudged=seed,
                )
        moved = [m for m in motions if m.verdict != "stable"]
    perturbed = time.perf_counter()
    motions.sort(key=lambda m: (m.verdict == "stable", -m.displacement_m))
    value = max((m.displacement_m for m in motions), default=0.0)
    return StabilityReport(
        passed=not moved,
        value=value,
        summary=(
            f"all {len(motions)} dynamic objects stay put for {seconds:g} s"
            + (f", and when nudged ({len(seeds)} seeds)" if seeds else "")
            if not moved
            else f"{len(moved)} of {len(motions)} dynamic objects move in {seconds:g} s"
        ),
        reasons=[m.reason for m in motions if m.verdict != "stable"],
        notes=notes,
        seconds=seconds,
        steps=steps,
        tolerance_m=tolerance_m,
        tolerance_deg=tolerance_deg,
        perturb_seeds=list(seeds),
        objects=motions,
        static=static,
        build_s=built - started,
        simulate_s=simulated - built,
        perturb_s=perturbed - simulated,
        elapsed_s=time.perf_counter() - started,
    )
