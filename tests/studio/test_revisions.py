"""Scene revisions: numbered per workspace, diffable, revertible."""

from __future__ import annotations

import pytest

from studio.scene.diff import diff_scenes
from studio.scene.model import SceneError
from studio.selectors import revision_current, revision_list
from studio.services import RevisionError, revision_create, revision_revert

BALL = {"name": "ball", "shape": {"kind": "sphere", "params": {"radius": 0.11}}}
CRATE = {"name": "crate", "shape": {"kind": "box", "params": {"size": [0.5, 0.5, 0.5]}}}

pytestmark = pytest.mark.django_db


def scene(*objects, **extra):
    return {"objects": list(objects), **extra}


def test_revisions_are_numbered_per_workspace_and_the_latest_is_current(alice, make_workspace):
    first, second = make_workspace(alice, name="A"), make_workspace(alice, name="B")
    revision_create(workspace=first, scene=scene(BALL), source="round 1")
    revision_create(workspace=first, scene=scene(BALL, CRATE), source="round 2")
    revision_create(workspace=second, scene=scene(CRATE), source="round 1")
    assert [r.number for r in revision_list(workspace=first)] == [1, 2]
    assert [r.number for r in revision_list(workspace=second)] == [1]
    assert [o["name"] for o in revision_current(workspace=first).scene["objects"]] == [
        "ball",
        "crate",
    ]


def test_revert_makes_an_old_scene_current_as_a_new_revision(alice, make_workspace):
    workspace = make_workspace(alice)
    revision_create(workspace=workspace, scene=scene(BALL), source="round 1")
    revision_create(workspace=workspace, scene=scene(BALL, CRATE), source="round 2")
    reverted = revision_revert(workspace=workspace, number=1)
    assert (reverted.number, reverted.source) == (3, "revert to 1")
    assert [o["name"] for o in reverted.scene["objects"]] == ["ball"]
    with pytest.raises(RevisionError, match="no revision 9"):
        revision_revert(workspace=workspace, number=9)


def test_an_invalid_scene_is_refused_with_the_field_named(alice, make_workspace):
    workspace = make_workspace(alice)
    bad = {"name": "ball", "shape": {"kind": "sphere"}, "material": {"roughness": 2}}
    with pytest.raises(SceneError, match="object 'ball' roughness must be between 0 and 1"):
        revision_create(workspace=workspace, scene=scene(bad), source="edit")
    assert revision_list(workspace=workspace).count() == 0


def test_diff_names_added_removed_and_changed_fields():
    moved = {**CRATE, "transform": {"translation": [1.0, 0.25, 0.0]}}
    before = scene(BALL, CRATE, camera={"position": [3, 2, 3]})
    after = scene(moved, {**BALL, "name": "ball-2"}, camera={"position": [4, 2, 3]})
    diff = diff_scenes(before, after)
    assert diff.added == ["ball-2"] and diff.removed == ["ball"]
    assert diff.changed["crate"] == {"transform.translation": ([0, 0, 0], [1.0, 0.25, 0.0])}
    assert diff.changed["camera"] == {"position": ([3, 2, 3], [4, 2, 3])}
    assert set(diff.to_dict()["changed"]) == {"crate", "camera"}
    assert diff_scenes(before, before).empty
