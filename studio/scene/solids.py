"""Whether a mesh encloses a volume, and how much, without measuring every placed copy.

trimesh's `is_volume` checks a mesh's topology (watertight, consistently wound) and integrates
its volume; for a placed copy of a cached shape that is most of the cost of placing it, and the
answer follows from the shape's own: an invertible linear map keeps a closed, consistently
wound surface closed and consistently wound (trimesh turns the faces of a mirrored one around),
and multiplies its volume by the absolute determinant. `place` records that answer on the placed
mesh (in its `metadata`, beside a fingerprint of its vertices and faces), and `enclosed_volume`
reads it back while the mesh still holds those vertices and faces, measuring it otherwise.
"""

from __future__ import annotations

import numpy as np
import trimesh

_KEY = "enclosed_volume"


def enclosed_volume(mesh: trimesh.Trimesh) -> float | None:
    """The volume `mesh` encloses; None when it encloses none (trimesh's `is_volume` is false:
    an open, torn or inconsistently wound surface)."""
    known = mesh.metadata.get(_KEY)
    if isinstance(known, tuple) and known[0] == _fingerprint(mesh):
        volume: float | None = known[1]
        return volume
    return float(mesh.volume) if mesh.is_volume else None


def place(shape: trimesh.Trimesh, matrix: np.ndarray) -> trimesh.Trimesh:
    """A copy of `shape` moved by the 4x4 `matrix`, knowing its enclosed volume from `shape`'s.
    A singular matrix (a zero scale) leaves the copy to be measured."""
    placed = shape.copy(include_cache=True)
    placed.apply_transform(matrix)
    determinant = abs(float(np.linalg.det(np.asarray(matrix, dtype=np.float64)[:3, :3])))
    if determinant > 0.0:
        volume = enclosed_volume(shape)
        placed.metadata[_KEY] = (
            _fingerprint(placed),
            None if volume is None else volume * determinant,
        )
    return placed


def _fingerprint(mesh: trimesh.Trimesh) -> tuple[int, int]:
    # trimesh keeps these hashes until the arrays change.
    return hash(mesh.vertices), hash(mesh.faces)
