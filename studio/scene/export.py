"""A scene as files: GLB (glTF 2.0, for viewers and three.js), OBJ + MTL (a zip) and binary STL.

The GLB follows glTF conventions (metres, +Y up). Each object is one node named exactly like the
object, holding its local-frame mesh (smooth normals, split at hard edges) and its transform as
translation / rotation quaternion / scale, with a metallic-roughness material and the object's
physics and category in the node's `extras`. The ground, when the scene has one, is a node named
`ground` whose top is at y = 0; the camera is a perspective camera node named `camera` looking at
its target; lights are `KHR_lights_punctual` lights on nodes whose -Z points at their target.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from dataclasses import asdict
from typing import Any

import numpy as np
import trimesh
from numpy.typing import NDArray

from studio.scene.geometry import MeshResolver, ground_mesh, object_mesh, world_mesh
from studio.scene.glb import pack_glb
from studio.scene.model import MAX_SIZE_M, Light, Material, Physics, Scene, SceneError
from studio.scene.transforms import look_at_rotation, quaternion_xyzw, rotation_matrix

GROUND_MATERIAL = Material("ground", (0.42, 0.42, 0.4), 0.0, 0.9)
LIGHTS_EXTENSION = "KHR_lights_punctual"
TRANSMISSION_EXTENSION = "KHR_materials_transmission"
GLASS_NAMES = frozenset({"glass"})
CAMERA_ZNEAR = 0.05
GENERATOR = "agentworks studio"

_FLOAT = 5126
_UINT = 5125
_ARRAY_BUFFER = 34962
_ELEMENT_ARRAY_BUFFER = 34963
_TRIANGLES = 4


def scene_to_glb(scene: Scene, *, resolve_mesh: MeshResolver | None = None) -> bytes:
    """The scene as one GLB file; SceneError names the object whose shape cannot be built."""
    gltf = _GltfBuilder()
    for obj in scene.objects:
        mesh = object_mesh(obj, resolve_mesh=resolve_mesh)
        transform = obj.transform
        node: dict[str, Any] = {
            "name": obj.name,
            "mesh": gltf.add_mesh(obj.name, mesh, obj.material),
        }
        if any(transform.translation):
            node["translation"] = list(transform.translation)
        if any(transform.rotation):
            node["rotation"] = quaternion_xyzw(rotation_matrix(transform.rotation))
        if transform.scale != (1.0, 1.0, 1.0):
            node["scale"] = list(transform.scale)
        node["extras"] = _extras(obj.physics, obj.category, obj.shape.kind) | {
            "size_stated": obj.size_stated
        }
        gltf.add_node(node)
    if scene.ground:
        mesh_index = gltf.add_mesh("ground", ground_mesh(scene), GROUND_MATERIAL)
        extras = _extras(Physics(collision="box"), "ground", "box")
        gltf.add_node({"name": "ground", "mesh": mesh_index, "extras": extras})
    _add_camera(gltf, scene)
    for light in scene.lights:
        _add_light(gltf, light)
    gltf.document["scenes"][0]["extras"] = {"background": list(scene.background)}
    return gltf.glb()


def scene_to_obj(
    scene: Scene, *, resolve_mesh: MeshResolver | None = None, include_ground: bool = False
) -> bytes:
    """A zip of `scene.obj` (one `o` group per object, world coordinates) and `scene.mtl`."""
    meshes = _world_meshes(scene, resolve_mesh, include_ground)
    materials: dict[Material, str] = {}
    obj_text = io.StringIO()
    obj_text.write(f"# {GENERATOR}: metres, +Y up\nmtllib scene.mtl\n")
    offset = 1  # OBJ indices start at 1
    for name, mesh, material in meshes:
        if material not in materials:
            materials[material] = f"m{len(materials)}_{_obj_name(material.name)}"
        shaded = mesh.smooth_shaded
        obj_text.write(f"o {_obj_name(name)}\nusemtl {materials[material]}\n")
        np.savetxt(obj_text, shaded.vertices, fmt="v %.9g %.9g %.9g")
        np.savetxt(obj_text, shaded.vertex_normals, fmt="vn %.6g %.6g %.6g")
        corners = np.repeat(shaded.faces + offset, 2, axis=1)
        np.savetxt(obj_text, corners, fmt="f %d//%d %d//%d %d//%d")
        offset += len(shaded.vertices)
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr(_entry("scene.obj"), obj_text.getvalue())
        zipped.writestr(_entry("scene.mtl"), _mtl(materials))
    return archive.getvalue()


def scene_to_stl(
    scene: Scene, *, resolve_mesh: MeshResolver | None = None, include_ground: bool = False
) -> bytes:
    """One binary STL of every object's triangles in world coordinates (metres, +Y up)."""
    meshes = [mesh for _, mesh, _ in _world_meshes(scene, resolve_mesh, include_ground)]
    combined = trimesh.util.concatenate(meshes)
    return bytes(trimesh.exchange.stl.export_stl(combined))


class _GltfBuilder:
    """A glTF document under construction, with one growing binary buffer."""

    def __init__(self) -> None:
        self.document: dict[str, Any] = {
            "asset": {"version": "2.0", "generator": GENERATOR},
            "scene": 0,
            "scenes": [{"name": "scene", "nodes": []}],
            "nodes": [],
            "meshes": [],
            "materials": [],
            "accessors": [],
            "bufferViews": [],
        }
        self.binary = bytearray()
        self._materials: dict[Material, int] = {}

    def add_node(self, node: dict[str, Any]) -> int:
        nodes = self.document["nodes"]
        nodes.append(node)
        self.document["scenes"][0]["nodes"].append(len(nodes) - 1)
        return len(nodes) - 1

    def add_mesh(self, name: str, mesh: trimesh.Trimesh, material: Material) -> int:
        shaded = mesh.smooth_shaded  # split at hard edges, so boxes stay crisp and spheres round
        positions = np.asarray(shaded.vertices, dtype=np.float32)
        attributes = {
            "POSITION": self._accessor(positions, "VEC3", _ARRAY_BUFFER, bounds=True),
            "NORMAL": self._accessor(
                np.asarray(shaded.vertex_normals, dtype=np.float32), "VEC3", _ARRAY_BUFFER
            ),
        }
        indices = np.asarray(shaded.faces, dtype=np.uint32).reshape(-1)
        primitive = {
            "attributes": attributes,
            "indices": self._accessor(indices, "SCALAR", _ELEMENT_ARRAY_BUFFER),
            "material": self._material(material),
            "mode": _TRIANGLES,
        }
        self.document["meshes"].append({"name": name, "primitives": [primitive]})
        return len(self.document["meshes"]) - 1

    def glb(self) -> bytes:
        document = {key: value for key, value in self.document.items() if value != []}
        if self.binary:
            document["buffers"] = [{"byteLength": len(self.binary)}]
        return pack_glb(document, bytes(self.binary))

    def _accessor(
        self, array: NDArray[Any], kind: str, target: int, *, bounds: bool = False
    ) -> int:
        self.binary += b"\0" * (-len(self.binary) % 4)
        views = self.document["bufferViews"]
        views.append(
            {
                "buffer": 0,
                "byteOffset": len(self.binary),
                "byteLength": array.nbytes,
                "target": target,
            }
        )
        self.binary += array.tobytes()
        accessor: dict[str, Any] = {
            "bufferView": len(views) - 1,
            "componentType": _FLOAT if array.dtype == np.float32 else _UINT,
            "count": len(array),
            "type": kind,
        }
        if bounds:  # required for POSITION
            accessor["min"] = array.min(axis=0).tolist()
            accessor["max"] = array.max(axis=0).tolist()
        self.document["accessors"].append(accessor)
        return len(self.document["accessors"]) - 1

    def _material(self, material: Material) -> int:
        if material not in self._materials:
            entry: dict[str, Any] = {
                "name": material.name,
                "pbrMetallicRoughness": {
                    "baseColorFactor": [*material.base_color, material.opacity],
                    "metallicFactor": material.metallic,
                    "roughnessFactor": material.roughness,
                },
                "emissiveFactor": list(material.emissive),
                "alphaMode": "BLEND" if material.opacity < 1 else "OPAQUE",
            }
            transmission = transmission_factor(material)
            if transmission > 0:
                # Viewers that know the extension show glass; the others keep the alpha blend.
                entry["extensions"] = {TRANSMISSION_EXTENSION: {"transmissionFactor": transmission}}
                used = self.document.setdefault("extensionsUsed", [])
                if TRANSMISSION_EXTENSION not in used:
                    used.append(TRANSMISSION_EXTENSION)
            self.document["materials"].append(entry)
            self._materials[material] = len(self.document["materials"]) - 1
        return self._materials[material]


def transmission_factor(material: Material) -> float:
    """How much light passes through: all of it for glass, else what opacity leaves."""
    if material.name.strip().lower() in GLASS_NAMES:
        return 1.0
    return round(1.0 - material.opacity, 6) if material.opacity < 1 else 0.0


def _extras(physics: Physics, category: str, kind: str) -> dict[str, Any]:
    return {"physics": asdict(physics), "category": category, "shape": kind}


def _add_camera(gltf: _GltfBuilder, scene: Scene) -> None:
    camera = scene.camera
    gltf.document["cameras"] = [
        {
            "name": "camera",
            "type": "perspective",
            "perspective": {
                "yfov": math.radians(camera.yfov_deg),
                "aspectRatio": camera.aspect,
                "znear": CAMERA_ZNEAR,
                "zfar": 2 * max(MAX_SIZE_M, scene.ground_size),
            },
        }
    ]
    rotation = quaternion_xyzw(look_at_rotation(camera.position, camera.target))
    node = {"name": "camera", "camera": 0, "translation": list(camera.position)}
    gltf.add_node({**node, "rotation": rotation})


def _add_light(gltf: _GltfBuilder, light: Light) -> None:
    document = gltf.document
    if LIGHTS_EXTENSION not in document.setdefault("extensionsUsed", []):
        document["extensionsUsed"].append(LIGHTS_EXTENSION)
    lights = document.setdefault("extensions", {}).setdefault(LIGHTS_EXTENSION, {"lights": []})
    entry: dict[str, Any] = {
        "name": light.name,
        "type": light.kind,
        "color": list(light.color),
        "intensity": light.intensity,
    }
    if light.kind == "spot":
        # KHR_lights_punctual needs 0 <= inner < outer <= pi/2.
        outer = math.radians(min(max(light.outer_cone_deg, 0.1), 90.0))
        inner = math.radians(light.inner_cone_deg)
        if inner >= outer:
            inner = 0.9 * outer
        entry["spot"] = {"innerConeAngle": inner, "outerConeAngle": outer}
    lights["lights"].append(entry)
    gltf.add_node(
        {
            "name": light.name,
            "translation": list(light.position),
            "rotation": quaternion_xyzw(look_at_rotation(light.position, light.target)),
            "extensions": {LIGHTS_EXTENSION: {"light": len(lights["lights"]) - 1}},
            "extras": {"cast_shadows": light.cast_shadows},
        }
    )


def _world_meshes(
    scene: Scene, resolve_mesh: MeshResolver | None, include_ground: bool
) -> list[tuple[str, trimesh.Trimesh, Material]]:
    meshes = [
        (obj.name, world_mesh(obj, resolve_mesh=resolve_mesh), obj.material)
        for obj in scene.objects
    ]
    if include_ground and scene.ground:
        meshes.append(("ground", ground_mesh(scene), GROUND_MATERIAL))
    if not meshes:
        raise SceneError("the scene has no objects to export")
    return meshes


def _obj_name(name: str) -> str:
    """A name OBJ and MTL keep intact: no spaces, no comment marks, never empty."""
    return re.sub(r"[^\w.\-]+", "_", name).strip("_") or "object"


def _mtl(materials: dict[Material, str]) -> str:
    lines = [f"# {GENERATOR}: metallic-roughness as the PBR extension (Pm, Pr)"]
    for material, name in materials.items():
        r, g, b = material.base_color
        er, eg, eb = material.emissive
        lines += [
            f"newmtl {name}",
            f"Kd {r:.6g} {g:.6g} {b:.6g}",
            "Ka 0 0 0",
            f"Ke {er:.6g} {eg:.6g} {eb:.6g}",
            f"Ns {(1.0 - material.roughness) ** 2 * 1000:.6g}",
            f"d {material.opacity:.6g}",
            f"Pm {material.metallic:.6g}",
            f"Pr {material.roughness:.6g}",
            "illum 2",
            "",
        ]
    return "\n".join(lines)


def _entry(name: str) -> zipfile.ZipInfo:
    """A zip entry with a fixed date, so the same scene always zips to the same bytes."""
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info
