"""The agent's scene tools refuse, before building, a shape or scene over the caps an edit has."""

from __future__ import annotations

import time

import pytest

from agents.runtime import ToolContext, ToolError
from agents.services.runs import run_create
from studio.models import WorkingScene
from studio.scene import geometry
from studio.tools.round_tools import build_scene
from studio.tools.scene_tools import add_object, combine_objects
from tests.studio.bombs import nested_booleans, revolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def context(alice, make_workspace):
    workspace = make_workspace(alice, kind="studio")
    run = run_create(workspace=workspace, prompt="a vase")
    options = {"run_id": run.pk, "workspace_id": workspace.pk}
    return ToolContext(artifacts=None, progress=lambda *a: None, options=options)  # type: ignore[arg-type]


def saved_names(context) -> list[str]:
    working = WorkingScene.objects.filter(run_id=context.options["run_id"]).first()
    return [item["name"] for item in working.scene["objects"]] if working else []


def test_add_object_refuses_a_boolean_bomb_before_building_it(context, monkeypatch):
    monkeypatch.setattr(geometry, "_build", lambda *a: pytest.fail("a shape was built"))
    start = time.perf_counter()

    with pytest.raises(ToolError, match=r"would have about 2,308,608 triangles; the limit is"):
        add_object({"name": "bomb", "shape": nested_booleans()}, context)

    assert time.perf_counter() - start < 1.0
    assert saved_names(context) == []


def test_a_refused_combination_keeps_both_operands(context, monkeypatch):
    for name, x in (("a", 0.0), ("b", 0.2)):
        add_object({"name": name, "shape": revolve(200, 256, x)}, context)  # 102,912 each
    monkeypatch.setattr(geometry, "MAX_BOOLEAN_TRIANGLES", 100_000)
    monkeypatch.setattr("studio.user_edits.MAX_BOOLEAN_TRIANGLES", 100_000)

    with pytest.raises(ToolError, match=r"booleans would combine about 205,824 triangles"):
        combine_objects({"name": "ab", "op": "union", "a": "a", "b": "b"}, context)

    assert saved_names(context) == ["a", "b"]


def test_a_built_scene_over_the_caps_is_not_saved(context, monkeypatch):
    monkeypatch.setattr("studio.user_edits.MAX_TRIANGLES", 100)

    with pytest.raises(
        ToolError, match=r"this scene would have about [\d,]+ triangles; the limit is 100"
    ):
        build_scene({"request": "a table with a red ball"}, context)

    assert saved_names(context) == []


def test_add_object_keeps_a_size_the_person_gave(context):
    shape = {"kind": "cylinder", "params": {"radius": 0.5, "height": 3.0}}
    add_object({"name": "cup", "shape": shape, "category": "cup", "size_stated": True}, context)

    working = WorkingScene.objects.get(run_id=context.options["run_id"])
    [cup] = working.scene["objects"]
    assert cup["size_stated"] is True  # the round warns about a 3 m cup instead of shrinking it
