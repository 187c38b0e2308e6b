"""The studio REST API: scenes, revisions, diffs, exports and mesh uploads, each owner-only, with
clear JSON 4xx errors for bad input."""

from __future__ import annotations

import copy
import io
import os
import struct
import zipfile

import pytest
import trimesh
from django.core.files.uploadedfile import SimpleUploadedFile

from studio import exports
from studio.models import SceneRevision, UploadedMesh
from studio.scene.glb import unpack_glb
from studio.services import revision_create
from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

API = "/api/v1/studio/workspaces"
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 32  # the API serves the stored bytes as they are

CRATE = {
    "name": "crate",
    "shape": {"kind": "box", "params": {"size": [0.5, 0.5, 0.5]}},
    "transform": {"translation": [0, 0.25, 0]},
    "material": {"name": "wood", "base_color": [0.6, 0.4, 0.2], "roughness": 0.7},
}
BALL = {
    "name": "red ball",
    "shape": {"kind": "sphere", "params": {"radius": 0.2}},
    "transform": {"translation": [0.8, 0.2, 0]},
    "material": {"name": "rubber", "base_color": [0.8, 0.1, 0.1]},
}
MESH_99 = {"ref": "mesh:99"}
SUN = {"name": "sun", "kind": "directional", "intensity": 3.0, "position": [3, 6, 2]}


def scene(*objects, **extra):
    return {"objects": [copy.deepcopy(item) for item in objects], "lights": [SUN], **extra}


def moved(item, translation):
    return {**copy.deepcopy(item), "transform": {"translation": translation}}


@pytest.fixture
def studio(alice, make_workspace):
    return make_workspace(alice, name="Toy Room", kind="studio")


@pytest.fixture
def two_revisions(studio):
    """r1: the crate; r2: the crate moved and a ball added (round 2, with a failing check)."""
    first = revision_create(
        workspace=studio,
        scene=scene(CRATE),
        source="round 1",
        report={"passed": True, "checks": {"support": {"passed": True, "value": 0.0}}},
        thumbnail_png=PNG,
    )
    second = revision_create(
        workspace=studio,
        scene=scene(moved(CRATE, [1.0, 0.25, 0.0]), BALL),
        source="round 2",
        report={
            "checks": {
                "support": {"passed": True, "value": 0.0},
                "overlap": {"passed": False, "value": 0.02},
            },
            "changes": ["moved crate"],
        },
    )
    return first, second


def url(workspace, path=""):
    return f"{API}/{workspace.pk}/{path}"


def assert_json_error(response, *statuses):
    assert response.status_code in (statuses or range(400, 500)), response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body.get("detail"), body
    return str(body["detail"])


def upload(client, workspace, name, data):
    return client.post(
        url(workspace, "meshes"), {"file": SimpleUploadedFile(name, data)}, format="multipart"
    )


def tiny_stl() -> bytes:
    """A binary STL of one triangle."""
    triangle = struct.pack("<12fH", 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0)
    return b"\0" * 80 + struct.pack("<I", 1) + triangle


def box_stl(size=0.3) -> bytes:
    return bytes(trimesh.exchange.stl.export_stl(trimesh.creation.box(extents=[size] * 3)))


# --- reading -----------------------------------------------------------------------------------


def test_scene_is_the_current_revision(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "scene"))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["number"] == 2 and body["source"] == "round 2"
    assert [item["name"] for item in body["scene"]["objects"]] == ["crate", "red ball"]


def test_scene_of_a_workspace_without_revisions_is_a_json_404(alice_api, studio):
    response = alice_api.get(url(studio, "scene"))

    assert response.status_code == 404 and response.json() == {"detail": "no scene yet"}


def test_revisions_list_summarises_each_round(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "revisions"))

    assert response.status_code == 200, response.content
    first, second = response.json()
    assert (first["number"], first["source"], first["passed"]) == (1, "round 1", True)
    assert (first["checks_passed"], first["checks_total"]) == (1, 1)
    assert first["thumbnail_url"] == url(studio, "revisions/1/thumbnail.png")
    assert first["render_url"] == url(studio, "revisions/1/export.png")
    assert (second["number"], second["passed"], second["checks_passed"]) == (2, False, 1)
    assert second["thumbnail_url"] is None and second["created_at"]
    assert "scene" not in first  # the list stays small


def test_an_edit_without_checks_has_no_verdict(alice_api, studio):
    revision_create(workspace=studio, scene=scene(CRATE), source="edit")

    (only,) = alice_api.get(url(studio, "revisions/")).json()

    assert only["passed"] is None and only["checks_total"] == 0


def test_revision_detail_has_scene_and_report(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "revisions/2"))

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["number"] == 2 and body["report"]["changes"] == ["moved crate"]
    assert body["scene"]["objects"][0]["transform"]["translation"] == [1.0, 0.25, 0.0]
    assert alice_api.get(url(studio, "revisions/2/")).status_code == 200


def test_unknown_revision_is_a_json_404(alice_api, studio, two_revisions):
    for path in ("revisions/9", "revisions/9/export.glb", "revisions/0/export.stl"):
        assert "no revision" in assert_json_error(alice_api.get(url(studio, path)), 404)
    assert_json_error(alice_api.post(url(studio, "revisions/9/revert")), 404)


def test_diff_lists_what_changed(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "diff"), {"a": 1, "b": 2})

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["added"] == ["red ball"] and body["removed"] == []
    assert body["changed"]["crate"]["transform.translation"] == {
        "before": [0.0, 0.25, 0.0],
        "after": [1.0, 0.25, 0.0],
    }
    same = alice_api.get(url(studio, "diff/"), {"a": 2, "b": 2}).json()
    assert same == {"added": [], "removed": [], "changed": {}}


@pytest.mark.parametrize(
    "params",
    [{}, {"a": 1}, {"a": "x", "b": 2}, {"a": -1, "b": 2}, {"a": 1, "b": 99}, {"a": 1, "b": "1e3"}],
)
def test_bad_diff_params_are_400(alice_api, studio, two_revisions, params):
    assert_json_error(alice_api.get(url(studio, "diff"), params), 400)


# --- exports -----------------------------------------------------------------------------------


def test_glb_export_loads_back_with_the_object_names(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "revisions/2/export.glb"))

    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "model/gltf-binary"
    assert response["Content-Disposition"] == 'attachment; filename="toy-room-r2.glb"'
    data = response.content
    document, _ = unpack_glb(data)
    meshes = {node["name"] for node in document["nodes"] if "mesh" in node}
    assert meshes == {"crate", "red ball", "ground"}
    loaded = trimesh.load(io.BytesIO(data), file_type="glb")
    assert isinstance(loaded, trimesh.Scene)
    geometry_nodes = set(loaded.graph.nodes_geometry)
    assert geometry_nodes == {"crate", "red ball", "ground"}
    crate = loaded.graph.get("crate")[0]
    assert crate[:3, 3].tolist() == pytest.approx([1.0, 0.25, 0.0])


def test_obj_stl_and_png_exports(alice_api, studio, two_revisions):
    obj = alice_api.get(url(studio, "revisions/2/export.obj"))
    assert obj.status_code == 200 and obj["Content-Type"] == "application/zip"
    assert obj["Content-Disposition"].endswith('filename="toy-room-r2-obj.zip"')
    with zipfile.ZipFile(io.BytesIO(obj.content)) as archive:
        assert sorted(archive.namelist()) == ["scene.mtl", "scene.obj"]
        text = archive.read("scene.obj").decode()
    assert "o crate" in text and "o red_ball" in text

    stl = alice_api.get(url(studio, "revisions/2/export.stl"))
    assert stl.status_code == 200 and stl["Content-Type"] == "model/stl"
    mesh = trimesh.load(io.BytesIO(stl.content), file_type="stl")
    assert mesh.bounds[1].tolist() == pytest.approx([1.25, 0.5, 0.25], abs=1e-6)

    thumb = alice_api.get(url(studio, "revisions/1/thumbnail.png"))
    assert thumb.status_code == 200 and thumb["Content-Type"] == "image/png"
    assert thumb.content == PNG
    assert "no render" in assert_json_error(alice_api.get(url(studio, "revisions/2/thumbnail.png")))


def test_exports_ignore_the_accept_header(alice_api, studio, two_revisions):
    response = alice_api.get(url(studio, "revisions/1/export.stl"), HTTP_ACCEPT="model/stl")

    assert response.status_code == 200 and response["Content-Type"] == "model/stl"


def test_an_empty_scene_exports_as_glb_but_not_as_stl(alice_api, studio):
    revision_create(workspace=studio, scene={"objects": []}, source="edit")

    assert alice_api.get(url(studio, "revisions/1/export.glb")).status_code == 200
    message = assert_json_error(alice_api.get(url(studio, "revisions/1/export.stl")), 409)
    assert "no objects" in message
    assert alice_api.get(url(studio, "revisions/1/export.gif")).status_code == 404


# --- writing -----------------------------------------------------------------------------------


def test_posting_a_scene_stores_an_edit(alice_api, studio, two_revisions):
    edited = scene(moved(CRATE, [2.0, 0.25, 0.0]))

    response = alice_api.post(url(studio, "revisions"), {"scene": edited}, format="json")

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["source"]) == (3, "edit")
    assert body["passed"] is True and body["checks_total"] >= 4  # checked like a round
    assert body["scene"]["objects"][0]["transform"]["translation"] == [2.0, 0.25, 0.0]
    assert alice_api.get(url(studio, "scene")).json()["number"] == 3


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, '{"scene": {...}}'),
        ({"scene": [1, 2]}, '{"scene": {...}}'),
        ({"scene": {"objects": [{"name": "x", "shape": {"kind": "blob"}}]}}, "shape.kind"),
        (
            {"scene": {"objects": [{**CRATE, "material": {"roughness": 3}}]}},
            "object 'crate' roughness must be between 0 and 1",
        ),
        ({"scene": {"objects": [CRATE, CRATE]}}, "unique"),
        ({"scene": {"objects": [{"name": "b", "shape": {"kind": "box"}}]}}, "box needs size"),
        (
            {"scene": {"objects": [{"name": "m", "shape": {"kind": "mesh", "params": {}}}]}},
            "mesh ref",
        ),
        (
            {"scene": {"objects": [{"name": "m", "shape": {"kind": "mesh", "params": MESH_99}}]}},
            "not uploaded to this workspace",
        ),
    ],
)
def test_an_invalid_scene_is_400_with_the_reason(alice_api, studio, body, message):
    response = alice_api.post(url(studio, "revisions"), body, format="json")

    assert message in assert_json_error(response, 400)
    assert not SceneRevision.objects.filter(workspace=studio).exists()


def test_a_non_json_body_is_a_json_400(alice_api, studio):
    response = alice_api.post(
        url(studio, "revisions"), data=b"{not json", content_type="application/json"
    )

    assert_json_error(response, 400)


def test_revert_makes_a_new_revision(alice_api, studio, two_revisions):
    response = alice_api.post(url(studio, "revisions/1/revert"))

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["number"], body["source"], body["passed"]) == (3, "revert to 1", True)
    assert [item["name"] for item in body["scene"]["objects"]] == ["crate"]


# --- meshes ------------------------------------------------------------------------------------


def test_uploading_a_mesh_stores_it_and_gives_its_ref(alice_api, studio):
    response = upload(alice_api, studio, "my part.stl", box_stl(0.3))

    assert response.status_code == 201, response.content
    body = response.json()
    mesh = UploadedMesh.objects.get(pk=body["id"])
    assert body["ref"] == f"mesh:{mesh.pk}" and mesh.workspace == studio
    assert (body["faces"], body["vertices"], body["format"]) == (12, 8, "stl")
    assert body["bounds"] == [
        pytest.approx([-0.15, -0.15, -0.15]),
        pytest.approx([0.15, 0.15, 0.15]),
    ]
    assert body["name"] == "my_part.stl" and mesh.file.size == len(box_stl(0.3))
    assert body["watertight"] is True


def test_a_scene_with_an_uploaded_mesh_exports(alice_api, studio):
    ref = upload(alice_api, studio, "part.stl", box_stl(0.3)).json()["ref"]
    part = {
        "name": "part",
        "shape": {"kind": "mesh", "params": {"ref": ref, "scale": 2}},
        "transform": {"translation": [0, 0.3, 0]},
    }

    created = alice_api.post(url(studio, "revisions"), {"scene": scene(part)}, format="json")
    assert created.status_code == 201, created.content
    glb = alice_api.get(url(studio, "revisions/1/export.glb"))
    assert glb.status_code == 200, glb.content
    loaded = trimesh.load(io.BytesIO(glb.content), file_type="glb")
    assert loaded.geometry["part"].extents.tolist() == pytest.approx([0.6, 0.6, 0.6], abs=1e-5)
    stl = alice_api.get(url(studio, "revisions/1/export.stl"))
    mesh = trimesh.load(io.BytesIO(stl.content), file_type="stl")
    assert mesh.bounds.ravel().tolist() == pytest.approx([-0.3, 0, -0.3, 0.3, 0.6, 0.3], abs=1e-5)


def test_the_resolver_only_sees_the_workspace_meshes(alice, studio, make_workspace):
    other = make_workspace(alice, name="Other", kind="studio")
    mesh = exports.mesh_upload(workspace=other, data=box_stl(), filename="box.stl")

    assert len(exports.mesh_resolver(other)(mesh.ref).faces) == 12
    with pytest.raises(exports.SceneError, match="not uploaded to this workspace"):
        exports.mesh_resolver(studio)(mesh.ref)
    with pytest.raises(exports.SceneError, match="must look like"):
        exports.mesh_resolver(studio)("../../etc/passwd")


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("empty.stl", b"", "empty (0 bytes)"),
        ("noise.glb", os.urandom(4096), "noise.glb is not a valid GLB file"),
        ("noise.stl", bytes(range(256)) * 3, "noise.stl is not a valid STL file"),
        ("model.fbx", box_stl(), "upload a mesh as .glb, .gltf, .obj, .stl or .ply"),
        ("nothing", box_stl(), "no extension"),
    ],
)
def test_broken_uploads_are_400_and_store_nothing(alice_api, studio, name, data, message):
    response = upload(alice_api, studio, name, data)

    assert message in assert_json_error(response, 400)
    assert not UploadedMesh.objects.exists()


def test_an_upload_over_the_face_limit_is_refused(alice_api, studio, monkeypatch):
    monkeypatch.setattr(exports, "MAX_UPLOAD_FACES", 10)

    response = upload(alice_api, studio, "box.stl", box_stl())

    assert "12 triangles; the limit is 10" in assert_json_error(response, 400)
    assert not UploadedMesh.objects.exists()


def test_an_upload_over_the_byte_limit_is_refused_before_reading(alice_api, studio, monkeypatch):
    monkeypatch.setattr(exports, "MAX_UPLOAD_BYTES", 100)

    response = upload(alice_api, studio, "box.stl", box_stl())

    assert "box.stl is 684 bytes; the limit is 100 bytes" in assert_json_error(response, 400)
    assert not UploadedMesh.objects.exists()


def test_an_upload_without_a_file_is_400(alice_api, studio):
    response = alice_api.post(url(studio, "meshes"), {"other": "x"}, format="multipart")

    assert "'file'" in assert_json_error(response, 400)


def test_the_duck_uploads(alice_api, studio):
    duck = SHARED_DATA / "studio" / "meshes" / "Duck.glb"
    if not duck.exists():
        pytest.skip(f"no shared data at {duck}")

    response = upload(alice_api, studio, "Duck.glb", duck.read_bytes())

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["faces"], body["format"], body["units_guess"]) == (4212, "glb", "m")
    assert UploadedMesh.objects.get(pk=body["id"]).name == "Duck.glb"


def test_the_byte_limit_reads_as_the_form_says():
    assert exports.upload_too_big("big.glb", exports.MAX_UPLOAD_BYTES) is None
    error = exports.upload_too_big("big.glb", exports.MAX_UPLOAD_BYTES + 3 * 2**20)
    assert str(error) == "big.glb is 53 MB; the limit is 50 MB"


def test_a_tiny_triangle_uploads(alice_api, studio):
    response = upload(alice_api, studio, "tri.stl", tiny_stl())

    assert response.status_code == 201, response.content
    assert response.json()["faces"] == 1


# --- access ------------------------------------------------------------------------------------

PATHS = [
    ("get", "scene"),
    ("get", "revisions"),
    ("get", "revisions/1"),
    ("get", "revisions/1/export.glb"),
    ("get", "revisions/1/export.obj"),
    ("get", "revisions/1/export.stl"),
    ("get", "revisions/1/export.png"),
    ("get", "diff?a=1&b=2"),
    ("post", "revisions"),
    ("post", "revisions/1/revert"),
    ("post", "meshes"),
]


@pytest.mark.parametrize(("method", "path"), PATHS)
def test_another_users_workspace_does_not_exist(bob_api, studio, two_revisions, method, path):
    if method == "post" and path == "meshes":
        response = upload(bob_api, studio, "box.stl", box_stl())
    elif method == "post":
        response = bob_api.post(url(studio, path), {"scene": scene(CRATE)}, format="json")
    else:
        response = bob_api.get(url(studio, path))

    assert assert_json_error(response, 404) == "No such workspace."
    assert SceneRevision.objects.filter(workspace=studio).count() == 2
    assert not UploadedMesh.objects.exists()


@pytest.mark.parametrize(("method", "path"), PATHS)
def test_anonymous_callers_are_refused(client, studio, two_revisions, method, path):
    response = getattr(client, method)(url(studio, path))

    assert_json_error(response, 401, 403)


def test_a_finance_workspace_has_no_studio_api(alice, alice_api, make_workspace):
    finance = make_workspace(alice, name="Ledger", kind="finance")

    for path in ("scene", "revisions", "diff?a=1&b=2"):
        message = assert_json_error(alice_api.get(url(finance, path)), 404)
        assert "not a studio" in message or "studio workspaces" in message
    assert "studio workspaces" in assert_json_error(upload(alice_api, finance, "b.stl", box_stl()))


def test_unknown_and_huge_ids_are_json_404(alice_api, studio):
    for path in (f"{API}/999999/scene", f"{API}/{'9' * 30}/scene", url(studio, "nothing")):
        assert_json_error(alice_api.get(path), 404)


def test_the_schema_lists_the_studio_endpoints(alice_api):
    schema = alice_api.get("/api/schema/?format=json").json()

    paths = {path.rstrip("/") for path in schema["paths"]}
    assert "/api/v1/studio/workspaces/{workspace_id}/revisions" in paths
    assert "/api/v1/studio/workspaces/{workspace_id}/meshes" in paths
