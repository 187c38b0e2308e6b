"""Exact triangle meshes for scene shapes, in metres with +Y up, and their place in the world.

Every primitive is built in the object's local frame with the dimensions its params give:

- box, sphere, cylinder, cone, capsule, torus and plane are centred on the origin (their bounding
  box's centre); round shapes stand along +Y (the cone's apex up) and the torus lies in XZ;
  cylinder, cone and capsule `height` is the total height, tip to tip.
- plane is a thin box (`PLANE_THICKNESS`, 1 mm) of size [x, z], so it stays a closed solid that
  physics and booleans can use.
- extrusion keeps its profile's [x, z] coordinates and spans y = -height/2 .. height/2.
- revolve turns its closed profile [[r, y], ...] about the Y axis, keeping the profile's y.
- boolean operands keep their own frames (each with an optional transform); mesh keeps the
  frame of the resolved file, times its optional scale.

Round shapes are tessellated (64 sections, spheres as subdivided icosahedra) with vertices on
every axis extreme, so bounding boxes are exact and volumes are within 1% of the analytic ones.
Solids are watertight with outward normals.

**Bounds first.** Before a shape is built its triangles (and its booleans' work) are bounded from
its parameters (`studio.scene.budget`); one over `MAX_SHAPE_TRIANGLES` or `MAX_BOOLEAN_TRIANGLES`
is refused with the estimate, having allocated nothing.

**Cache.** Built meshes of shapes that do not load a file are kept process-wide (`SHAPE_CACHE`,
least recently used first out, at most 256 MiB of arrays and 256 meshes: `shape_cache.py`),
keyed by the shape's canonical JSON; callers get a copy (with the topology trimesh
computed already), so a scene of a hundred crates builds one crate.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import trimesh

from studio.scene.budget import (
    CAPSULE_SECTIONS,
    MAX_BOOLEAN_DEPTH,
    MAX_BOOLEAN_TRIANGLES,
    MAX_SHAPE_TRIANGLES,
    SECTIONS,
    SPHERE_SUBDIVISIONS,
    TORUS_TUBE_SECTIONS,
    BudgetExceeded,
    over_budget,
    revolve_sections,
    shape_estimate,
)
from studio.scene.model import (
    MAX_SIZE_M,
    SHAPES,
    Scene,
    SceneError,
    SceneObject,
    Shape,
)
from studio.scene.shape_cache import ShapeCache
from studio.scene.shape_params import (
    length,
    lengths,
    points,
    profile,
    valid_polygon,
)
from studio.scene.solids import place
from studio.scene.transforms import Matrix, object_matrix, transform_from_dict

__all__ = [
    "GROUND_THICKNESS",
    "PLANE_THICKNESS",
    "MeshResolver",
    "ground_mesh",
    "lowest_point",
    "object_bounds",
    "object_matrix",
    "object_mesh",
    "shape_key",
    "shape_mesh",
    "world_bounds",
    "world_mesh",
]

MeshResolver = Callable[[str], trimesh.Trimesh]
"""Loads a mesh shape's `ref` (an uploaded artifact); raises SceneError for a ref it lacks."""

PLANE_THICKNESS = 0.001
GROUND_THICKNESS = 0.02
MAX_MESH_SCALE = 1e4
BOOLEAN_OPS = ("union", "difference", "intersection")

# trimesh builds round shapes along +Z; this exact quarter turn about X takes +Z to +Y.
_Z_UP_TO_Y_UP = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)

Params = dict[str, Any]


SHAPE_CACHE = ShapeCache(max_items=256, max_bytes=256 * 2**20)


def shape_mesh(
    shape: Shape, *, resolve_mesh: MeshResolver | None = None, shared: bool = False
) -> trimesh.Trimesh:
    """The shape's mesh in its object's local frame; SceneError names a bad or missing param.
    Each call returns a mesh of its own, which the caller may change; with `shared`, the cached
    mesh itself, the same object for the same shape, which the caller only reads (the
    renderer: no copy, and its geometry is recognised by identity)."""
    key = shape_key(shape)
    if key is None:
        check_shape_budget(shape, resolve_mesh=resolve_mesh)
        return _build(shape, resolve_mesh, depth=0)
    hit = SHAPE_CACHE.get(key)
    if hit is None:
        check_shape_budget(shape, resolve_mesh=resolve_mesh)
        hit = _build(shape, resolve_mesh, depth=0)
        _ = hit.is_volume  # computed once, with the topology a copy keeps
        SHAPE_CACHE.put(key, hit)
    return hit if shared else hit.copy(include_cache=True)


def check_shape_budget(shape: Shape, *, resolve_mesh: MeshResolver | None = None) -> None:
    """BudgetExceeded (a SceneError) when the shape's estimate is over the per-shape limits;
    a mesh ref counts its resolved faces (the importer bounds each file)."""
    faces = None if resolve_mesh is None else (lambda ref: len(resolve_mesh(ref).faces))
    estimate = shape_estimate(shape.kind, shape.params, mesh_faces=faces)
    reason = over_budget(
        estimate,
        what=f"this {shape.kind}",
        max_triangles=MAX_SHAPE_TRIANGLES,
        max_boolean_triangles=MAX_BOOLEAN_TRIANGLES,
    )
    if reason:
        raise BudgetExceeded(reason)


def shape_cache_bytes() -> int:
    """The bytes of vertex, face and cached topology arrays the shape cache holds."""
    return SHAPE_CACHE.bytes


def is_shared(mesh: trimesh.Trimesh) -> bool:
    """Whether `mesh` is a cached shape mesh (`shape_mesh(..., shared=True)`), which nobody
    changes: the same object always holds the same triangles."""
    return SHAPE_CACHE.holds(mesh)


def shape_key(shape: Shape) -> str | None:
    """The shape's canonical JSON; None for one that loads a file (a mesh, or a boolean with
    one) or whose params are not plain JSON."""
    try:
        key = json.dumps([shape.kind, shape.params], sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return None if shape.kind == "mesh" or '"mesh"' in key else key


def object_mesh(
    obj: SceneObject, *, resolve_mesh: MeshResolver | None = None, shared: bool = False
) -> trimesh.Trimesh:
    """`shape_mesh` for an object, with errors that name the object."""
    try:
        return shape_mesh(obj.shape, resolve_mesh=resolve_mesh, shared=shared)
    except SceneError as error:
        raise SceneError(f"object {obj.name!r}: {error}") from error


def world_mesh(obj: SceneObject, *, resolve_mesh: MeshResolver | None = None) -> trimesh.Trimesh:
    """The object's mesh placed in the world by its transform (a mesh of its own; it knows its
    enclosed volume from the shape's, see `studio.scene.solids`)."""
    shape = object_mesh(obj, resolve_mesh=resolve_mesh, shared=True)  # only read
    return place(shape, object_matrix(obj.transform))


def object_bounds(obj: SceneObject, *, resolve_mesh: MeshResolver | None = None) -> Matrix:
    """The object's axis-aligned bounds in the world, [[min x, y, z], [max x, y, z]]."""
    return cast(Matrix, world_mesh(obj, resolve_mesh=resolve_mesh).bounds.copy())


def lowest_point(obj: SceneObject, *, resolve_mesh: MeshResolver | None = None) -> float:
    """The object's lowest world y: 0 when it rests on the ground, below 0 when it sinks in."""
    return float(object_bounds(obj, resolve_mesh=resolve_mesh)[0, 1])


def world_bounds(scene: Scene, *, resolve_mesh: MeshResolver | None = None) -> Matrix | None:
    """The bounds of all objects in the world (the ground left out); None for an empty scene."""
    if not scene.objects:
        return None
    bounds = np.array([object_bounds(obj, resolve_mesh=resolve_mesh) for obj in scene.objects])
    return np.array([bounds[:, 0].min(axis=0), bounds[:, 1].max(axis=0)])


def ground_mesh(scene: Scene) -> trimesh.Trimesh:
    """The ground as a world-frame slab of ground_size x ground_size, its top face at y = 0."""
    size = scene.ground_size
    mesh = trimesh.creation.box(extents=[size, GROUND_THICKNESS, size])
    mesh.apply_translation([0.0, -GROUND_THICKNESS / 2, 0.0])
    return cast(trimesh.Trimesh, mesh)


def _build(shape: Shape, resolve_mesh: MeshResolver | None, depth: int) -> trimesh.Trimesh:
    if shape.kind not in SHAPES:
        raise SceneError(f"shape kind must be one of {', '.join(SHAPES)}, not {shape.kind!r}")
    params = shape.params if isinstance(shape.params, dict) else {}
    if shape.kind == "boolean":
        return _boolean(params, resolve_mesh, depth)
    if shape.kind == "mesh":
        return _mesh(params, resolve_mesh)
    return _PRIMITIVES[shape.kind](params)


def _box(params: Params) -> trimesh.Trimesh:
    x, y, z = lengths(params, "size", "box", ("x", "y", "z"))
    return cast(trimesh.Trimesh, trimesh.creation.box(extents=[x, y, z]))


def _plane(params: Params) -> trimesh.Trimesh:
    x, z = lengths(params, "size", "plane", ("x", "z"))
    return cast(trimesh.Trimesh, trimesh.creation.box(extents=[x, PLANE_THICKNESS, z]))


def _sphere(params: Params) -> trimesh.Trimesh:
    radius = length(params, "radius", "sphere")
    return cast(trimesh.Trimesh, trimesh.creation.icosphere(SPHERE_SUBDIVISIONS, radius=radius))


def _cylinder(params: Params) -> trimesh.Trimesh:
    radius, height = length(params, "radius", "cylinder"), length(params, "height", "cylinder")
    mesh = trimesh.creation.cylinder(radius=radius, height=height, sections=SECTIONS)
    return _stand_up(cast(trimesh.Trimesh, mesh))


def _cone(params: Params) -> trimesh.Trimesh:
    radius, height = length(params, "radius", "cone"), length(params, "height", "cone")
    mesh = trimesh.creation.cone(radius=radius, height=height, sections=SECTIONS)
    mesh.apply_translation([0.0, 0.0, -height / 2])  # trimesh puts the base at z = 0
    return _stand_up(mesh)


def _capsule(params: Params) -> trimesh.Trimesh:
    radius, height = length(params, "radius", "capsule"), length(params, "height", "capsule")
    if height < 2 * radius:
        raise SceneError(
            f"capsule height is the total, tip to tip, so it must be at least twice the radius "
            f"({2 * radius:g} m), not {height:g} m"
        )
    # trimesh's capsule height runs between the centres of its two end caps.
    mesh = trimesh.creation.capsule(
        height=height - 2 * radius, radius=radius, count=[CAPSULE_SECTIONS, CAPSULE_SECTIONS]
    )
    return _stand_up(mesh)


def _torus(params: Params) -> trimesh.Trimesh:
    major = length(params, "major_radius", "torus")
    minor = length(params, "minor_radius", "torus")
    if minor >= major:
        raise SceneError(
            f"torus minor_radius ({minor:g} m) must be smaller than major_radius ({major:g} m), "
            "or the ring passes through itself"
        )
    mesh = trimesh.creation.torus(major, minor, SECTIONS, TORUS_TUBE_SECTIONS)
    return _stand_up(cast(trimesh.Trimesh, mesh))


def _extrusion(params: Params) -> trimesh.Trimesh:
    height = length(params, "height", "extrusion")
    outline = profile(params, "extrusion", ("x", "z"))
    holes = params.get("holes") or []
    if not isinstance(holes, list):
        raise SceneError("extrusion holes must be a list of profiles [[x, z], ...]")
    hole_rings = [points(hole, "extrusion hole", ("x", "z")) for hole in holes]
    # Mirror z so that the quarter turn to +Y up brings each profile point back to its own z.
    polygon = valid_polygon(
        [(x, -z) for x, z in outline],
        [[(x, -z) for x, z in ring] for ring in hole_rings],
        "extrusion",
    )
    mesh = trimesh.creation.extrude_polygon(polygon, height)
    mesh.apply_translation([0.0, 0.0, -height / 2])
    return _outward(_stand_up(mesh))


def _revolve(params: Params) -> trimesh.Trimesh:
    outline = profile(params, "revolve", ("r", "y"))
    if min(r for r, _ in outline) < 0:
        raise SceneError("revolve profile radii r must be >= 0: the profile stays right of Y")
    valid_polygon(outline, [], "revolve")
    sections = revolve_sections(params.get("sections", SECTIONS))
    ring = np.array([*outline, outline[0]], dtype=np.float64)
    mesh = trimesh.creation.revolve(ring, sections=sections)
    mesh.merge_vertices()  # points on the axis repeat once per section
    mesh.update_faces(mesh.nondegenerate_faces())
    mesh.remove_unreferenced_vertices()
    return _outward(_stand_up(mesh))


def _boolean(params: Params, resolve_mesh: MeshResolver | None, depth: int) -> trimesh.Trimesh:
    if depth >= MAX_BOOLEAN_DEPTH:
        raise SceneError(f"booleans may nest at most {MAX_BOOLEAN_DEPTH} deep")
    op = params.get("op")
    if op not in BOOLEAN_OPS:
        raise SceneError(f"boolean op must be one of {', '.join(BOOLEAN_OPS)}, not {op!r}")
    a, b = (_operand(params, key, resolve_mesh, depth) for key in ("a", "b"))
    combine = {
        "union": trimesh.boolean.union,
        "difference": trimesh.boolean.difference,
        "intersection": trimesh.boolean.intersection,
    }[op]
    result = cast(trimesh.Trimesh, combine([a, b], engine="manifold"))
    if result.is_empty or len(result.faces) == 0:
        raise SceneError(f"boolean {op} of a and b leaves nothing: do they overlap?")
    return result


def _operand(
    params: Params, key: str, resolve_mesh: MeshResolver | None, depth: int
) -> trimesh.Trimesh:
    data = params.get(key)
    if not isinstance(data, dict) or data.get("kind") not in SHAPES:
        raise SceneError(
            f"boolean {key} must be a shape {{kind, params}} with kind one of {', '.join(SHAPES)}"
        )
    inner = dict(data.get("params") or {})
    transform = transform_from_dict(
        data.get("transform", inner.pop("transform", None)), f"boolean {key}"
    )
    try:
        mesh = _build(Shape(kind=data["kind"], params=inner), resolve_mesh, depth + 1)
    except SceneError as error:
        raise SceneError(f"boolean {key}: {error}") from error
    if not mesh.is_volume:
        raise SceneError(f"boolean {key} ({data['kind']}) is not a closed solid, so it cannot cut")
    mesh.apply_transform(object_matrix(transform))
    return mesh


def _mesh(params: Params, resolve_mesh: MeshResolver | None) -> trimesh.Trimesh:
    ref = params.get("ref")
    if not isinstance(ref, str) or not ref.strip():
        raise SceneError("mesh needs ref, the uploaded mesh it shows")
    if resolve_mesh is None:
        raise SceneError(f"mesh {ref!r} cannot be loaded here (no mesh resolver was given)")
    loaded = resolve_mesh(ref)
    if not isinstance(loaded, trimesh.Trimesh) or len(loaded.faces) == 0:
        raise SceneError(f"mesh {ref!r} has no triangles")
    mesh = loaded.copy()  # the resolver may cache; never scale its copy
    mesh.apply_transform(np.diag([*_mesh_scale(params.get("scale", 1.0), ref), 1.0]))
    if not np.isfinite(mesh.vertices).all():
        raise SceneError(f"mesh {ref!r} has NaN or infinite coordinates")
    size = float(mesh.extents.max())
    if size > MAX_SIZE_M:
        raise SceneError(
            f"mesh {ref!r} is {size:g} m across at this scale; the most is {MAX_SIZE_M:g} m "
            "(a file in millimetres needs scale 0.001)"
        )
    return mesh


def _mesh_scale(value: Any, ref: str) -> list[float]:
    values = value if isinstance(value, list | tuple) else [value, value, value]
    if len(values) != 3:
        raise SceneError(f"mesh {ref!r} scale must be a number or three numbers [x, y, z]")
    for part in values:
        if isinstance(part, bool) or not isinstance(part, int | float) or not math.isfinite(part):
            raise SceneError(f"mesh {ref!r} scale must be finite numbers, not {part!r}")
        if not 0 < part <= MAX_MESH_SCALE:
            raise SceneError(f"mesh {ref!r} scale must be above 0 and at most {MAX_MESH_SCALE:g}")
    return [float(part) for part in values]


def _stand_up(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    mesh.apply_transform(_Z_UP_TO_Y_UP)
    return mesh


def _outward(mesh: trimesh.Trimesh) -> trimesh.Trimesh:
    if mesh.volume < 0:  # a clockwise profile winds the faces inside out
        mesh.invert()
    return mesh


_PRIMITIVES: dict[str, Callable[[Params], trimesh.Trimesh]] = {
    "box": _box,
    "plane": _plane,
    "sphere": _sphere,
    "cylinder": _cylinder,
    "cone": _cone,
    "capsule": _capsule,
    "torus": _torus,
    "extrusion": _extrusion,
    "revolve": _revolve,
}
