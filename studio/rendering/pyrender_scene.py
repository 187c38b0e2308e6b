"""A studio `Scene` as a pyrender scene: meshes, materials, the ground and the camera.

`to_pyrender(...)` takes the meshes from a callable, `mesh_for(obj) -> (trimesh, 4x4 world
matrix)`, so this module knows nothing about how shapes become triangles.

**Colours** in the scene are linear; the background is encoded with the shader's 1/2.2 gamma so
that it matches an emissive surface of the same colour. pyrender multiplies the emissive factor
in twice (`emissive * emissive_factor`), so materials pass its square root.

**Caches.** Smooth-shaded vertex data is cached by geometry hash (process-wide), and pyrender
meshes, which hold the uploaded GL buffers, by (geometry, material) per renderer (`MeshCache`),
so an unchanged object is not re-uploaded. Surfaces are shaded smoothly across edges under 30
degrees and split at sharper ones.
"""

from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray

from studio.rendering.lights import look_at
from studio.rendering.result import Bounds
from studio.scene.geometry import is_shared
from studio.scene.model import Color, Material, Scene, SceneObject, Vec3

MeshFor = Callable[[SceneObject], tuple[trimesh.Trimesh, Any]]
"""`mesh_for(obj) -> (mesh in the object's local frame, 4x4 local-to-world matrix)`."""

GAMMA = 2.2
SMOOTH_ANGLE_DEG = 30.0
GROUND_NAME = "ground"
GROUND_MATERIAL = Material("ground", (0.5, 0.5, 0.5), 0.0, 0.9)
GROUND_THICKNESS = 0.1
Z_NEAR = 0.02
_MESH_CACHE_SIZE = 1024
_GEOMETRY_CACHE_SIZE = 512

_GEOMETRY_LOCK = threading.Lock()
_GEOMETRIES: OrderedDict[bytes, _Geometry] = OrderedDict()
_BY_MESH: OrderedDict[int, tuple[trimesh.Trimesh, _Geometry]] = OrderedDict()


@dataclass(frozen=True, eq=False)
class _Geometry:
    key: bytes
    vertices: NDArray[np.float64]
    positions: NDArray[np.float32]
    normals: NDArray[np.float32]
    indices: NDArray[np.uint32]
    double_sided: bool


def _geometry(mesh: trimesh.Trimesh) -> _Geometry:
    with _GEOMETRY_LOCK:
        known = _BY_MESH.get(id(mesh))
    if known is not None and known[0] is mesh:
        return known[1]
    geometry = _hashed_geometry(mesh)
    if is_shared(mesh):
        # A shared shape mesh comes back as the same object and never changes: its geometry
        # is found again without hashing its arrays. The entry keeps the mesh alive, so its
        # id is not reused while it stands.
        with _GEOMETRY_LOCK:
            _BY_MESH[id(mesh)] = (mesh, geometry)
            while len(_BY_MESH) > _GEOMETRY_CACHE_SIZE:
                _BY_MESH.popitem(last=False)
    return geometry


def _hashed_geometry(mesh: trimesh.Trimesh) -> _Geometry:
    vertices = np.ascontiguousarray(mesh.vertices, dtype=np.float64)
    faces = np.ascontiguousarray(mesh.faces, dtype=np.int64)
    digest = hashlib.blake2b(vertices.tobytes(), digest_size=16)
    digest.update(faces.tobytes())
    key = digest.digest()
    with _GEOMETRY_LOCK:
        cached = _GEOMETRIES.get(key)
        if cached is not None:
            _GEOMETRIES.move_to_end(key)
            return cached
    if len(faces) == 0:
        empty = np.zeros((0, 3), dtype=np.float32)
        geometry = _Geometry(key, vertices, empty, empty, np.zeros((0, 3), np.uint32), False)
    else:
        plain = trimesh.Trimesh(vertices=vertices, faces=faces, process=False)
        shaded = trimesh.graph.smooth_shade(plain, angle=math.radians(SMOOTH_ANGLE_DEG))
        geometry = _Geometry(
            key=key,
            vertices=vertices,
            positions=np.ascontiguousarray(shaded.vertices, dtype=np.float32),
            normals=np.ascontiguousarray(shaded.vertex_normals, dtype=np.float32),
            indices=np.ascontiguousarray(shaded.faces, dtype=np.uint32),
            double_sided=not plain.is_watertight,
        )
    with _GEOMETRY_LOCK:
        _GEOMETRIES[key] = geometry
        while len(_GEOMETRIES) > _GEOMETRY_CACHE_SIZE:
            _GEOMETRIES.popitem(last=False)
    return geometry


@dataclass(eq=False)
class PyrenderScene:
    """A studio scene converted for drawing, with what the passes and the result need."""

    scene: Any
    """The pyrender.Scene: meshes, the ground and the camera (no lights yet)."""
    labels: list[str]
    """Object names in scene order, then `ground` when the scene has a ground."""
    seg_colors: dict[Any, tuple[int, int, int]]
    """The segmentation pass's colour per node (the label id, 24 bits)."""
    bounds: dict[str, Bounds]
    view: NDArray[np.float64]
    yfov: float
    zfar: float
    notes: list[str]


class MeshCache:
    """One renderer's pyrender meshes (which hold its uploaded GL buffers) by (geometry,
    material)."""

    def __init__(self, pyrender: ModuleType) -> None:
        self.pr = pyrender
        self.meshes: OrderedDict[tuple[bytes, Material, bool], Any] = OrderedDict()

    def clear(self) -> None:
        self.meshes.clear()

    def get(
        self, geometry: _Geometry, material: Material, used: set[tuple[bytes, Material, bool]]
    ) -> Any:
        key = (geometry.key, material, geometry.double_sided)
        used.add(key)
        mesh = self.meshes.get(key)
        if mesh is not None:
            self.meshes.move_to_end(key)
            return mesh
        pr = self.pr
        transparent = material.opacity < 1.0
        primitive = pr.Primitive(
            positions=geometry.positions,
            normals=geometry.normals,
            indices=geometry.indices,
            material=pr.MetallicRoughnessMaterial(
                name=material.name,
                baseColorFactor=[*material.base_color, material.opacity],
                metallicFactor=material.metallic,
                roughnessFactor=material.roughness,
                # pyrender multiplies the emissive factor in twice: pass its square root.
                emissiveFactor=np.sqrt(np.asarray(material.emissive, dtype=np.float64)),
                alphaMode="BLEND" if transparent else "OPAQUE",
                doubleSided=geometry.double_sided,
            ),
            mode=pr.constants.GLTF.TRIANGLES,
        )
        mesh = self.meshes[key] = pr.Mesh(primitives=[primitive])
        return mesh

    def evict(self, used: set[tuple[bytes, Material, bool]]) -> None:
        # Meshes left out of the cache are freed from the GL context by pyrender at the next
        # render that does not use them; the ones this frame uses are never evicted.
        for key in list(self.meshes):
            if len(self.meshes) <= _MESH_CACHE_SIZE:
                break
            if key not in used:
                del self.meshes[key]


def to_pyrender(
    pr: ModuleType,
    scene: Scene,
    mesh_for: MeshFor,
    meshes: MeshCache,
    width: int,
    height: int,
) -> PyrenderScene:
    """The scene's objects, ground and camera as a pyrender scene for a width x height image."""
    notes: list[str] = []
    background = _display(scene.background)
    prs = pr.Scene(bg_color=[*background, 1.0], ambient_light=[0.0, 0.0, 0.0])
    labels: list[str] = []
    seg_colors: dict[Any, tuple[int, int, int]] = {}
    bounds: dict[str, Bounds] = {}
    used: set[tuple[bytes, Material, bool]] = set()

    for item in scene.objects:
        try:
            mesh, matrix = mesh_for(item)
        except Exception as exc:
            exc.add_note(f"while making the mesh of object {item.name!r} for rendering")
            raise
        pose = np.asarray(matrix, dtype=np.float64).reshape(4, 4)
        geometry = _geometry(mesh)
        labels.append(item.name)
        if len(geometry.indices) == 0:
            notes.append(f"object {item.name!r} has no triangles; nothing was drawn")
            continue
        world = geometry.vertices @ pose[:3, :3].T + pose[:3, 3]
        bounds[item.name] = (_vec(world.min(axis=0)), _vec(world.max(axis=0)))
        node = prs.add(meshes.get(geometry, item.material, used), name=item.name, pose=pose)
        seg_colors[node] = _id_color(len(labels))

    corners = [corner for low, high in bounds.values() for corner in _corners(low, high)]
    if scene.ground:
        half = scene.ground_size / 2
        ground = trimesh.creation.box(extents=(scene.ground_size, GROUND_THICKNESS, half * 2))
        pose = np.eye(4)
        pose[1, 3] = -GROUND_THICKNESS / 2
        geometry = _geometry(ground)
        labels.append(GROUND_NAME)
        node = prs.add(meshes.get(geometry, GROUND_MATERIAL, used), name=GROUND_NAME, pose=pose)
        seg_colors[node] = _id_color(len(labels))
        corners += _corners((-half, -GROUND_THICKNESS, -half), (half, 0.0, half))
    meshes.evict(used)

    camera = scene.camera
    camera_pose = look_at(camera.position, camera.target)
    view = np.asarray(np.linalg.inv(camera_pose), dtype=np.float64)
    if corners:
        points = np.array(corners)
        depths = -(points @ view[:3, :3].T + view[:3, 3])[:, 2]
        zfar = max(float(depths.max()) * 1.05 + 1.0, 10.0)
    else:
        zfar = 100.0
    yfov = math.radians(camera.yfov_deg)
    prs.add(
        pr.PerspectiveCamera(yfov=yfov, aspectRatio=width / height, znear=Z_NEAR, zfar=zfar),
        pose=camera_pose,
    )
    if abs(camera.aspect - width / height) > 0.01 * camera.aspect:
        notes.append(
            f"camera aspect {camera.aspect:.3f} differs from the image's {width / height:.3f}: "
            "kept the vertical field of view and square pixels"
        )
    return PyrenderScene(prs, labels, seg_colors, bounds, view, yfov, zfar, notes)


def bounding_sphere(bounds: dict[str, Bounds]) -> tuple[NDArray[np.float64], float]:
    """Centre and radius of the sphere around the union of the boxes (its half diagonal)."""
    if not bounds:
        return np.zeros(3), 0.0
    low = np.min([low for low, _ in bounds.values()], axis=0)
    high = np.max([high for _, high in bounds.values()], axis=0)
    centre: NDArray[np.float64] = (low + high) / 2
    return centre, float(np.linalg.norm(high - low)) / 2


def _corners(low: Vec3, high: Vec3) -> list[NDArray[np.float64]]:
    return [
        np.array([x, y, z])
        for x in (low[0], high[0])
        for y in (low[1], high[1])
        for z in (low[2], high[2])
    ]


def _display(color: Color) -> tuple[float, float, float]:
    r, g, b = (float(min(max(part, 0.0), 1.0)) ** (1 / GAMMA) for part in color)
    return (r, g, b)


def _id_color(label_id: int) -> tuple[int, int, int]:
    return (label_id & 0xFF, (label_id >> 8) & 0xFF, (label_id >> 16) & 0xFF)


def _vec(values: NDArray[np.float64]) -> Vec3:
    return (float(values[0]), float(values[1]), float(values[2]))
