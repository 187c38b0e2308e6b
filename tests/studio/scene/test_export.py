"""Exported files open elsewhere with the scene's names, sizes, materials, camera and lights."""

from __future__ import annotations

import io
import math
import struct
import zipfile
from dataclasses import asdict
from typing import Any

import numpy as np
import pytest
import trimesh

from studio.scene.export import scene_to_glb, scene_to_obj, scene_to_stl
from studio.scene.geometry import world_mesh
from studio.scene.glb import unpack_glb
from studio.scene.model import Scene, SceneError, scene_from_dict
from studio.scene.transforms import look_at_rotation, quaternion_xyzw

SCENE: dict[str, Any] = {
    "objects": [
        {
            "name": "table top",
            "shape": {"kind": "box", "params": {"size": [1.2, 0.05, 0.8]}},
            "transform": {"translation": [0, 0.75, 0], "rotation": [0, 30, 0], "scale": [1, 2, 1]},
            "material": {"name": "oak", "base_color": [0.52, 0.35, 0.18], "roughness": 0.6},
            "physics": {"dynamic": True, "mass": 12.5, "friction": 0.8, "collision": "box"},
            "category": "table",
        },
        {
            "name": "glass ball",
            "shape": {"kind": "sphere", "params": {"radius": 0.1}},
            "transform": {"translation": [0.2, 0.9, 0.1]},
            "material": {
                "name": "glass",
                "base_color": [0.9, 0.95, 1.0],
                "metallic": 0.0,
                "roughness": 0.05,
                "opacity": 0.25,
                "emissive": [0.1, 0.2, 0.3],
            },
            "category": "ball",
        },
        {
            "name": "lamp post",
            "shape": {"kind": "cylinder", "params": {"radius": 0.05, "height": 2.0}},
            "transform": {"translation": [-2, 1, 0], "rotation": [10, 0, 0]},
            "material": {"name": "steel", "metallic": 1.0, "roughness": 0.3},
        },
    ],
    "lights": [
        {"name": "sun", "kind": "directional", "intensity": 4.0, "position": [3, 8, 2]},
        {
            "name": "bulb",
            "kind": "point",
            "color": [1, 0.9, 0.7],
            "intensity": 60,
            "position": [-2, 2.1, 0],
        },
        {
            "name": "spot",
            "kind": "spot",
            "intensity": 200,
            "position": [0, 3, 2],
            "target": [0, 0.75, 0],
            "inner_cone_deg": 20,
            "outer_cone_deg": 35,
        },
    ],
    "camera": {"position": [4, 2.5, 4], "target": [0, 0.75, 0], "yfov_deg": 45, "aspect": 1.5},
    "ground_size": 12,
}


@pytest.fixture(scope="module")
def scene() -> Scene:
    return scene_from_dict(SCENE)


@pytest.fixture(scope="module")
def glb(scene) -> bytes:
    return scene_to_glb(scene)


@pytest.fixture(scope="module")
def document(glb) -> dict:
    return unpack_glb(glb)[0]


def node(document: dict, name: str) -> dict:
    (found,) = [item for item in document["nodes"] if item.get("name") == name]
    return found


def minus_z(rotation_xyzw: list[float]) -> np.ndarray:
    x, y, z, w = rotation_xyzw
    return trimesh.transformations.quaternion_matrix([w, x, y, z])[:3, :3] @ [0, 0, -1]


def test_glb_container_is_well_formed(glb):
    magic, version, length = struct.unpack_from("<4sII", glb)
    json_length, json_type = struct.unpack_from("<II", glb, 12)

    assert (magic, version, length) == (b"glTF", 2, len(glb))
    assert json_type == 0x4E4F534A and json_length % 4 == 0
    bin_length, bin_type = struct.unpack_from("<II", glb, 20 + json_length)
    assert bin_type == 0x004E4942 and bin_length % 4 == 0
    assert 20 + json_length + 8 + bin_length == len(glb)


def test_trimesh_loads_every_object_at_its_world_place(scene, glb):
    loaded = trimesh.load(io.BytesIO(glb), file_type="glb")

    names = set(loaded.graph.nodes_geometry)
    assert names == {"table top", "glass ball", "lamp post", "ground"}
    for obj in scene.objects:
        matrix, geometry = loaded.graph[obj.name]
        placed = loaded.geometry[geometry].copy().apply_transform(matrix)
        np.testing.assert_allclose(placed.bounds, world_mesh(obj).bounds, atol=1e-5)
        assert len(placed.faces) == len(world_mesh(obj).faces)


def test_ground_node_top_is_at_zero(glb):
    loaded = trimesh.load(io.BytesIO(glb), file_type="glb")
    matrix, geometry = loaded.graph["ground"]
    ground = loaded.geometry[geometry].copy().apply_transform(matrix)

    assert ground.bounds[1, 1] == pytest.approx(0.0, abs=1e-7)
    np.testing.assert_allclose(ground.extents[[0, 2]], [12, 12])


def test_nodes_carry_names_physics_and_category(scene, document):
    for obj in scene.objects:
        extras = node(document, obj.name)["extras"]
        assert extras["physics"] == asdict(obj.physics)
        assert extras["category"] == obj.category
        assert extras["shape"] == obj.shape.kind
    assert node(document, "table top")["extras"]["physics"]["mass"] == 12.5
    assert node(document, "ground")["extras"]["physics"]["dynamic"] is False


def test_node_transform_is_trs(scene, document):
    table = node(document, "table top")

    assert table["translation"] == [0, 0.75, 0]
    assert table["scale"] == [1, 2, 1]
    np.testing.assert_allclose(
        table["rotation"], [0, math.sin(math.radians(15)), 0, math.cos(math.radians(15))]
    )
    assert "translation" not in node(document, "ground")


def test_materials_carry_pbr_factors(document):
    def material_of(name: str) -> dict:
        mesh = document["meshes"][node(document, name)["mesh"]]
        return document["materials"][mesh["primitives"][0]["material"]]

    glass, oak, steel = (
        material_of("glass ball"),
        material_of("table top"),
        material_of("lamp post"),
    )
    assert glass["pbrMetallicRoughness"]["baseColorFactor"] == [0.9, 0.95, 1.0, 0.25]
    assert glass["alphaMode"] == "BLEND"
    assert glass["pbrMetallicRoughness"]["roughnessFactor"] == 0.05
    assert glass["emissiveFactor"] == [0.1, 0.2, 0.3]
    assert oak["alphaMode"] == "OPAQUE" and oak["name"] == "oak"
    assert oak["pbrMetallicRoughness"]["baseColorFactor"] == [0.52, 0.35, 0.18, 1.0]
    assert steel["pbrMetallicRoughness"]["metallicFactor"] == 1.0
    assert steel["pbrMetallicRoughness"]["roughnessFactor"] == 0.3


def test_meshes_have_position_bounds_and_unit_normals(glb, document):
    binary = unpack_glb(glb)[1]
    for mesh in document["meshes"]:
        attributes = mesh["primitives"][0]["attributes"]
        position = document["accessors"][attributes["POSITION"]]
        assert len(position["min"]) == len(position["max"]) == 3
        normal = document["accessors"][attributes["NORMAL"]]
        view = document["bufferViews"][normal["bufferView"]]
        values = np.frombuffer(binary, np.float32, normal["count"] * 3, view["byteOffset"])
        np.testing.assert_allclose(np.linalg.norm(values.reshape(-1, 3), axis=1), 1, atol=1e-5)


def test_camera_looks_at_its_target(scene, document):
    camera = document["cameras"][0]
    camera_node = node(document, "camera")

    assert camera["type"] == "perspective"
    assert camera["perspective"]["yfov"] == pytest.approx(math.radians(45))
    assert camera["perspective"]["aspectRatio"] == 1.5
    assert camera_node["camera"] == 0
    assert camera_node["translation"] == [4, 2.5, 4]
    towards = np.subtract(scene.camera.target, scene.camera.position)
    np.testing.assert_allclose(
        minus_z(camera_node["rotation"]), towards / np.linalg.norm(towards), atol=1e-9
    )


def test_lights_are_khr_lights_punctual(scene, document):
    assert "KHR_lights_punctual" in document["extensionsUsed"]
    lights = document["extensions"]["KHR_lights_punctual"]["lights"]
    by_name = {light["name"]: light for light in lights}

    assert by_name["sun"]["type"] == "directional" and by_name["sun"]["intensity"] == 4.0
    assert by_name["bulb"]["type"] == "point" and by_name["bulb"]["color"] == [1, 0.9, 0.7]
    spot = by_name["spot"]["spot"]
    assert spot["innerConeAngle"] == pytest.approx(math.radians(20))
    assert spot["outerConeAngle"] == pytest.approx(math.radians(35))
    for light in scene.lights:
        light_node = node(document, light.name)
        assert (
            lights[light_node["extensions"]["KHR_lights_punctual"]["light"]]["name"] == light.name
        )
        towards = np.subtract(light.target, light.position)
        np.testing.assert_allclose(
            minus_z(light_node["rotation"]), towards / np.linalg.norm(towards), atol=1e-9
        )


def test_spot_inner_cone_stays_below_outer():
    scene = scene_from_dict(
        {"lights": [{"name": "s", "kind": "spot", "inner_cone_deg": 40, "outer_cone_deg": 30}]}
    )
    spot = unpack_glb(scene_to_glb(scene))[0]["extensions"]["KHR_lights_punctual"]["lights"][0][
        "spot"
    ]

    assert 0 <= spot["innerConeAngle"] < spot["outerConeAngle"] <= math.pi / 2


def test_scene_without_ground_or_lights():
    scene = scene_from_dict({"ground": False, "objects": [SCENE["objects"][0]]})
    document = unpack_glb(scene_to_glb(scene))[0]

    assert [item["name"] for item in document["nodes"]] == ["table top", "camera"]
    assert "extensionsUsed" not in document and "extensions" not in document


def test_look_at_straight_down_is_valid():
    rotation = quaternion_xyzw(look_at_rotation((0, 10, 0), (0, 0, 0)))

    np.testing.assert_allclose(minus_z(rotation), [0, -1, 0], atol=1e-9)


def test_broken_object_is_named():
    scene = scene_from_dict(
        {"objects": [{"name": "vase", "shape": {"kind": "revolve", "params": {}}}]}
    )

    with pytest.raises(SceneError, match=r"object 'vase': revolve needs profile"):
        scene_to_glb(scene)


def test_mesh_objects_export_through_the_resolver():
    scene = scene_from_dict(
        {
            "objects": [
                {"name": "duck", "shape": {"kind": "mesh", "params": {"ref": "a1", "scale": 0.01}}}
            ]
        }
    )
    source = trimesh.creation.box(extents=[100, 50, 20])
    loaded = trimesh.load(
        io.BytesIO(scene_to_glb(scene, resolve_mesh=lambda ref: source)), file_type="glb"
    )

    _, geometry = loaded.graph["duck"]
    np.testing.assert_allclose(
        loaded.geometry[geometry].extents, np.array([1, 0.5, 0.2]), rtol=1e-6
    )


def test_obj_zip_loads_back_with_every_face(scene):
    archive = zipfile.ZipFile(io.BytesIO(scene_to_obj(scene)))
    text = archive.read("scene.obj").decode()
    mtl = archive.read("scene.mtl").decode()

    mesh = trimesh.load(io.BytesIO(text.encode()), file_type="obj", force="mesh")
    assert len(mesh.faces) == sum(len(world_mesh(obj).faces) for obj in scene.objects)
    assert {"o table_top", "o glass_ball", "o lamp_post"} <= set(text.splitlines())
    assert "d 0.25" in mtl and "Pm 1" in mtl and "mtllib scene.mtl" in text
    np.testing.assert_allclose(
        mesh.bounds[1, 1],
        2.0 * math.cos(math.radians(10)) / 2 + 1 + 0.05 * math.sin(math.radians(10)),
        rtol=1e-6,
    )


def test_stl_holds_every_world_triangle(scene):
    data = scene_to_stl(scene)
    mesh = trimesh.load(io.BytesIO(data), file_type="stl")

    faces = sum(len(world_mesh(obj).faces) for obj in scene.objects)
    assert struct.unpack_from("<I", data, 80)[0] == faces
    assert len(mesh.faces) == faces
    with_ground = trimesh.load(
        io.BytesIO(scene_to_stl(scene, include_ground=True)), file_type="stl"
    )
    assert len(with_ground.faces) == faces + 12
    assert with_ground.bounds[0, 1] == pytest.approx(-0.02)


def test_empty_scene_exports():
    document = unpack_glb(scene_to_glb(Scene(ground=False)))[0]

    assert [item["name"] for item in document["nodes"]] == ["camera"]
    with pytest.raises(SceneError, match=r"no objects to export"):
        scene_to_stl(Scene())


def test_a_stated_size_round_trips_and_is_exported(scene):
    from dataclasses import replace

    first = scene.objects[0]
    stated = replace(scene, objects=(replace(first, size_stated=True), *scene.objects[1:]))
    data = stated.to_dict()
    assert data["objects"][0]["size_stated"] is True
    assert data["objects"][1]["size_stated"] is False
    assert scene_from_dict(data) == stated
    del data["objects"][0]["size_stated"]  # scenes stored before the field read as not stated
    assert scene_from_dict(data).objects[0].size_stated is False

    document = unpack_glb(scene_to_glb(stated))[0]
    extras = {n["name"]: n.get("extras", {}) for n in document["nodes"]}
    assert extras[first.name]["size_stated"] is True
    assert extras[scene.objects[1].name]["size_stated"] is False
