"""Objects that overlap each other beyond a tolerance.

Broad phase: world AABBs. The penetration depth of two shapes is never more than the overlap of
their AABBs along any axis (moving one that far along that axis separates the boxes, so the
shapes), so pairs whose AABB overlap is at most `tolerance_m` on some axis are dismissed exactly:
that is every pair in resting contact (a crate on a crate, a cup on a table).

Narrow phase (python-fcl is not installed, so no trimesh CollisionManager): the exact intersection
solid of the two meshes with manifold3d. Its volume is reported, and the penetration depth is
estimated as the intersection's thinnest extent, measured along the world axes and along every
face normal of the intersection (these include the separating directions of both shapes);
for an intersection that is far from compact (an L of a slab and a film) its mean chord along
the thinnest direction instead (`intersection_depth`). For a
shallow overlap of convex shapes that is the distance one must move to separate them; for an
object buried inside another it is the buried part's thickness. Meshes that are not closed
volumes are replaced by their convex hulls (noted); flat ones cannot overlap anything.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import manifold3d  # type: ignore[import-not-found]
import numpy as np
import trimesh

from studio.physics.common import FloatArray, Report, WorldMesh, bounds, cached, fmt
from studio.scene.model import Scene


@dataclass
class Overlap:
    a: str
    b: str
    depth_m: float
    """Estimated penetration depth (the overlap's thinnest extent)."""
    volume_m3: float
    aabb_overlap_m: list[float]
    """Overlap of the two AABBs along x, y, z (an upper bound of the depth)."""
    reason: str


@dataclass(kw_only=True)
class InterpenetrationReport(Report):
    check: str = "interpenetration"
    unit: str = "m"
    tolerance_m: float = 0.002
    candidates: int = 0
    """Pairs whose AABBs overlap beyond the tolerance (sent to the narrow phase)."""
    pairs: list[Overlap] = field(default_factory=list)
    """Overlapping pairs, deepest first."""
    touching: list[list[str]] = field(default_factory=list)
    """Candidate pairs that only touch (depth within tolerance)."""


def aabb_overlaps(boxes: FloatArray) -> FloatArray:
    """(N, N, 3) overlap of every pair of AABBs (negative where they are apart)."""
    low, high = boxes[:, 0, :], boxes[:, 1, :]
    result: FloatArray = np.minimum(high[:, None, :], high[None, :, :]) - np.maximum(
        low[:, None, :], low[None, :, :]
    )
    return result


class _Solid:
    """A mesh as a manifold3d solid, built on first use; None when it encloses no volume."""

    def __init__(self, mesh: trimesh.Trimesh) -> None:
        self.mesh = mesh
        self.note = ""
        self._solid: manifold3d.Manifold | None = None
        self._built = False

    def get(self) -> manifold3d.Manifold | None:
        if not self._built:
            self._built = True
            self._solid = _manifold(self.mesh)
            if self._solid is None:
                try:
                    hull = self.mesh.convex_hull
                except Exception:  # degenerate (flat or a line): it has no inside
                    hull = None
                if hull is not None and hull.volume > 1e-12:
                    self._solid = _manifold(hull)
                    self.note = "is not a closed solid; its convex hull was used"
                else:
                    self.note = "encloses no volume; it cannot overlap anything"
        return self._solid


def _manifold(mesh: trimesh.Trimesh) -> manifold3d.Manifold | None:
    if len(mesh.faces) < 4:
        return None
    solid = manifold3d.Manifold(
        manifold3d.Mesh64(
            vert_properties=np.ascontiguousarray(mesh.vertices, dtype=np.float64),
            tri_verts=np.ascontiguousarray(mesh.faces, dtype=np.uint64),
        )
    )
    if solid.status() != manifold3d.Error.NoError or solid.is_empty() or solid.volume() <= 0:
        return None
    return solid


MAX_DIRECTIONS = 1024
"""Directions a width is measured along at most: the axes and the normals that cover the most
area (a curved overlap of high-poly solids has tens of thousands of distinct facet normals)."""
BLOCK = 1 << 21
"""Entries of one block of projections (16 MB of float64): memory stays bounded whatever the
number of vertices, faces and directions."""


def thinnest_extent(
    vertices: FloatArray, faces: np.ndarray, directions: FloatArray | None = None
) -> float:
    """The smallest width of a solid, over the world axes and its own face normals (or the
    `directions` given, as `_directions` makes them). Widths are spans of projections, which
    the convex hull's vertices alone reach."""
    if len(vertices) == 0:
        return 0.0
    if directions is None:
        directions = _directions(vertices, faces)
    points = _hull_points(vertices)
    widths = [
        np.ptp(np.einsum("nk,dk->nd", points, block), axis=0)  # no BLAS threads for this
        for block in _blocks(directions, len(points))
    ]
    return float(np.min(np.concatenate(widths)))


def _hull_points(vertices: FloatArray) -> FloatArray:
    """The vertices on the convex hull (all of them for a flat or degenerate solid)."""
    if len(vertices) <= 64:
        return vertices
    from scipy.spatial import ConvexHull, QhullError  # type: ignore[import-untyped]

    try:
        hull = ConvexHull(vertices)
    except (QhullError, ValueError):
        return vertices
    points: FloatArray = vertices[hull.vertices]
    return points


def _blocks(directions: FloatArray, rows: int) -> list[FloatArray]:
    """`directions` split so that `rows` x a block's directions stays within BLOCK entries."""
    step = max(1, BLOCK // max(rows, 1))
    return [directions[start : start + step] for start in range(0, len(directions), step)]


def _directions(vertices: FloatArray, faces: np.ndarray) -> FloatArray:
    """The world axes and the solid's distinct face normals, as unit vectors: the MAX_DIRECTIONS
    that cover the most area where there are more."""
    corners = vertices[faces]
    normals = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    kept = lengths > 1e-15
    normals, areas = normals[kept] / lengths[kept, None], lengths[kept]
    if len(normals):
        # n and -n give the same width: keep one sign (the largest component positive), dedupe.
        largest = normals[np.arange(len(normals)), np.argmax(np.abs(normals), axis=1)]
        rounded = np.round(normals * np.sign(largest)[:, None], 4)
        normals, group = np.unique(rounded, axis=0, return_inverse=True)
        if len(normals) > MAX_DIRECTIONS:
            covered = np.bincount(group.ravel(), weights=areas, minlength=len(normals))
            normals = normals[np.sort(np.argsort(-covered, kind="stable")[:MAX_DIRECTIONS])]
    directions: FloatArray = np.vstack([np.eye(3), normals])
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    return directions


def intersection_depth(common: manifold3d.Manifold) -> float:
    """The penetration depth of an intersection solid: its thinnest extent (`thinnest_extent`),
    unless the solid is far from compact. A cushion pushed into a sofa's back while resting a
    little into its seat meets it in one L-shaped piece (a slab at the back, a film under it),
    whose extents all span the cushion; there the mean chord along the thinnest direction (its
    volume over its projected area, `mean_chords`) measures how deep it is. A compact overlap
    (a box, a ball or a wedge pushed into another) has a mean chord of about a third of its
    thinnest extent or more (COMPACT leaves a margin below that), and keeps that extent."""
    mesh = common.to_mesh64()
    vertices = np.asarray(mesh.vert_properties, dtype=np.float64)[:, :3]
    faces = np.asarray(mesh.tri_verts, dtype=np.int64)
    if len(vertices) == 0:
        return 0.0
    directions = _directions(vertices, faces)  # once, for both measures
    extent = thinnest_extent(vertices, faces, directions)
    chord = float(np.min(mean_chords(vertices, faces, max(common.volume(), 0.0), directions)))
    return chord if chord < COMPACT * extent else extent


COMPACT = 0.25
"""A solid whose shortest mean chord is under this share of its thinnest extent is not compact."""


def mean_chords(
    vertices: FloatArray, faces: np.ndarray, volume: float, directions: FloatArray
) -> FloatArray:
    """The closed solid's mean chord along each of `directions`: its volume over its
    area projected along that direction (each face facing it, weighted by the cosine)."""
    corners = vertices[faces]
    areas = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]) / 2
    projected = np.concatenate(
        [
            np.clip(np.einsum("fk,dk->fd", areas, block), 0.0, None).sum(axis=0)
            for block in _blocks(directions, len(areas))
        ]
    )
    chords: FloatArray = volume / np.maximum(projected, 1e-18)
    return chords


def _volume(cubic_metres: float) -> str:
    litres = cubic_metres * 1000.0
    return f"{litres:.1f} L" if litres >= 1 else f"{litres * 1000.0:.0f} cm³"


def interpenetration(
    scene: Scene, world_mesh: WorldMesh, tolerance_m: float = 0.002
) -> InterpenetrationReport:
    """Every pair of objects that overlaps by more than `tolerance_m` (depth and volume)."""
    started = time.perf_counter()
    world_mesh = cached(world_mesh)
    names = [obj.name for obj in scene.objects]
    meshes = [world_mesh(obj) for obj in scene.objects]
    notes: list[str] = []
    if len(meshes) < 2:
        return InterpenetrationReport(
            passed=True,
            value=0.0,
            summary="fewer than two objects: nothing can overlap",
            tolerance_m=tolerance_m,
            elapsed_s=time.perf_counter() - started,
        )
    overlap = aabb_overlaps(np.array([bounds(mesh) for mesh in meshes]))
    firsts, seconds = np.nonzero(np.triu(np.all(overlap > tolerance_m, axis=2), k=1))
    solids: dict[int, _Solid] = {}
    pairs: list[Overlap] = []
    touching: list[list[str]] = []
    for i, j in zip(firsts.tolist(), seconds.tolist(), strict=True):
        a = solids.setdefault(i, _Solid(meshes[i]))
        b = solids.setdefault(j, _Solid(meshes[j]))
        solid_a, solid_b = a.get(), b.get()
        if solid_a is None or solid_b is None:
            continue
        common = solid_a ^ solid_b
        volume = max(common.volume(), 0.0)
        depth = intersection_depth(common) if volume > 0 else 0.0
        if depth <= tolerance_m:
            touching.append([names[i], names[j]])
            continue
        box = [round(float(v), 6) for v in overlap[i, j]]
        reason = f"{names[i]} and {names[j]} overlap by {fmt(depth)} ({_volume(volume)} in common)"
        pairs.append(Overlap(names[i], names[j], depth, volume, box, reason))
    for index, solid in sorted(solids.items()):
        if solid.note:
            notes.append(f"{names[index]} {solid.note}")
    pairs.sort(key=lambda p: -p.depth_m)
    return InterpenetrationReport(
        passed=not pairs,
        value=max((p.depth_m for p in pairs), default=0.0),
        summary=(
            f"no overlaps among {len(names)} objects"
            if not pairs
            else f"{len(pairs)} overlapping pair{'s' if len(pairs) > 1 else ''}, "
            f"deepest {fmt(pairs[0].depth_m)}"
        ),
        reasons=[p.reason for p in pairs],
        notes=notes,
        tolerance_m=tolerance_m,
        candidates=len(firsts),
        pairs=pairs,
        touching=touching,
        elapsed_s=time.perf_counter() - started,
    )
