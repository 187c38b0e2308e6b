"""A downloaded GLB read back for judging: objects with world bounds, materials, lights.

Geometry comes from trimesh (each node's mesh placed by its world transform), so the checks judge
the same file a person downloads; what trimesh does not keep (node extras such as the object's
category, exact material factors, which node holds which light) comes from the file's own glTF
JSON chunk. Plain Python: no Django, so tests can read any GLB.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import trimesh

from studio.scene.glb import unpack_glb

Vec3 = tuple[float, float, float]
LIGHTS_EXTENSION = "KHR_lights_punctual"
GROUND = "ground"


@dataclass(frozen=True)
class ObjectView:
    """One object node of the GLB: world axis-aligned bounds (metres) and its PBR material."""

    name: str
    category: str
    shape: str
    low: Vec3
    high: Vec3
    base_color: Vec3
    """Linear RGB in [0, 1], as glTF stores it."""
    metallic: float = 0.0
    roughness: float = 1.0
    opacity: float = 1.0
    material: str = ""
    mesh: trimesh.Trimesh | None = field(default=None, compare=False, repr=False)
    """The object's triangles in world coordinates, for judging which of its surfaces something
    rests on (a bed's mattress, not its headboard); None where only the bounds are known."""

    @property
    def size(self) -> Vec3:
        """Width (x), height (y) and depth (z) of the world bounds."""
        return (
            self.high[0] - self.low[0],
            self.high[1] - self.low[1],
            self.high[2] - self.low[2],
        )

    @property
    def centre(self) -> Vec3:
        return (
            (self.low[0] + self.high[0]) / 2,
            (self.low[1] + self.high[1]) / 2,
            (self.low[2] + self.high[2]) / 2,
        )

    @property
    def bottom(self) -> float:
        return self.low[1]

    @property
    def top(self) -> float:
        return self.high[1]


@dataclass(frozen=True)
class LightView:
    """A KHR_lights_punctual light on its node: kind, linear colour, intensity, where it points."""

    name: str
    kind: str
    color: Vec3
    intensity: float
    position: Vec3
    direction: Vec3
    """Unit vector the light shines along (the node's -Z)."""


@dataclass(frozen=True)
class GlbScene:
    objects: tuple[ObjectView, ...]
    lights: tuple[LightView, ...]
    camera_position: Vec3 | None = None
    has_ground: bool = False

    def object(self, name: str) -> ObjectView | None:
        return next((item for item in self.objects if item.name == name), None)

    def bounds(self) -> tuple[Vec3, Vec3] | None:
        """The bounds of every object together (the ground left out)."""
        if not self.objects:
            return None
        low = np.min([item.low for item in self.objects], axis=0)
        high = np.max([item.high for item in self.objects], axis=0)
        return _vec(low), _vec(high)


def read_glb(data: bytes) -> GlbScene:
    """Read a GLB file's objects, lights and camera; GlbError / ValueError if it is broken."""
    document, _ = unpack_glb(data)
    loaded = trimesh.load(io.BytesIO(data), file_type="glb", force="scene")
    if not isinstance(loaded, trimesh.Scene):
        raise ValueError("the GLB did not load as a scene")
    nodes = {str(node.get("name", "")): node for node in document.get("nodes", [])}
    objects: list[ObjectView] = []
    has_ground = False
    for node_name in sorted(loaded.graph.nodes_geometry):
        matrix, geometry_name = loaded.graph[node_name]
        node = nodes.get(node_name, {})
        extras = node.get("extras") or {}
        if node_name == GROUND and extras.get("category") == GROUND:
            has_ground = True
            continue
        mesh = loaded.geometry[geometry_name]
        vertices = trimesh.transform_points(np.asarray(mesh.vertices), np.asarray(matrix))
        placed = trimesh.Trimesh(vertices, np.asarray(mesh.faces), process=False)
        objects.append(_object(node_name, extras, placed, _material(document, node)))
    objects.sort(key=lambda item: item.name)
    return GlbScene(
        objects=tuple(objects),
        lights=_lights(document, loaded),
        camera_position=_camera_position(loaded),
        has_ground=has_ground,
    )


def _object(
    name: str,
    extras: dict[str, Any],
    mesh: trimesh.Trimesh,
    material: dict[str, Any],
) -> ObjectView:
    vertices = np.asarray(mesh.vertices)
    pbr = material.get("pbrMetallicRoughness") or {}
    factor = list(pbr.get("baseColorFactor") or [1.0, 1.0, 1.0, 1.0])
    return ObjectView(
        name=name,
        category=str(extras.get("category") or ""),
        shape=str(extras.get("shape") or ""),
        low=_vec(vertices.min(axis=0)),
        high=_vec(vertices.max(axis=0)),
        base_color=(float(factor[0]), float(factor[1]), float(factor[2])),
        metallic=float(pbr.get("metallicFactor", 1.0)),
        roughness=float(pbr.get("roughnessFactor", 1.0)),
        opacity=float(factor[3]) if len(factor) > 3 else 1.0,
        material=str(material.get("name") or ""),
        mesh=mesh,
    )


def _material(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """The material of the node's first primitive (glTF's defaults when it has none)."""
    meshes = document.get("meshes") or []
    index = node.get("mesh")
    if not isinstance(index, int) or index >= len(meshes):
        return {}
    primitives = meshes[index].get("primitives") or [{}]
    material = primitives[0].get("material")
    materials = document.get("materials") or []
    if not isinstance(material, int) or material >= len(materials):
        return {}
    found: dict[str, Any] = materials[material]
    return found


def _lights(document: dict[str, Any], loaded: trimesh.Scene) -> tuple[LightView, ...]:
    table = ((document.get("extensions") or {}).get(LIGHTS_EXTENSION) or {}).get("lights") or []
    found: list[LightView] = []
    for node in document.get("nodes", []):
        index = ((node.get("extensions") or {}).get(LIGHTS_EXTENSION) or {}).get("light")
        if not isinstance(index, int) or index >= len(table):
            continue
        light = table[index]
        name = str(node.get("name") or light.get("name") or f"light-{index}")
        matrix = np.asarray(loaded.graph[name][0]) if name in loaded.graph.nodes else np.eye(4)
        forward = -matrix[:3, 2]
        norm = float(np.linalg.norm(forward))
        colour = list(light.get("color") or [1.0, 1.0, 1.0])
        found.append(
            LightView(
                name=name,
                kind=str(light.get("type", "")),
                color=(float(colour[0]), float(colour[1]), float(colour[2])),
                intensity=float(light.get("intensity", 1.0)),
                position=_vec(matrix[:3, 3]),
                direction=_vec(forward / norm if norm > 1e-9 else np.array([0.0, -1.0, 0.0])),
            )
        )
    return tuple(found)


def _camera_position(loaded: trimesh.Scene) -> Vec3 | None:
    if not loaded.has_camera:
        return None
    return _vec(np.asarray(loaded.camera_transform)[:3, 3])


def _vec(values: Any) -> Vec3:
    x, y, z = (float(value) for value in list(values)[:3])
    return (x, y, z)
