"""Uploaded meshes import with honest metadata; broken and hostile files are refused clearly."""

from __future__ import annotations

import base64
import io
import json
import os
import struct
import time
import tracemalloc

import numpy as np
import pytest
import trimesh

from studio.scene.export import scene_to_glb
from studio.scene.glb import pack_glb, unpack_glb
from studio.scene.mesh_import import MeshImportError, import_mesh
from studio.scene.model import SceneError, scene_from_dict
from tests.conftest import SHARED_DATA
from tests.studio.bombs import cost_in_child, vertex_bomb_glb

MESHES = SHARED_DATA / "studio" / "meshes"
needs_meshes = pytest.mark.skipif(
    not MESHES.is_dir(), reason=f"shared sample meshes not found at {MESHES}"
)
TRIANGLE_OBJ = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"


def two_boxes_glb() -> bytes:
    scene = scene_from_dict(
        {
            "ground": False,
            "objects": [
                {"name": "a", "shape": {"kind": "box", "params": {"size": [1, 1, 1]}}},
                {
                    "name": "b",
                    "shape": {"kind": "box", "params": {"size": [1, 1, 1]}},
                    "transform": {"translation": [3, 0.5, 0], "rotation": [0, 45, 0]},
                },
            ],
        }
    )
    return scene_to_glb(scene)


def ascii_stl(*vertices: str) -> bytes:
    corners = "".join(f"vertex {vertex}\n" for vertex in vertices)
    facet = f"facet normal 0 0 1\nouter loop\n{corners}endloop\nendfacet\n"
    return f"solid x\n{facet}endsolid x\n".encode()


@needs_meshes
@pytest.mark.parametrize(
    ("filename", "fmt", "faces"),
    [
        ("Duck.glb", "glb", 4212),
        ("CesiumMilkTruck.glb", "glb", 3624),
        ("bunny.ply", "ply", 16301),
        ("teapot.stl", "stl", 894),
        ("chair_model.obj", "obj", 12756),
        ("suzanne.ply", "ply", 968),
        ("featuretype.STL", "stl", 3476),
        # Despite its name, trimesh's busted.STL is a sound binary STL (a watertight tooth scan).
        ("busted.STL", "stl", 3878),
    ],
)
def test_sample_meshes_import(filename, fmt, faces):
    imported = import_mesh((MESHES / filename).read_bytes(), filename)

    assert imported.format == fmt
    assert imported.faces == len(imported.mesh.faces) == faces
    assert imported.vertices == len(imported.mesh.vertices) > 0
    assert np.isfinite(imported.bounds).all()
    assert min(imported.extents) > 0


@needs_meshes
def test_metadata_of_known_meshes():
    truck = import_mesh((MESHES / "CesiumMilkTruck.glb").read_bytes(), "CesiumMilkTruck.glb")
    featuretype = import_mesh((MESHES / "featuretype.STL").read_bytes(), "featuretype.STL")
    teapot = import_mesh((MESHES / "teapot.stl").read_bytes(), "teapot.stl")

    # The truck's wheels are separate nodes: flattened in place, it stands on y = 0.
    assert truck.bounds[0][1] == pytest.approx(0.0, abs=0.01)
    assert truck.extents[0] == pytest.approx(4.87, abs=0.01)
    assert truck.units_guess == "m"
    assert featuretype.watertight
    np.testing.assert_allclose(featuretype.extents, [5, 2.5, 1.375])
    assert teapot.units_guess == "cm" and teapot.scale_to_metres == 0.01


def test_scene_nodes_are_flattened_in_their_transforms():
    imported = import_mesh(two_boxes_glb(), "boxes.glb")

    half_diagonal = np.sqrt(0.5)
    assert imported.faces == 24
    np.testing.assert_allclose(
        imported.bounds,
        [[-0.5, -0.5, -half_diagonal], [3 + half_diagonal, 1.0, half_diagonal]],
        atol=1e-6,
    )


def test_embedded_gltf_and_misnamed_files_load_by_content():
    document, binary = unpack_glb(two_boxes_glb())
    uri = "data:application/octet-stream;base64," + base64.b64encode(binary).decode()
    document["buffers"] = [{"byteLength": len(binary), "uri": uri}]

    assert import_mesh(json.dumps(document).encode(), "boxes.gltf").faces == 24
    assert import_mesh(two_boxes_glb(), "boxes.gltf").format == "glb"
    assert import_mesh(ascii_stl("0 0 0", "1 0 0", "0 1 0"), "tri.obj").format == "stl"


def test_millimetre_parts_and_latin1_comments():
    part = trimesh.creation.box(extents=[200, 120, 40])
    stl = import_mesh(bytes(trimesh.exchange.stl.export_stl(part)), "bracket.stl")
    obj = import_mesh("# modèle exporté\n".encode("latin-1") + TRIANGLE_OBJ, "tri.obj")

    assert stl.units_guess == "mm" and stl.scale_to_metres == 0.001
    assert stl.watertight and stl.faces == 12
    assert obj.faces == 1 and not obj.watertight


@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("empty.stl", b"", r"^empty\.stl is empty \(0 bytes\)$"),
        (
            "model.fbx",
            TRIANGLE_OBJ,
            r"model\.fbx has '\.fbx'; upload a mesh as \.glb, \.gltf, \.obj, \.stl or \.ply",
        ),
        ("model", TRIANGLE_OBJ, r"model has no extension"),
        (
            "notes.stl",
            b"These are my notes about the chair.\n" * 20,
            r"notes\.stl is not a valid STL file: it is text but not an ASCII STL",
        ),
        (
            "noise.stl",
            os.urandom(4000),
            r"noise\.stl is not a valid STL file: its binary header declares",
        ),
        (
            "noise.obj",
            os.urandom(4000),
            r"noise\.obj is not a valid OBJ file: its bytes are binary, not text",
        ),
        (
            "noise.glb",
            os.urandom(4000),
            r"noise\.glb is not a valid GLB file: it does not start with the binary glTF",
        ),
        (
            "noise.ply",
            os.urandom(4000),
            r"noise\.ply is not a valid PLY file: it does not start with 'ply'",
        ),
        (
            "notes.obj",
            b"hello\nworld\n",
            r"notes\.obj is not a valid OBJ file: it has no vertex lines",
        ),
        (
            "nan.stl",
            ascii_stl("nan 0 0", "1 0 0", "0 1 0"),
            r"nan\.stl has NaN or infinite vertex coordinates",
        ),
        ("nan.obj", b"v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", r"nan\.obj has NaN or infinite"),
        ("inf.obj", b"v 1e999 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", r"inf\.obj has NaN or infinite"),
        ("points.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\n", r"points\.obj has no triangles"),
        ("bad.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n", r"bad\.obj could not be read as OBJ"),
        (
            "data.gltf",
            b'{"name": "not a model"}',
            r"data\.gltf is JSON but not glTF \(no 'asset'\)",
        ),
        ("cut.gltf", b'{"asset": {"version": "2.0"', r"cut\.gltf is not valid glTF JSON"),
        ("empty.gltf", b'{"asset": {"version": "2.0"}}', r"empty\.gltf has no triangles"),
        (
            "huge.ply",
            b"ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
            b"property float y\nproperty float z\nelement face 900000000\n"
            b"property list uchar int vertex_indices\nend_header\n" + bytes(64),
            r"huge\.ply has 900,000,000 triangles; the limit is 500,000",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 20 else "",
)
def test_hostile_inputs_are_refused_with_a_reason(filename, data, message):
    with pytest.raises(MeshImportError, match=message):
        import_mesh(data, filename)


def test_import_errors_are_scene_errors():
    assert issubclass(MeshImportError, SceneError)


@needs_meshes
def test_truncated_binary_stl_is_refused():
    data = (MESHES / "busted.STL").read_bytes()[:5000]

    with pytest.raises(
        MeshImportError,
        match=r"declares 3,878 triangles \(193,984 bytes\) but the file has 5,000 bytes",
    ):
        import_mesh(data, "busted.STL")


@needs_meshes
def test_limits_on_size_and_faces():
    bunny = (MESHES / "bunny.ply").read_bytes()
    teapot = (MESHES / "teapot.stl").read_bytes()
    chair = (MESHES / "chair_model.obj").read_bytes()

    with pytest.raises(
        MeshImportError, match=r"bunny\.ply has 16,301 triangles; the limit is 1,000"
    ):
        import_mesh(bunny, "bunny.ply", max_faces=1000)
    with pytest.raises(
        MeshImportError, match=r"chair_model\.obj has [\d,]+ triangles; the limit is 1,000"
    ):
        import_mesh(chair, "chair_model.obj", max_faces=1000)
    with pytest.raises(MeshImportError, match=r"teapot\.stl is 44\.8 kB; the limit is 10\.0 kB"):
        import_mesh(teapot, "teapot.stl", max_bytes=10_000)


def test_gltf_instances_count_toward_the_limit():
    document, binary = unpack_glb(two_boxes_glb())
    first = len(document["nodes"])
    document["nodes"] += [{"mesh": 0, "translation": [i, 0, 0]} for i in range(100)]
    document["scenes"][0]["nodes"] += list(range(first, first + 100))  # 100 more boxes

    with pytest.raises(MeshImportError, match=r"many\.glb has 1,224 triangles; the limit is 1,000"):
        import_mesh(pack_glb(document, binary), "many.glb", max_faces=1000)


def test_gltf_cycles_and_external_files_are_refused():
    document, binary = unpack_glb(two_boxes_glb())
    document["nodes"][0]["children"] = [0]  # a node that contains itself
    external = {
        "asset": {"version": "2.0"},
        "buffers": [{"uri": "../../etc/passwd", "byteLength": 9}],
    }

    with pytest.raises(MeshImportError, match=r"loop\.glb's node tree is cyclic"):
        import_mesh(pack_glb(document, binary), "loop.glb")
    with pytest.raises(
        MeshImportError, match=r"refers to an external file \(\.\./\.\./etc/passwd\)"
    ):
        import_mesh(json.dumps(external).encode(), "model.gltf")


def test_truncated_glb_is_refused():
    data = two_boxes_glb()
    declared_longer = data[:8] + struct.pack("<I", len(data) + 100) + data[12:]

    with pytest.raises(MeshImportError, match=r"broken GLB: GLB header says"):
        import_mesh(declared_longer, "cut.glb")
    with pytest.raises(MeshImportError, match=r"cut\.glb"):
        import_mesh(data[: len(data) // 2], "cut.glb")


def test_file_names_are_reduced_to_their_base_name():
    with pytest.raises(MeshImportError, match=r"^secret\.stl is empty"):
        import_mesh(b"", "C:\\Users\\me\\secret.stl")
    assert import_mesh(io.BytesIO(TRIANGLE_OBJ).read(), "/tmp/x/tri.OBJ").faces == 1


@pytest.fixture
def parses_nothing(monkeypatch):
    """Parsing fails the test: a refusal must come from the file's declarations alone."""

    def load(*args, **kwargs):
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(trimesh, "load", load)


def test_a_vertex_bomb_glb_is_refused_before_parsing_in_milliseconds(parses_nothing):
    bomb = vertex_bomb_glb()
    tracemalloc.start()
    start = time.perf_counter()

    with pytest.raises(MeshImportError) as refused:
        import_mesh(bomb, "bomb.glb")

    seconds = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(bomb) < 600
    assert str(refused.value) == (
        "bomb.glb's accessor 0 declares 40,000,000 elements with no bufferView holding them "
        "(compressed or placeholder data is not supported)"
    )
    assert seconds < 0.1 and peak < 2**20


def test_the_vertex_bomb_costs_no_memory_in_a_fresh_process():
    cost = cost_in_child(
        """
        from studio.scene.mesh_import import import_mesh
        from tests.studio.bombs import vertex_bomb_glb
        bomb = vertex_bomb_glb()
        """,
        'import_mesh(bomb, "bomb.glb")',
    )

    assert cost.outcome.startswith("MeshImportError: bomb.glb's accessor 0 declares 40,000,000")
    assert cost.seconds < 0.5 and cost.peak_growth_mb < 20  # unbounded: 18 s, 5.8 GB


def gltf_with(change) -> bytes:
    document, binary = unpack_glb(two_boxes_glb())
    change(document)
    return pack_glb(document, binary)


def set_accessor(**fields):
    return lambda document: document["accessors"][0].update(fields)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            set_accessor(sparse={"count": 1}),
            r"accessor 0 is sparse; upload a mesh without sparse accessors",
        ),
        (set_accessor(count=2_000_000), r"accessor 0 declares 2,000,000 elements; the limit is"),
        (set_accessor(count=1000), r"accessor 0 needs [\d,]+ bytes but its bufferView \d+ has"),
        (set_accessor(count=-1), r"accessor 0 has no valid count \(-1\)"),
        (set_accessor(type=["VEC3"]), r"accessor 0 has an unknown type or componentType"),
        (
            lambda d: d["buffers"][0].update(byteLength=10**9),
            r"buffer 0 declares 1000000000 bytes but holds",
        ),
        (
            lambda d: d["bufferViews"][0].update(byteOffset=10**6),
            r"bufferView 0 ends at byte [\d,]+ of buffer 0, which has",
        ),
    ],
    ids=["sparse", "huge", "past-view", "negative", "type", "buffer", "view"],
)
def test_gltf_accessors_must_hold_what_they_declare(parses_nothing, change, message):
    with pytest.raises(MeshImportError, match=message):
        import_mesh(gltf_with(change), "boxes.glb")


def test_a_glb_with_more_vertices_than_allowed_is_refused_by_its_declarations(parses_nothing):
    with pytest.raises(
        MeshImportError, match=r"boxes\.glb declares 48 vertices; the limit is 40 \("
    ):
        import_mesh(two_boxes_glb(), "boxes.glb", max_vertices=40)


PLY_HEADER = (
    b"ply\nformat {fmt} 1.0\nelement vertex {vertices}\nproperty float x\nproperty float y\n"
    b"property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
)


@pytest.mark.parametrize(
    ("fmt", "vertices", "body", "message"),
    [
        ("binary_little_endian", 3, bytes(64), None),
        ("binary_little_endian", 40_000_000, bytes(64), r"declares 40,000,000 vertices"),
        ("binary_little_endian", 1_000_000, bytes(64), r"needing at least 12,000,001 bytes"),
        ("ascii", 1_000_000, b"0 0 0\n" * 3 + b"3 0 1 2\n", r"needing at least 6,000,002 bytes"),
    ],
    ids=["sound", "over-limit", "false-binary", "false-text"],
)
def test_ply_headers_are_checked_against_the_limit_and_the_bytes(
    parses_nothing, fmt, vertices, body, message
):
    data = PLY_HEADER.replace(b"{fmt}", fmt.encode()).replace(b"{vertices}", str(vertices).encode())
    with pytest.raises(MeshImportError, match=message or "the file was parsed"):
        import_mesh(data + body, "part.ply")


def test_obj_and_stl_are_bounded_by_their_lines(parses_nothing):
    fan = b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf " + b" ".join([b"1", b"2", b"3"] * 400) + b"\n"
    points = b"v 0 0 0\n" * 50 + b"f 1 2 3\n"

    with pytest.raises(MeshImportError, match=r"fan\.obj has 1,198 triangles; the limit is 1,000"):
        import_mesh(fan, "fan.obj", max_faces=1000)
    with pytest.raises(MeshImportError, match=r"points\.obj declares 50 vertices; the limit is 40"):
        import_mesh(points, "points.obj", max_vertices=40)
    with pytest.raises(MeshImportError, match=r"tri\.stl declares 3 vertices; the limit is 2"):
        import_mesh(ascii_stl("0 0 0", "1 0 0", "0 1 0"), "tri.stl", max_vertices=2)


@pytest.mark.parametrize("name", ["deep.gltf", "deep.glb"])
def test_json_nested_too_deeply_is_refused_with_the_reason(name):
    # Python's JSON parser recurses once per level: 200,000 brackets were a RecursionError (500).
    text = b'{"asset": {"version": "2.0"}, "x": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    if name.endswith(".glb"):
        text += b" " * (-len(text) % 4)
        chunk = struct.pack("<II", len(text), 0x4E4F534A) + text
        text = struct.pack("<4sII", b"glTF", 2, 12 + len(chunk)) + chunk

    with pytest.raises(MeshImportError, match="nests its JSON too deeply"):
        import_mesh(text, name, max_bytes=50 * 2**20, max_faces=500_000)
