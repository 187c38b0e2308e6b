"""A studio workspace is a conversation: follow-ups edit the current scene through the normal run
path, a user's edit in the viewer is visible to the next request, and undo goes back."""

from __future__ import annotations

import pytest

from agents.models import Run
from agents.selectors import run_messages
from studio.models import SceneRevision
from studio.scene.geometry import object_bounds
from studio.scene.model import Scene, scene_from_dict
from studio.services import revision_create
from studio.tools.conversation import scene_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gl_context")]


def current(workspace) -> Scene:
    latest = SceneRevision.objects.filter(workspace=workspace).order_by("-number").first()
    assert latest is not None
    return scene_from_dict(latest.scene)


def tool_names(run: Run) -> list[str]:
    return [
        call["function"]["name"]
        for message in run_messages(run_id=run.pk)
        for call in message.get("tool_calls") or []
    ]


def test_a_follow_up_edits_only_what_it_names(studio, ask):
    ask("a red ball on a table and a chair")
    before = {item.name: item for item in current(studio).objects}

    run = ask("make the ball blue")

    after = {item.name: item for item in current(studio).objects}
    assert tool_names(run)[0] == "set_material" and "build_scene" not in tool_names(run)
    assert after["table"] == before["table"] and after["chair"] == before["chair"]
    assert after["ball"].transform == before["ball"].transform
    assert after["ball"].material.base_color != before["ball"].material.base_color
    assert "Changed: made ball blue" in run.message
    # the run started with the conversation and the scene
    names = [m.get("name") for m in run_messages(run_id=run.pk)[:4]]
    assert names == [None, "context-turn", "context-turn", "context-state"]


def test_the_chair_i_just_moved_is_the_one_the_viewer_edit_changed(studio, ask):
    ask("two chairs")
    scene = current(studio)
    moved = scene.object("chair-2")
    x, y, z = moved.transform.translation
    from dataclasses import replace

    edited = scene.with_object(
        replace(moved, transform=replace(moved.transform, translation=(x + 0.5, y, z + 0.8)))
    )
    revision_create(workspace=studio, scene=edited, source="edit: moved chair-2")
    state = scene_state(studio)
    assert state is not None and state["user_edits"][0]["changed"] == ["chair-2"]

    ask("the chair I just moved - make it blue")

    after = current(studio)
    assert after.object("chair-1") == scene.object("chair-1")
    assert after.object("chair-2").material.base_color != moved.material.base_color
    assert after.object("chair-2").transform == edited.object("chair-2").transform


def test_undo_and_start_over(studio, ask):
    ask("a green cone")
    first = current(studio)
    ask("add a cube next to the cone")
    assert len(current(studio).objects) == 2

    run = ask("undo that")
    assert tool_names(run)[0] == "revert_scene"
    assert [item.name for item in current(studio).objects] == [o.name for o in first.objects]

    run = ask("start over with a blue sphere")
    assert "build_scene" in tool_names(run)
    assert [item.category for item in current(studio).objects] == ["sphere"]


def test_a_size_asked_for_in_a_follow_up_is_kept_and_warned_about(studio, ask):
    ask("a desk and a chair")
    run = ask("make the desk 3.5 m long")

    desk = current(studio).object("desk")
    assert desk.size_stated
    assert run.status == "succeeded", run.message
    low, high = object_bounds(desk)
    assert max(high[0] - low[0], high[2] - low[2]) == pytest.approx(3.5, abs=0.01)
    assert "Kept as you asked: desk" in run.message  # a scale doubt is a warning, not a change
