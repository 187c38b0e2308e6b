"""The process-wide cache of built shape meshes: least recently used first out, bounded by a
number of meshes and by the bytes of their arrays, so a few huge shapes cannot hold the memory
that a hundred small ones would."""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import trimesh


def mesh_bytes(mesh: trimesh.Trimesh) -> int:
    """Its vertex and face arrays and the topology trimesh has cached beside them (the size of
    a cached mesh is taken when it is put, so later reads cannot unbalance the total)."""
    cached = getattr(getattr(mesh, "_cache", None), "cache", {}).values()
    arrays = [mesh.vertices, mesh.faces, *(v for v in cached if isinstance(v, np.ndarray))]
    return sum(int(array.nbytes) for array in arrays)


class ShapeCache:
    """Meshes by key; a mesh larger than the whole byte bound is not kept."""

    def __init__(self, *, max_items: int, max_bytes: int) -> None:
        self.max_items, self.max_bytes = max_items, max_bytes
        self._meshes: OrderedDict[str, trimesh.Trimesh] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    @property
    def bytes(self) -> int:
        """The bytes of vertex, face and cached topology arrays held."""
        return self._bytes

    def keys(self) -> list[str]:
        """Least recently used first."""
        with self._lock:
            return list(self._meshes)

    def meshes(self) -> list[trimesh.Trimesh]:
        with self._lock:
            return list(self._meshes.values())

    def get(self, key: str) -> trimesh.Trimesh | None:
        with self._lock:
            mesh = self._meshes.get(key)
            if mesh is not None:
                self._meshes.move_to_end(key)
            return mesh

    def put(self, key: str, mesh: trimesh.Trimesh) -> None:
        size = mesh_bytes(mesh)
        if size > self.max_bytes:
            return  # the caller's copy is the only one
        with self._lock:
            self._bytes -= self._sizes.pop(key, 0)
            self._meshes.pop(key, None)
            self._meshes[key], self._sizes[key] = mesh, size
            self._bytes += size
            while len(self._meshes) > self.max_items or self._bytes > self.max_bytes:
                evicted, _ = self._meshes.popitem(last=False)
                self._bytes -= self._sizes.pop(evicted)

    def holds(self, mesh: trimesh.Trimesh) -> bool:
        """Whether this very object is a cached mesh."""
        with self._lock:
            return any(mesh is cached for cached in self._meshes.values())
