"""A person's edits through the studio API: each is validated, capped, checked like an agent round
and stored as a user revision with its render and thumbnail; exports are computed once."""

from __future__ import annotations

import copy
import io
import time

import pytest
import trimesh
from django.core.files.base import ContentFile
from PIL import Image

from studio import exports, user_edits
from studio.models import SceneRevision, UploadedMesh
from studio.scene import geometry
from studio.scene.glb import unpack_glb
from studio.services import revision_create
from tests.studio.bombs import nested_booleans, vertex_bomb_glb
from tests.studio.test_api import BALL, CRATE, assert_json_error, scene, upload, url

pytestmark = pytest.mark.django_db

GLASS = {
    "name": "vase",
    "shape": {"kind": "cylinder", "params": {"radius": 0.1, "height": 0.3}},
    "transform": {"translation": [0, 0.15, 0.8]},
    "material": {
        "name": "glass",
        "base_color": [0.9, 0.95, 1.0],
        "roughness": 0.05,
        "opacity": 0.25,
    },
}


@pytest.fixture
def studio(alice, make_workspace):
    return make_workspace(alice, name="Toy Room", kind="studio")


def post_edit(client, workspace, body):
    return client.post(url(workspace, "revisions"), body, format="json")


def image_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def test_an_edit_becomes_a_checked_user_revision_with_its_source(alice_api, studio):
    response = post_edit(
        alice_api, studio, {"scene": scene(CRATE, BALL), "source": "edit: moved red ball"}
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["source"] == "edit: moved red ball"
    checks = body["report"]["checks"]
    assert {"interpenetration", "support", "stability", "scale_sanity"} <= set(checks)
    assert {"exposure", "framing"} <= set(checks)  # rendered and measured like a round
    assert body["passed"] is True and body["checks_total"] == len(checks)
    listed = alice_api.get(url(studio, "revisions")).json()
    assert listed[-1]["source"] == "edit: moved red ball" and listed[-1]["passed"] is True


def test_a_floating_object_fails_the_support_check_of_its_edit(alice_api, studio):
    floating = {**copy.deepcopy(CRATE), "transform": {"translation": [0, 1.5, 0]}}

    body = post_edit(alice_api, studio, {"scene": scene(floating), "source": "moved crate"}).json()

    assert body["source"] == "edit: moved crate"  # "edit: " added
    assert body["passed"] is False and body["report"]["checks"]["support"]["passed"] is False
    stored = SceneRevision.objects.get(workspace=studio, number=body["number"])
    assert stored.scene["objects"][0]["transform"]["translation"] == [0, 1.5, 0]  # kept as made


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x" * 81, "at most 80 characters"),
        ("edit: <script>", "simple punctuation"),
        (["edit"], "short text"),
    ],
)
def test_a_bad_source_is_400_with_the_reason(alice_api, studio, source, message):
    response = post_edit(alice_api, studio, {"scene": scene(CRATE), "source": source})

    assert message in assert_json_error(response, 400)
    assert not SceneRevision.objects.filter(workspace=studio).exists()


def test_an_invalid_value_is_400_with_the_reason_and_stores_nothing(alice_api, studio):
    bad = {**copy.deepcopy(CRATE), "transform": {"scale": [1, -2, 1]}}

    response = post_edit(alice_api, studio, {"scene": scene(bad), "source": "edit: resized crate"})

    assert "object 'crate' scale must be positive" in assert_json_error(response, 400)
    assert not SceneRevision.objects.filter(workspace=studio).exists()


def test_too_many_objects_is_400(alice_api, studio, monkeypatch):
    monkeypatch.setattr(user_edits, "MAX_OBJECTS", 1)

    response = post_edit(alice_api, studio, {"scene": scene(CRATE, BALL)})

    assert "2 objects; an edit may have at most 1" in assert_json_error(response, 400)


def test_too_many_triangles_is_400_with_the_estimate(alice_api, studio, monkeypatch):
    monkeypatch.setattr(user_edits, "MAX_TRIANGLES", 100)

    response = post_edit(alice_api, studio, {"scene": scene(CRATE, BALL)})

    # A box's 12 and a sphere's 5,120, bounded before either is built.
    message = "this scene would have about 5,132 triangles; the limit is 100"
    assert message in assert_json_error(response, 400)


def test_a_too_big_export_is_400(alice_api, studio, monkeypatch):
    monkeypatch.setattr(user_edits, "MAX_EXPORT_BYTES", 1024)

    response = post_edit(alice_api, studio, {"scene": scene(CRATE, BALL)})

    assert "GLB export would be" in assert_json_error(response, 400)
    assert not SceneRevision.objects.filter(workspace=studio).exists()


def test_an_edit_has_a_1024x768_render_and_a_thumbnail(alice_api, studio):
    body = post_edit(alice_api, studio, {"scene": scene(CRATE), "source": "edit: resized crate"})
    body = body.json()

    render = alice_api.get(body["render_url"])
    thumb = alice_api.get(body["thumbnail_url"])

    assert render.status_code == 200 and image_size(render.content) == (1024, 768)
    assert thumb.status_code == 200 and max(image_size(thumb.content)) <= 256


def test_a_revert_gets_a_render_and_a_thumbnail(alice_api, studio):
    revision_create(workspace=studio, scene=scene(CRATE), source="round 1")  # never rendered
    revision_create(workspace=studio, scene=scene(CRATE, BALL), source="round 2")

    body = alice_api.post(url(studio, "revisions/1/revert")).json()

    assert body["source"] == "revert to 1" and body["thumbnail_url"]
    assert body["passed"] is True  # checked, as the reverted-to revision never was
    render = alice_api.get(url(studio, f"revisions/{body['number']}/export.png"))
    assert image_size(render.content) == (1024, 768)


def test_an_older_round_is_rendered_at_1024x768_on_first_download(alice_api, studio):
    revision_create(workspace=studio, scene=scene(CRATE), source="round 1")

    response = alice_api.get(url(studio, "revisions/1/export.png"))

    assert response.status_code == 200 and image_size(response.content) == (1024, 768)


def test_exports_are_computed_once_per_revision(alice_api, studio, monkeypatch):
    revision_create(workspace=studio, scene=scene(CRATE, BALL), source="round 1")
    calls: list[str] = []
    build = exports._build_export

    def counted(revision, fmt):
        calls.append(fmt)
        return build(revision, fmt)

    monkeypatch.setattr(exports, "_build_export", counted)

    first = alice_api.get(url(studio, "revisions/1/export.stl")).content
    second = alice_api.get(url(studio, "revisions/1/export.stl")).content

    assert first == second and calls == ["stl"]


def test_an_edit_stores_its_glb_so_the_download_is_not_rebuilt(alice_api, studio, monkeypatch):
    post_edit(alice_api, studio, {"scene": scene(CRATE)})
    monkeypatch.setattr(exports, "_build_export", lambda *_: pytest.fail("rebuilt the GLB"))

    response = alice_api.get(url(studio, "revisions/1/export.glb"))

    assert response.status_code == 200
    document, _ = unpack_glb(response.content)
    assert document["nodes"][0]["name"] == "crate"


def test_glass_is_exported_with_transmission(alice_api, studio):
    post_edit(alice_api, studio, {"scene": scene(CRATE, GLASS)})

    document, _ = unpack_glb(alice_api.get(url(studio, "revisions/1/export.glb")).content)

    assert "KHR_materials_transmission" in document["extensionsUsed"]
    by_name = {material["name"]: material for material in document["materials"]}
    glass = by_name["glass"]["extensions"]["KHR_materials_transmission"]
    assert glass["transmissionFactor"] == 1.0
    assert "extensions" not in by_name["wood"]


def test_the_material_presets_are_listed(alice_api):
    response = alice_api.get("/api/v1/studio/materials")

    assert response.status_code == 200
    names = {preset["name"]: preset for preset in response.json()}
    assert names["gold"]["metallic"] == 1.0 and names["glass"]["opacity"] < 1


@pytest.fixture
def builds_nothing(monkeypatch):
    """Building a shape or parsing a mesh fails the test: refusals come from estimates."""

    def build(*args, **kwargs):
        raise AssertionError("geometry was built")

    monkeypatch.setattr(geometry, "_build", build)
    monkeypatch.setattr(trimesh, "load", build)


def test_a_nested_boolean_bomb_edit_is_400_in_milliseconds_and_builds_nothing(
    alice_api, studio, builds_nothing
):
    bomb = {"name": "bomb", "shape": nested_booleans()}
    start = time.perf_counter()

    response = post_edit(alice_api, studio, {"scene": scene(bomb), "source": "edit: bomb"})

    seconds = time.perf_counter() - start
    message = "this scene would have about 2,308,608 triangles; the limit is 1,000,000"
    assert assert_json_error(response, 400) == message
    assert seconds < 1.0  # unbounded: 15 s of the web process
    assert not SceneRevision.objects.filter(workspace=studio).exists()


def test_a_stored_vertex_bomb_fails_each_later_edit_fast_with_the_reason(
    alice_api, studio, builds_nothing
):
    # Accepted before uploads were bounded by their accessors: stored as 1 triangle.
    stored = UploadedMesh(workspace=studio, name="bomb.glb", faces=1, vertices=40_000_000)
    stored.file.save("bomb.glb", ContentFile(vertex_bomb_glb()), save=True)
    bomb = {"name": "bomb", "shape": {"kind": "mesh", "params": {"ref": f"mesh:{stored.pk}"}}}
    start = time.perf_counter()

    response = post_edit(alice_api, studio, {"scene": scene(bomb)})

    assert "bomb.glb's accessor 0 declares 40,000,000 elements with no bufferView" in (
        assert_json_error(response, 400)
    )
    assert time.perf_counter() - start < 1.0  # unbounded: 18 s and 5.8 GB, on every read


def test_a_vertex_bomb_upload_is_400_and_stores_nothing(alice_api, studio, builds_nothing):
    response = upload(alice_api, studio, "bomb.glb", vertex_bomb_glb())

    assert "accessor 0 declares 40,000,000 elements" in assert_json_error(response, 400)
    assert not UploadedMesh.objects.filter(workspace=studio).exists()
