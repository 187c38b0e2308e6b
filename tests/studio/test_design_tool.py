"""`design_scene`: geometry written by the model server as structured output, checked, placed."""

from __future__ import annotations

import json

import pytest

from agents.runtime import ToolContext, ToolError
from agents.services.runs import run_create
from studio.models import WorkingScene
from studio.scene.geometry import object_bounds
from studio.scene.model import scene_from_dict
from studio.tools.design_tool import design_scene
from tests.fakes.openai_server import Reply

pytestmark = pytest.mark.django_db

DESIGN = {
    "objects": [
        {
            "name": "plinth",
            "kind": "box",
            "params": {"size": [1, 0.5, 1]},
            "position": [0, 0.25, 0],
        },
        {
            "name": "orb",
            "kind": "sphere",
            "params": {"radius": 0.2},
            "position": [0, 0.7, 0],
            "material": "gold",
            "dynamic": True,
        },
    ],
    "mood": "warm",
}


@pytest.fixture
def context(alice, make_workspace, fake_openai, settings):
    settings.MODEL_BASE_URL, settings.MODEL_NAME = "", ""
    workspace = make_workspace(alice, kind="studio")
    workspace.model_base_url, workspace.model_name = fake_openai.base_url, fake_openai.model
    workspace.save()
    run = run_create(workspace=workspace, prompt="an orb on a plinth")
    options = {"run_id": run.pk, "workspace_id": workspace.pk}
    return ToolContext(artifacts=None, progress=lambda *a: None, options=options)  # type: ignore[arg-type]


def saved_scene(context):
    return scene_from_dict(WorkingScene.objects.get(run_id=context.options["run_id"]).scene)


def test_the_models_json_becomes_exact_geometry(context, fake_openai):
    fake_openai.script(Reply.say(json.dumps(DESIGN)))
    result = design_scene({"request": "a gold orb of 40 cm on a 1 m plinth"}, context)
    assert result == {"objects": ["plinth", "orb"], "mood": "warm"}
    scene = saved_scene(context)
    low, high = object_bounds(scene.object("orb"))
    assert list(high - low) == pytest.approx([0.4, 0.4, 0.4], rel=1e-6)
    assert scene.object("orb").material.name == "gold" and scene.lights
    request = fake_openai.chat_requests[-1]
    assert request.body["response_format"]["type"] == "json_schema"
    assert request.body["response_format"]["json_schema"]["schema"]["required"] == ["objects"]


def test_a_server_without_json_schema_falls_back_cleanly(context, fake_openai):
    fake_openai.script(
        Reply.bad_request("json_schema is not supported"), Reply.say(json.dumps(DESIGN))
    )
    design_scene({"request": "an orb on a plinth"}, context)
    formats = [r.body.get("response_format", {}).get("type") for r in fake_openai.chat_requests]
    assert formats == ["json_schema", "json_object"]
    assert [o.name for o in saved_scene(context).objects] == ["plinth", "orb"]


def test_impossible_geometry_is_refused_with_the_reason(context, fake_openai):
    bad = {
        "objects": [
            {"name": "orb", "kind": "sphere", "params": {"radius": -1}, "position": [0, 1, 0]}
        ]
    }
    fake_openai.script(Reply.say(json.dumps(bad)))
    with pytest.raises(ToolError, match="radius must be positive"):
        design_scene({"request": "an orb"}, context)
    assert not WorkingScene.objects.filter(run_id=context.options["run_id"]).exists()


def test_without_a_model_server_it_points_to_build_scene(context, settings):
    from agents.models import Workspace

    Workspace.objects.update(model_base_url="", model_name="")
    with pytest.raises(ToolError, match="needs a model server; use build_scene"):
        design_scene({"request": "an orb"}, context)
