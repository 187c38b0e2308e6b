"""The run path: a workspace's uploaded mesh placed by a prompt, then added in a follow-up."""

from __future__ import annotations

import json

import pytest
import trimesh

from agents.selectors import run_messages
from studio.exports import mesh_resolver, mesh_upload
from studio.models import SceneRevision
from studio.planner.edit_plan import UPLOADS_LABEL
from studio.scene.geometry import object_bounds
from studio.scene.model import Scene, scene_from_dict

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("gl_context"),
]  # the rounds read uploads off-thread


def upload(workspace, filename: str, extents: tuple[float, float, float]):
    mesh = trimesh.creation.box(extents=extents)
    return mesh_upload(workspace=workspace, data=mesh.export(file_type="stl"), filename=filename)


def current(workspace) -> Scene:
    latest = SceneRevision.objects.filter(workspace=workspace).order_by("-number").first()
    assert latest is not None
    return scene_from_dict(latest.scene)


def test_my_duck_goes_on_the_table_then_my_bunny_next_to_the_chair(studio, ask):
    duck = upload(studio, "Duck.stl", (0.3, 0.25, 0.2))
    bunny = upload(studio, "bunny.stl", (0.12, 0.15, 0.1))
    resolve = mesh_resolver(studio)

    run = ask("put my duck on the table and a chair")

    scene = current(studio)
    item = scene.object("duck")
    assert item.shape.kind == "mesh" and item.shape.params["ref"] == duck.ref
    low, high = object_bounds(item, resolve_mesh=resolve)
    top = object_bounds(scene.object("table"))[1][1]
    assert low[1] == pytest.approx(top, abs=0.01)
    assert high[1] - low[1] == pytest.approx(0.25, abs=0.005)  # plausible: kept
    # a model reading the run's context sees the uploads too
    listed = [m for m in run_messages(run_id=run.pk) if m.get("name") == UPLOADS_LABEL]
    content = listed[0]["content"]
    nouns = {entry["noun"] for entry in json.loads(content[content.find("[") :])}
    assert nouns == {"duck", "bunny"}

    ask("add my bunny next to the chair")

    after = current(studio)
    assert after.object("bunny").shape.params["ref"] == bunny.ref
    assert after.object("table") == scene.object("table")
    b_low, _ = object_bounds(after.object("bunny"), resolve_mesh=resolve)
    _, c_high = object_bounds(after.object("chair"))
    assert b_low[1] == pytest.approx(0.0, abs=0.01) and b_low[0] > c_high[0] - 0.01


def test_my_thing_without_an_upload_is_said(studio, ask):
    run = ask("my teapot on a table")
    assert "no uploaded mesh named 'teapot'" in run.message
