"""How many triangles a shape will have, bounded from its parameters before anything is built.

Building is where a scene costs time and memory (a 500-point, 256-section revolve is 256,000
triangles; booleans of them take seconds each), so every limit is checked here first, on the
plain data: each kind has an upper bound from its tessellation (a box 12, a revolve 2 x points
x sections...), a boolean at most the sum of its operands, a mesh its stored face count. A
boolean's work is the triangles it combines; nested booleans add theirs up.

Plain code without trimesh, so the API can estimate a scene without loading geometry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from studio.scene.model import Scene, SceneError

SECTIONS = 64
SPHERE_SUBDIVISIONS = 4
TORUS_TUBE_SECTIONS = 32
CAPSULE_SECTIONS = 32
MAX_SECTIONS = 256
MAX_PROFILE_POINTS = 1000
MAX_HOLES = 100
MAX_BOOLEAN_DEPTH = 8

MAX_SHAPE_TRIANGLES = 1_000_000
"""The most triangles one shape may build, wherever it is built (edits, agent tools, exports)."""
MAX_BOOLEAN_TRIANGLES = 500_000
"""The most operand triangles one shape's booleans may combine (about 4 s of manifold work)."""

MeshFaces = Callable[[str], int]
"""The face count of a mesh shape's `ref` (an upload); raises SceneError for a ref it lacks."""

_FIXED: dict[str, int] = {
    "box": 12,
    "plane": 12,
    "sphere": 20 * 4**SPHERE_SUBDIVISIONS,  # an icosahedron, each face split in four per level
    "cylinder": 4 * SECTIONS,
    "cone": 2 * SECTIONS,
    "capsule": 2 * CAPSULE_SECTIONS * CAPSULE_SECTIONS,
    "torus": 2 * SECTIONS * TORUS_TUBE_SECTIONS,
}


class BudgetExceeded(SceneError):
    """A shape or scene whose estimate is over a limit; nothing was built."""


@dataclass(frozen=True)
class Estimate:
    """Upper bounds: the triangles built, and the operand triangles its booleans combine."""

    triangles: int
    boolean_triangles: int = 0

    def __add__(self, other: Estimate) -> Estimate:
        return Estimate(
            self.triangles + other.triangles, self.boolean_triangles + other.boolean_triangles
        )


def shape_estimate(
    kind: Any, params: Any, *, mesh_faces: MeshFaces | None = None, depth: int = 0
) -> Estimate:
    """The shape's bound; SceneError for a size parameter over its limit. Other bad values count
    as nothing here: the builder names them. Without `mesh_faces` a mesh counts as nothing."""
    params = params if isinstance(params, dict) else {}
    if kind in _FIXED:
        return Estimate(_FIXED[kind])
    if kind == "revolve":
        points = _point_count(params.get("profile"), "revolve profile")
        return Estimate(2 * (points + 1) * revolve_sections(params.get("sections", SECTIONS)))
    if kind == "extrusion":
        return Estimate(4 * _extrusion_points(params))
    if kind == "boolean":
        return _boolean(params, mesh_faces, depth)
    if kind == "mesh" and mesh_faces is not None and isinstance(params.get("ref"), str):
        return Estimate(mesh_faces(params["ref"]))
    return Estimate(0)


def scene_estimate(scene: Scene, *, mesh_faces: MeshFaces | None = None) -> Estimate:
    """The sum of every object's bound; SceneError names the object with a bad size parameter."""
    total = Estimate(0)
    for item in scene.objects:
        try:
            total += shape_estimate(item.shape.kind, item.shape.params, mesh_faces=mesh_faces)
        except SceneError as error:
            raise SceneError(f"object {item.name!r}: {error}") from error
    return total


def over_budget(
    estimate: Estimate, *, what: str, max_triangles: int, max_boolean_triangles: int
) -> str | None:
    """Why `what` ("this scene") may not be built, or None when its estimate is within limits."""
    if estimate.triangles > max_triangles:
        return (
            f"{what} would have about {estimate.triangles:,} triangles; "
            f"the limit is {max_triangles:,}"
        )
    if estimate.boolean_triangles > max_boolean_triangles:
        return (
            f"{what}'s booleans would combine about {estimate.boolean_triangles:,} triangles; "
            f"the limit is {max_boolean_triangles:,}"
        )
    return None


def revolve_sections(value: Any) -> int:
    """A revolve's section count; SceneError unless a whole number from 3 to MAX_SECTIONS."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise SceneError(f"revolve sections must be a whole number, not {value!r}")
    if not 3 <= value <= MAX_SECTIONS:
        raise SceneError(f"revolve sections must be between 3 and {MAX_SECTIONS}, not {value}")
    return value


def _point_count(value: Any, what: str) -> int:
    if not isinstance(value, list | tuple):
        return 0
    if len(value) > MAX_PROFILE_POINTS + 1:  # a closed ring repeats its first point
        raise SceneError(f"{what} must be a list of at most {MAX_PROFILE_POINTS} points")
    return len(value)


def _extrusion_points(params: dict[str, Any]) -> int:
    holes = params.get("holes") or []
    holes = holes if isinstance(holes, list) else []
    if len(holes) > MAX_HOLES:
        raise SceneError(f"extrusion may have at most {MAX_HOLES} holes, not {len(holes)}")
    points = _point_count(params.get("profile"), "extrusion profile")
    # Caps triangulate each ring (one more triangle per hole's bridge), sides two per edge.
    return points + sum(_point_count(hole, "extrusion hole") + 1 for hole in holes)


def _boolean(params: dict[str, Any], mesh_faces: MeshFaces | None, depth: int) -> Estimate:
    if depth >= MAX_BOOLEAN_DEPTH:
        raise SceneError(f"booleans may nest at most {MAX_BOOLEAN_DEPTH} deep")
    total = Estimate(0)
    for key in ("a", "b"):
        operand = params.get(key)
        if not isinstance(operand, dict):
            continue
        try:
            total += shape_estimate(
                operand.get("kind"), operand.get("params"), mesh_faces=mesh_faces, depth=depth + 1
            )
        except SceneError as error:
            raise SceneError(f"boolean {key}: {error}") from error
    # Manifold's result has about the operands' triangles; combining them is the work.
    return Estimate(total.triangles, total.boolean_triangles + total.triangles)
