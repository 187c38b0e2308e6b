"""Convex pieces of a concave mesh, for MuJoCo (which collides every mesh as its convex hull).

`convex_pieces` takes an object's mesh in its body frame (the world mesh less its translation)
and its rotation, and returns the vertices of convex pieces that together make its solid, or []
when the mesh fills CONCAVE_FILL or more of its convex hull (one hull is close enough) or is not
closed. Two ways, the exact one first:

* a rectilinear solid (every face square to the object's own axes: an open box, a tray, a drawer,
  a U-shaped part, shelves, made as booleans of boxes) is cut by the planes of its faces into a
  grid of cells, each wholly inside or outside it (told by the winding number at its centre);
  the cells inside are merged into as few boxes as a greedy sweep finds. Exact, and milliseconds;
* any other concave mesh (a torus, an uploaded one) is decomposed approximately by V-HACD (the
  `vhacdx` package, as `trimesh.Trimesh.convex_decomposition`), at a coarse voxel resolution
  and single-threaded, so it is deterministic and takes about a second.

Results are kept process-wide per mesh (its vertices and faces), so a round decomposes a shape
once.
"""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections import OrderedDict

import numpy as np
import trimesh

from studio.physics.common import FloatArray
from studio.scene.solids import enclosed_volume

CONCAVE_FILL = 0.85
MAX_CELLS = 4096
VHACD_HULLS = 16
VHACD_RESOLUTION = 20_000
_CACHE_SIZE = 256
_CACHE: OrderedDict[str, list[FloatArray]] = OrderedDict()
_CACHE_LOCK = threading.Lock()


def is_concave(volume: float, hull_volume: float) -> bool:
    """A closed mesh whose volume fills clearly less (CONCAVE_FILL) than its convex hull."""
    return hull_volume > 1e-12 and 0.0 < volume < CONCAVE_FILL * hull_volume


def convex_pieces(mesh: trimesh.Trimesh, rotation: FloatArray) -> list[FloatArray]:
    """Vertices (body frame) of convex pieces of a concave closed mesh; [] for a convex one.

    `mesh` is in the body frame (rotated and scaled, not translated); `rotation` is the object's
    3x3 rotation, whose columns are the axes a rectilinear solid is square to."""
    vertices = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
    faces = np.ascontiguousarray(mesh.faces, dtype=np.int64)
    digest = hashlib.blake2b(digest_size=16)
    for array in (vertices, faces, np.ascontiguousarray(rotation, dtype=np.float64)):
        digest.update(array.tobytes())
    key = digest.hexdigest()
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    pieces: list[FloatArray] = []
    enclosed = enclosed_volume(mesh)
    if enclosed is not None and is_concave(enclosed, float(mesh.convex_hull.volume)):
        pieces = _boxes(vertices, faces, rotation)
        if not pieces:
            pieces = _vhacd(vertices, faces)
    with _CACHE_LOCK:
        _CACHE[key] = pieces
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return pieces


def _planes(values: FloatArray, tolerance: float) -> FloatArray:
    """The distinct coordinates of `values`, those within `tolerance` merged (their mean)."""
    ordered = np.sort(values)
    breaks = np.flatnonzero(np.diff(ordered) > tolerance) + 1
    return np.array([group.mean() for group in np.split(ordered, breaks)])


def _boxes(vertices: FloatArray, faces: np.ndarray, rotation: FloatArray) -> list[FloatArray]:
    """Corners (body frame) of boxes that make a rectilinear solid exactly; [] for another."""
    local = vertices @ rotation  # each row R^T v: the vertex along the object's own axes
    triangles = local[faces]
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    keep = lengths > 1e-15
    if not keep.any():
        return []
    unit = np.abs(normals[keep] / lengths[keep, None])
    if float(unit.max(axis=1).min()) < 1.0 - 1e-6:
        return []  # a face not square to the axes: not rectilinear
    size = float(np.ptp(local, axis=0).max())
    planes = [_planes(local[:, axis], 1e-6 * size) for axis in range(3)]
    shape = tuple(len(p) - 1 for p in planes)
    if min(shape) < 1 or int(np.prod(shape)) > MAX_CELLS:
        return []
    middles = [(p[:-1] + p[1:]) / 2.0 for p in planes]
    centres = np.stack(np.meshgrid(*middles, indexing="ij"), axis=-1).reshape(-1, 3)
    filled = (np.abs(_winding(centres, triangles)) > 0.5).reshape(shape)
    corners = np.array(list(itertools.product((0, 1), repeat=3)))
    boxes: list[FloatArray] = []
    for low, high in _merge(filled):
        bounds = np.array(
            [[planes[axis][low[axis]], planes[axis][high[axis]]] for axis in range(3)]
        )
        box = bounds[np.arange(3), corners]  # (8, 3): every corner of the box
        boxes.append(box @ rotation.T)
    return boxes


def _merge(filled: np.ndarray) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Filled cells merged into boxes (low and high cell-plane indices): each unclaimed filled
    cell, in order, grows as far as it can along x, then y, then z."""
    free = filled.copy()
    boxes: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    nx, ny, nz = free.shape
    for i, j, k in itertools.product(range(nx), range(ny), range(nz)):
        if not free[i, j, k]:
            continue
        i1 = i + 1
        while i1 < nx and free[i1, j, k]:
            i1 += 1
        j1 = j + 1
        while j1 < ny and free[i:i1, j1, k].all():
            j1 += 1
        k1 = k + 1
        while k1 < nz and free[i:i1, j:j1, k1].all():
            k1 += 1
        free[i:i1, j:j1, k:k1] = False
        boxes.append(((i, j, k), (i1, j1, k1)))
    return boxes


def _winding(points: FloatArray, triangles: FloatArray) -> FloatArray:
    """The generalised winding number of a closed triangle mesh at each point (±1 inside, 0
    outside): the solid angles of its triangles seen from the point, over 4π."""
    result = np.empty(len(points))
    chunk = max(1, 1_000_000 // len(triangles))
    for start in range(0, len(points), chunk):
        p = points[start : start + chunk, None, None, :]
        a, b, c = (triangles[None, :, n, :] - p[:, :, 0, :] for n in range(3))
        la, lb, lc = (np.linalg.norm(v, axis=-1) for v in (a, b, c))
        numerator = np.einsum("pfk,pfk->pf", a, np.cross(b, c))
        denominator = (
            la * lb * lc
            + np.einsum("pfk,pfk->pf", a, b) * lc
            + np.einsum("pfk,pfk->pf", b, c) * la
            + np.einsum("pfk,pfk->pf", c, a) * lb
        )
        angles = 2.0 * np.arctan2(numerator, denominator)
        result[start : start + chunk] = angles.sum(axis=1) / (4.0 * np.pi)
    return result


def _vhacd(vertices: FloatArray, faces: np.ndarray) -> list[FloatArray]:
    """V-HACD's convex pieces of a mesh (their vertices); [] when it is not installed or fails."""
    try:
        from vhacdx import compute_vhacd  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:
        return []
    packed = np.column_stack([np.full(len(faces), 3, dtype=np.int64), faces]).ravel()
    try:
        results = compute_vhacd(
            vertices,
            packed.astype(np.uint32),
            maxConvexHulls=VHACD_HULLS,
            resolution=VHACD_RESOLUTION,
            asyncACD=False,
        )
    except Exception:  # V-HACD gives up on some meshes: keep the hull
        return []
    return [np.asarray(v, dtype=np.float64) for v, _ in results if len(v) >= 4]
