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
* `mesh`: also the convex hull: MuJoCo collides meshes as convex, so a bowl is a solid lump here;
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
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import mujoco  # type: ignore[import-untyped]
import numpy as np
import trimesh
from scipy.spatial import ConvexHull  # type: ignore[import-untyped]
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]

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


@dataclass(kw_only=True)
class StabilityReport(Report):
    check: str = "stability"
    unit: str = "m"
    seconds: float = 1.5
    timestep: float = TIMESTEP
    steps: int = 0
    tolerance_m: float = 0.01
    tolerance_deg: float = 5.0
    objects: list[Motion] = field(default_factory=list)
    """Every dynamic object, the ones that moved first."""
    static: list[str] = field(default_factory=list)
    build_s: float = 0.0
    simulate_s: float = 0.0

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
        if geom.half_size is None and geom.radius is None:
            # MuJoCo keeps a mesh where its vertices say, in the frame of the body holding it.
            assets.append(f'<mesh name="m{index}" vertex="{_numbers(geom.points - origin)}"/>')
        friction = f'friction="{obj.physics.friction:.9g} 0.005 0.0001"'
        if dynamic:
            extra = f'{friction} mass="{masses[index]:.9g}"'
            bodies.append(
                f'<body name="b{index}" pos="{_numbers(origin)}"><freejoint/>'
                f"{_geom_xml(index, geom, origin, extra)}</body>"
            )
        elif parts := union_parts(obj):
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


def stability(
    scene: Scene,
    world_mesh: WorldMesh,
    seconds: float = 1.5,
    tolerance_m: float = 0.01,
    tolerance_deg: float = 5.0,
) -> StabilityReport:
    """Simulate `seconds` and flag every dynamic object that moves or turns beyond tolerance."""
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
    steps = max(1, round(seconds / TIMESTEP))
    mujoco.mj_step(model, data, nstep=steps)
    simulated = time.perf_counter()

    motions: list[Motion] = []
    for index in dynamic:
        body = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, f"b{index}")
        address = int(model.jnt_qposadr[model.body_jntadr[body]])
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
    motions.sort(key=lambda m: (m.verdict == "stable", -m.displacement_m))
    value = max((m.displacement_m for m in motions), default=0.0)
    return StabilityReport(
        passed=not moved,
        value=value,
        summary=(
            f"all {len(motions)} dynamic objects stay put for {seconds:g} s"
            if not moved
            else f"{len(moved)} of {len(motions)} dynamic objects move in {seconds:g} s"
        ),
        reasons=[m.reason for m in motions if m.verdict != "stable"],
        notes=notes,
        seconds=seconds,
        steps=steps,
        tolerance_m=tolerance_m,
        tolerance_deg=tolerance_deg,
        objects=motions,
        static=static,
        build_s=built - started,
        simulate_s=simulated - built,
        elapsed_s=time.perf_counter() - started,
    )
