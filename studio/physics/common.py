"""What the physics checks share: the world-mesh callable, report base, transforms and a
vectorised vertical ray cast (the footprint sampling behind the support check and its fix).

Conventions are the scene model's: metres, +Y up, the ground's top at y = 0, Euler degrees applied
X, then Y, then Z (extrinsic). The checks never build meshes themselves: they take a callable
`world_mesh(obj) -> trimesh.Trimesh` that returns the object's mesh in world coordinates. Moving an
object's `translation` by d is assumed to move that mesh by d (world = T · R · S · local).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray
from scipy.spatial.transform import Rotation  # type: ignore[import-untyped]

from studio.scene.model import Scene, SceneObject, Transform

WorldMesh = Callable[[SceneObject], trimesh.Trimesh]
FloatArray = NDArray[np.float64]

GROUND = "ground"


@dataclass(kw_only=True)
class Report:
    """Every check's report: `passed`, one headline number (`value`, in `unit`), the reasons a
    person reads when it fails and notes that do not fail it. JSON-ready through `to_dict`."""

    check: str
    passed: bool
    value: float
    unit: str
    summary: str = ""
    reasons: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    """Doubts that do not fail the check but must reach the person (a stated size that looks
    unusual): the answer repeats them."""
    elapsed_s: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def cached(world_mesh: WorldMesh) -> WorldMesh:
    """`world_mesh` memoised per object (by identity; the cache keeps the objects alive, so an id
    is never reused while it lives). Wrap once and pass the result to several checks."""
    if getattr(world_mesh, "_physics_cached", False):
        return world_mesh
    store: dict[int, tuple[SceneObject, trimesh.Trimesh]] = {}

    def lookup(obj: SceneObject) -> trimesh.Trimesh:
        hit = store.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = (obj, world_mesh(obj))
            store[id(obj)] = hit
        return hit[1]

    lookup._physics_cached = True  # type: ignore[attr-defined]
    return lookup


def rotation_matrix(rotation_deg: Iterable[float]) -> FloatArray:
    """The 3x3 rotation of Euler degrees applied X, then Y, then Z about the world axes."""
    matrix: FloatArray = Rotation.from_euler("xyz", list(rotation_deg), degrees=True).as_matrix()
    return matrix


def euler_from_matrix(matrix: FloatArray) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in Rotation.from_matrix(matrix).as_euler("xyz", degrees=True))
    return (_clean(x), _clean(y), _clean(z))


def _clean(value: float, digits: int = 9) -> float:
    out = round(value, digits)
    return 0.0 if out == 0 else out


def translated(obj: SceneObject, dx: float = 0.0, dy: float = 0.0, dz: float = 0.0) -> SceneObject:
    x, y, z = obj.transform.translation
    moved = (_clean(x + dx), _clean(y + dy), _clean(z + dz))
    return replace(obj, transform=replace(obj.transform, translation=moved))


def with_transform(obj: SceneObject, **changes: Any) -> SceneObject:
    transform: Transform = replace(obj.transform, **changes)
    return replace(obj, transform=transform)


def replace_objects(scene: Scene, objects: dict[str, SceneObject]) -> Scene:
    """The scene with the objects named in `objects` replaced, order kept."""
    return replace(scene, objects=tuple(objects.get(o.name, o) for o in scene.objects))


def bounds(mesh: trimesh.Trimesh) -> FloatArray:
    """The mesh's world AABB as a (2, 3) array [min, max]."""
    vertices = np.asarray(mesh.vertices, dtype=np.float64)
    if len(vertices) == 0:
        return np.zeros((2, 3))
    return np.array([vertices.min(axis=0), vertices.max(axis=0)])


def ground_covers(scene: Scene, x: FloatArray, z: FloatArray) -> NDArray[np.bool_]:
    """Where the ground plane (a square of `ground_size`, centred on the origin) lies under XZ."""
    if not scene.ground:
        return np.zeros(np.shape(x), dtype=bool)
    half = scene.ground_size / 2.0
    covered: NDArray[np.bool_] = (np.abs(x) <= half + 1e-9) & (np.abs(z) <= half + 1e-9)
    return covered


def fmt(metres: float) -> str:
    """A length as people read it in reasons: 0.12 m, 0.003 m, 3.2 m."""
    value = abs(metres)
    if value >= 0.1:
        return f"{metres:.2f} m"
    if value >= 0.01:
        return f"{metres:.3f} m"
    return f"{metres:.4f} m"


def the(name: str) -> str:
    return "the ground" if name == GROUND else name


@dataclass(frozen=True)
class Triangles:
    """A mesh's triangles prepared for vertical ray casts (rays along ±Y through XZ points)."""

    corners: FloatArray  # (F, 3, 3)
    up: NDArray[np.bool_]  # (F,) the face looks upwards (normal y > 0)
    xz_min: FloatArray  # (F, 2)
    xz_max: FloatArray  # (F, 2)

    @staticmethod
    def of(mesh: trimesh.Trimesh) -> Triangles:
        return Triangles.of_each([mesh])[0]

    def subset(self, mask: NDArray[np.bool_]) -> Triangles:
        return Triangles(self.corners[mask], self.up[mask], self.xz_min[mask], self.xz_max[mask])

    @staticmethod
    def concatenate(sets: Sequence[Triangles]) -> Triangles:
        if not sets:
            return Triangles(
                np.zeros((0, 3, 3)), np.zeros(0, bool), np.zeros((0, 2)), np.zeros((0, 2))
            )
        return Triangles(
            np.concatenate([t.corners for t in sets]),
            np.concatenate([t.up for t in sets]),
            np.concatenate([t.xz_min for t in sets]),
            np.concatenate([t.xz_max for t in sets]),
        )

    @staticmethod
    def of_each(meshes: Sequence[trimesh.Trimesh]) -> list[Triangles]:
        """Each mesh's triangles (`of`), from one pass over all of them. Faces seen edge-on from
        above (no XZ area, against the mesh's own spread) are left out: a vertical ray cannot
        hit them."""
        corners = [
            np.asarray(mesh.triangles, dtype=np.float64).reshape(-1, 3, 3) for mesh in meshes
        ]
        counts = np.array([len(c) for c in corners], dtype=np.intp)
        every = np.concatenate(corners) if corners else np.zeros((0, 3, 3))
        owner = np.repeat(np.arange(len(meshes)), counts)
        edges_a = every[:, 1] - every[:, 0]
        edges_b = every[:, 2] - every[:, 0]
        normal_y = edges_a[:, 2] * edges_b[:, 0] - edges_a[:, 0] * edges_b[:, 2]
        xz = every[:, :, [0, 2]]
        xz_min, xz_max = xz.min(axis=1), xz.max(axis=1)
        # Per mesh: the spread of all its X and Z coordinates together.
        spread = np.ones(len(meshes))
        some = counts > 0
        if some.any():
            starts = (np.cumsum(counts) - counts)[some]
            spread[some] = np.maximum.reduceat(xz_max.max(axis=1), starts) - np.minimum.reduceat(
                xz_min.min(axis=1), starts
            )
        scale = np.maximum(spread, 1e-9)[owner]
        keep = np.abs(normal_y) > 1e-12 * scale * scale
        up = normal_y > 0
        out = []
        for start, stop in itertools.pairwise(np.concatenate([[0], np.cumsum(counts)])):
            kept = keep[start:stop]
            out.append(
                Triangles(
                    every[start:stop][kept],
                    up[start:stop][kept],
                    xz_min[start:stop][kept],
                    xz_max[start:stop][kept],
                )
            )
        return out


def _candidate_pairs(
    triangles: Triangles,
    points: FloatArray,
    groups: tuple[NDArray[np.intp], NDArray[np.intp]] | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """(point, triangle) index pairs where the point lies in the triangle's XZ box, widened by
    a margin far larger than the barycentric test's slack (1e-9 of the triangle's size): a
    prefilter only, so every crossing `crossings` can find is among these pairs. The points
    are sorted along X once, so each triangle reads off the run of points inside its X range
    (a fine sphere's small triangles meet a few points each) before Z is tested. With `groups`
    (each point's group and each triangle's), a point only meets the triangles of its group:
    every group is moved to an X range of its own for the search (only the search: the test
    reads the true coordinates), so many casts run as one."""
    margin = 1e-6 * (1.0 + np.max(triangles.xz_max - triangles.xz_min, axis=1))
    low = triangles.xz_min - margin[:, None]
    high = triangles.xz_max + margin[:, None]
    xs, low_x, high_x = points[:, 0], low[:, 0], high[:, 0]
    if groups is not None:
        reach = max(float(np.abs(xs).max(initial=0.0)), float(np.abs(low_x).max(initial=0.0)))
        span = 2.0 * (max(reach, float(np.abs(high_x).max(initial=0.0))) + 1.0)
        xs = xs + groups[0] * span
        low_x, high_x = low_x + groups[1] * span, high_x + groups[1] * span
    order = np.argsort(xs, kind="stable")
    xs = xs[order]
    first = np.searchsorted(xs, low_x, side="left")
    counts = np.searchsorted(xs, high_x, side="right") - first
    which_triangle = np.repeat(np.arange(len(low)), counts)
    runs = np.cumsum(counts) - counts
    which_point = order[np.repeat(first - runs, counts) + np.arange(int(counts.sum()))]
    z = points[which_point, 1]
    inside = (z >= low[which_triangle, 1]) & (z <= high[which_triangle, 1])
    return which_point[inside], which_triangle[inside]


def crossings(
    triangles: Triangles,
    points: FloatArray,
    groups: tuple[NDArray[np.intp], NDArray[np.intp]] | None = None,
) -> tuple[NDArray[np.intp], NDArray[np.intp], FloatArray]:
    """Every crossing of a vertical line through `points` (M, 2 as XZ) with a triangle: the
    point's index, the triangle's index and the height. Edges and corners count as hits, so
    lines through a mesh's own vertices hit it. The barycentric test runs only on the pairs whose
    XZ boxes meet (`_candidate_pairs`, which `groups` restricts to a point's own group), with
    the same arithmetic per pair as on all of them."""
    if len(points) == 0 or len(triangles.corners) == 0:
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, np.zeros(0)
    which_point, which_triangle = _candidate_pairs(triangles, points, groups)
    c = triangles.corners[which_triangle]
    px, pz = points[which_point, 0], points[which_point, 1]
    x0, y0, z0 = c[:, 0, 0], c[:, 0, 1], c[:, 0, 2]
    x1, y1, z1 = c[:, 1, 0], c[:, 1, 1], c[:, 1, 2]
    x2, y2, z2 = c[:, 2, 0], c[:, 2, 1], c[:, 2, 2]
    det = (z1 - z2) * (x0 - x2) + (x2 - x1) * (z0 - z2)
    l0 = ((z1 - z2) * (px - x2) + (x2 - x1) * (pz - z2)) / det
    l1 = ((z2 - z0) * (px - x2) + (x0 - x2) * (pz - z2)) / det
    l2 = 1.0 - l0 - l1
    eps = 1e-9
    inside = (l0 >= -eps) & (l1 >= -eps) & (l2 >= -eps)
    heights = l0 * y0 + l1 * y1 + l2 * y2
    return which_point[inside], which_triangle[inside], heights[inside]


def vertical_hits(triangles: Triangles, points: FloatArray) -> FloatArray:
    """Heights where vertical lines through `points` (M, 2 as XZ) cross each triangle.

    Returns an (M, F') array, NaN where a line misses a triangle; F' are the triangles whose XZ box
    meets the points' XZ box. Edges and corners count as hits, so lines through a mesh's own
    vertices hit it.
    """
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(points) == 0 or len(triangles.corners) == 0:
        return np.full((len(points), 0), np.nan)
    low, high = points.min(axis=0) - 1e-9, points.max(axis=0) + 1e-9
    near = np.all(triangles.xz_max >= low, axis=1) & np.all(triangles.xz_min <= high, axis=1)
    nearby = triangles.subset(near)
    out = np.full((len(points), len(nearby.corners)), np.nan)
    which_point, which_triangle, heights = crossings(nearby, points)
    out[which_point, which_triangle] = heights
    return out


def top_surface_below(triangles: Triangles, points: FloatArray, ceiling: float) -> FloatArray:
    """On each vertical line, the highest crossing with the triangles at or below `ceiling` (pass
    a closed mesh's upward-facing ones: a tabletop under a cup, the top of the crate below); NaN
    where there is none."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    which_point, _, heights = crossings(triangles, points)
    usable = heights <= ceiling + 1e-9
    top: FloatArray = np.full(len(points), -np.inf)
    np.maximum.at(top, which_point[usable], heights[usable])
    top[~np.isfinite(top)] = np.nan
    return top
