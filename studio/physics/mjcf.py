"""The MuJoCo model of a scene: collision shapes, masses and the MJCF text (for `stability`).

The model is MJCF built in memory: gravity -9.81 along Y; the ground as a plane whose normal is
turned to +Y (a quarter turn about X), top at y = 0 (MuJoCo collides planes as unbounded, so
unlike `support` the simulation does not let things fall off the `ground_size` square; MuJoCo's
default Euler integrator at 4 ms steps, under half the 0.02 s time constant of its default
contacts); one body with a free joint per dynamic object; every static object as geoms of the
world body. Collision shapes:

* `box`: a box aligned with the object's own rotation that encloses its world mesh (the object's
  oriented bounding box, exact for boxes);
* `convex`: the convex hull of the world mesh (vertices written inline in `<asset><mesh>`); a
  fine mesh's hull is reduced to its farthest vertices in 256 spread directions and along the
  axes (inside the true hull by about 1 % of the size at most; extremes such as the lowest
  point exact), which MuJoCo compiles and collides several times faster; a hull whose vertices
  are all as far from its centre (within 2 %: a ball) becomes a true sphere, which rests on one
  point and rolls as a ball does, where a polyhedron tips off the vertex it stands on;
* `mesh`: also the convex hull: MuJoCo collides meshes as convex;
* `convex pieces` (`CollisionGeom.parts`): a concave object collides as several convex pieces,
  so what rests inside it rests on its floor. A hollow revolved object (a bowl, a cup: a profile
  filling under 80 % of its hull) as pieces of its wall (`hollow_parts`); a boolean union as its
  parts (`union_parts`: always when static, so the space under a table's top stays free, and
  when it fills under 85 % of its hull when dynamic); any other closed mesh filling under 85 %
  of its hull (an open box, a tray, a drawer, an uploaded concave mesh) as the pieces
  `decompose.convex_pieces` finds: exact boxes for a solid whose faces are all square to the
  object's axes, else V-HACD's approximate ones. A dynamic object's pieces share its mass by
  volume; `points` stays the whole hull (for judging motion);
* a mesh with no volume (a plane, a flat sheet) becomes a thin box.

Mass is `physics.mass`, else density * volume (the mesh's volume, or its hull's when it is not
closed), where density is `physics.density`, unless that was left at its default and the material
is a known one (`materials.DENSITY`, e.g. 7850 for steel). Friction is the object's own: the ground
has none of its own (MuJoCo uses the larger of two touching friction coefficients, so the
object's applies on the ground, and the larger of two objects' between them). Restitution is not
modelled: MuJoCo's default soft contacts are inelastic. Objects start at rest.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import trimesh
from scipy.spatial import ConvexHull  # type: ignore[import-untyped]
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]
from shapely.geometry import Polygon  # type: ignore[import-untyped]

from studio.physics.common import FloatArray, rotation_matrix
from studio.physics.decompose import convex_pieces, is_concave
from studio.scene.geometry import shape_key, shape_mesh
from studio.scene.materials import DENSITY
from studio.scene.model import Physics, Scene, SceneObject, Shape
from studio.scene.solids import enclosed_volume
from studio.scene.transforms import object_matrix, transform_from_dict

TIMESTEP = 0.004
GRAVITY = 9.81
HOLLOW_FILL = 0.8
HOLLOW_SECTORS = 16
MIN_HALF_SIZE = 5e-4
MIN_MASS = 1e-4
HULL_DIRECTIONS = 256
SPHERE_SPREAD = 0.02


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
    parts: list[FloatArray] = field(default_factory=list)
    """World vertices of convex pieces: a static object with any collides as them, a dynamic one
    when `kind` is "convex pieces" (a static union keeps its parts even when nearly convex)."""


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


_GEOM_CACHE_SIZE = 512
_GEOM_CACHE: OrderedDict[tuple[Any, ...], CollisionGeom] = OrderedDict()
_GEOM_CACHE_LOCK = threading.Lock()


def collision_geom(obj: SceneObject, mesh: trimesh.Trimesh) -> CollisionGeom:
    """The object's collision shape in the world (`mesh` is its world mesh).

    The shape does not depend on where the object stands: it is kept process-wide per (shape,
    scale, rotation, collision) and moved to the object's translation, so a hundred crates hull
    one crate."""
    shape = shape_key(obj.shape)
    if shape is None:
        return _collision_geom(obj, mesh)
    key = (
        shape,
        tuple(map(float, obj.transform.scale)),
        tuple(map(float, obj.transform.rotation)),
        obj.physics.collision,
    )
    offset = np.asarray(obj.transform.translation, dtype=np.float64)
    with _GEOM_CACHE_LOCK:
        local = _GEOM_CACHE.get(key)
        if local is not None:
            _GEOM_CACHE.move_to_end(key)
    if local is None:
        world = _collision_geom(obj, mesh)
        local = _moved(world, -offset)
        with _GEOM_CACHE_LOCK:
            _GEOM_CACHE[key] = local
            while len(_GEOM_CACHE) > _GEOM_CACHE_SIZE:
                _GEOM_CACHE.popitem(last=False)
    return _moved(local, offset)


def _moved(geom: CollisionGeom, offset: FloatArray) -> CollisionGeom:
    return replace(
        geom,
        origin=geom.origin + offset,
        points=geom.points + offset,
        parts=[part + offset for part in geom.parts],
    )


def _concave_parts(
    obj: SceneObject, mesh: trimesh.Trimesh, volume: float, hull_volume: float
) -> tuple[list[FloatArray], bool]:
    """World vertices of the object's convex pieces (see the module docstring), and whether
    it is concave (a dynamic object collides as its pieces only then)."""
    if hollow := hollow_parts(obj):
        return hollow, True
    concave = enclosed_volume(mesh) is not None and is_concave(volume, hull_volume)
    if union := union_parts(obj):
        return union, concave
    if not concave:
        return [], False
    offset = np.asarray(obj.transform.translation, dtype=np.float64)
    body = trimesh.Trimesh(mesh.vertices - offset, mesh.faces, process=False)
    pieces = convex_pieces(body, rotation_matrix(obj.transform.rotation))
    return [piece + offset for piece in pieces], bool(pieces)


def _collision_geom(obj: SceneObject, mesh: trimesh.Trimesh) -> CollisionGeom:
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
            enclosed = enclosed_volume(mesh)
            volume = enclosed if enclosed is not None else float(hull.volume)
            distances = np.linalg.norm(points - origin, axis=1)
            radius = float(distances.max())
            extents = points.max(axis=0) - points.min(axis=0)
            if (
                len(points) >= 20
                and radius - float(distances.min()) <= SPHERE_SPREAD * radius
                and float(extents.min()) >= 2 * radius * (1 - SPHERE_SPREAD)
            ):
                return CollisionGeom("sphere", origin, points, abs(volume), radius=radius)
            parts, concave = _concave_parts(obj, mesh, abs(volume), float(hull.volume))
            kind = "convex pieces" if concave else "convex hull"
            return CollisionGeom(kind, origin, points, abs(volume), parts=parts)
    rotation = rotation_matrix(obj.transform.rotation)
    local = vertices @ rotation  # each row: R^T v, the vertex in the object's rotated frame
    low, high = local.min(axis=0), local.max(axis=0)
    half = np.maximum((high - low) / 2.0, MIN_HALF_SIZE)
    centre = rotation @ ((low + high) / 2.0)
    signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    corners = centre + (signs * half) @ rotation.T
    x, y, z, w = Rotation.from_matrix(rotation).as_quat()
    kind = "box" if obj.physics.collision == "box" else "thin box"
    enclosed = enclosed_volume(mesh)
    volume = enclosed if enclosed is not None else float(np.prod(2 * half))
    # A box collision keeps a bowl's wall and a union's parts, as it always has.
    hollow = hollow_parts(obj)
    return CollisionGeom(
        "convex pieces" if hollow else kind,
        centre,
        corners,
        abs(volume),
        half,
        np.array([w, x, y, z], dtype=np.float64),
        parts=hollow or union_parts(obj),
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
        parts = geom.parts if geom.kind == "convex pieces" or not dynamic else []
        if geom.half_size is None and geom.radius is None and not parts:
            # MuJoCo keeps a mesh where its vertices say, in the frame of the body holding it.
            assets.append(f'<mesh name="m{index}" vertex="{_numbers(geom.points - origin)}"/>')
        friction = f'friction="{obj.physics.friction:.9g} 0.005 0.0001"'
        if dynamic and parts:
            # A concave object (a bowl, an open box) as convex pieces, sharing its mass by
            # volume: one hull around it all would fill its inside.
            volumes = [max(_hull_volume(part), 1e-12) for part in parts]
            pieces = []
            for number, (part, volume) in enumerate(zip(parts, volumes, strict=True)):
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
        elif parts:
            # A static union (a table: top and legs) or concave object collides part by part,
            # so the space under its top or inside it stays free.
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
