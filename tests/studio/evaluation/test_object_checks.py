"""Checks on what objects a scene has: each passes on a scene that satisfies it and fails, naming
the object, on one that does not."""

from __future__ import annotations

import json

import pytest

from tests.studio.evaluation.scenes import BLUE, RED, ball, box, judge, play, scene

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, "Eval", "studio")


def test_scene_nonempty_needs_this_turns_own_revision(workspace, alice, make_workspace):
    built = play(workspace, scene(box("crate", (0.5, 0.5, 0.5))))
    assert judge(built, "scene_nonempty").passed

    nothing = play(make_workspace(alice, "Empty", "studio"), None)
    verdict = judge(nothing, "scene_nonempty")
    assert not verdict.passed
    assert "no revision" in verdict.reason


def test_scene_nonempty_fails_a_follow_up_that_built_nothing(workspace):
    context = play(workspace, scene(box("crate", (0.5, 0.5, 0.5))), None)
    verdict = judge(context, "scene_nonempty")
    assert not verdict.passed
    assert "built nothing" in verdict.reason


def test_object_count_matches_numbered_copies_and_categories(workspace):
    context = play(
        workspace,
        scene(
            box("crate-1", (0.5, 0.5, 0.5)),
            box("crate-2", (0.5, 0.5, 0.5), (1, 0, 0)),
            box("desk", (1.2, 0.75, 0.7), (3, 0, 0), category="table"),
        ),
    )
    assert judge(context, "object_count", name="crates", count=2).passed
    assert judge(context, "object_count", name="table", count=1).passed
    assert judge(context, "object_count", name="lamp", count=0).passed
    assert judge(context, "object_count", name="crate", min=1, max=2).passed

    verdict = judge(context, "object_count", name="crate", count=3)
    assert not verdict.passed
    assert "found 2 crate, expected 3" in verdict.reason
    assert verdict.score == pytest.approx(2 / 3)
    assert verdict.outputs["objects"] == ["crate-1", "crate-2"]


def test_a_toolbox_is_not_counted_as_a_box_nor_coloured_as_one(workspace):
    context = play(
        workspace,
        scene(
            box("toolbox", (0.5, 0.25, 0.25), category="box", colour=BLUE),
            box("mailbox", (0.3, 0.4, 0.5), (1, 0, 0), category="box", colour=BLUE),
            box("red-box-2", (0.4, 0.4, 0.4), (2, 0, 0), category="box", colour=RED),
        ),
    )
    verdict = judge(context, "object_count", name="box", count=1)
    assert verdict.passed, verdict.reason
    assert verdict.outputs["objects"] == ["red-box-2"]
    assert judge(context, "color", name="box", color="red").passed
    assert judge(context, "object_count", name="toolbox", count=1).passed


def test_object_count_of_a_workspace_without_scene_is_zero(workspace):
    context = play(workspace, None)
    assert judge(context, "object_count", name="ball", count=0).passed
    verdict = judge(context, "object_count", name="ball", count=1)
    assert not verdict.passed
    assert "no scene" in verdict.reason


def test_size_in_metres_and_with_units(workspace):
    context = play(workspace, scene(box("table", (1.2192, 0.762, 0.7))))
    assert judge(
        context, "size", name="table", axis="length", value="4 ft", tolerance="1 cm"
    ).passed
    assert judge(context, "size", name="table", axis="height", value=0.762, tolerance=0.005).passed
    assert judge(context, "size", name="table", axis="depth", min=0.6, max=0.8).passed

    verdict = judge(context, "size", name="table", axis="height", value=1.0, tolerance=0.02)
    assert not verdict.passed
    assert "table is 0.762 m" in verdict.reason
    assert verdict.outputs["measured"] == {"table": pytest.approx(0.762, abs=1e-4)}


def test_a_size_with_only_a_minimum_is_judged_and_stored_as_json(workspace):
    """'at least 2 m long': no upper bound, and nothing JSON cannot hold (it is stored so)."""
    context = play(workspace, scene(box("table", (1.2, 0.75, 0.7))))
    assert judge(context, "size", name="table", axis="length", min=1.0).passed
    verdict = judge(context, "size", name="table", axis="length", min=2.0)
    assert not verdict.passed
    assert "length outside at least 2.000 m: table is 1.200 m" in verdict.reason
    assert verdict.outputs["expected"] == [2.0, None]
    json.dumps(verdict.outputs, allow_nan=False)


def test_size_of_a_sphere_is_its_diameter(workspace):
    context = play(workspace, scene(ball("ball", 0.15)))
    assert judge(
        context, "size", name="ball", axis="diameter", value="30 cm", tolerance=0.01
    ).passed
    verdict = judge(context, "size", name="ball", axis="diameter", value=0.5, tolerance=0.01)
    assert not verdict.passed and "ball is 0.300 m" in verdict.reason


def test_size_fails_when_the_object_is_missing(workspace):
    context = play(workspace, scene(ball("ball", 0.15)))
    verdict = judge(context, "size", name="table", axis="height", value=0.75)
    assert not verdict.passed
    assert "no table" in verdict.reason


def test_size_change_compares_with_the_previous_turn(workspace):
    context = play(
        workspace, scene(box("vase", (0.2, 0.3, 0.2))), scene(box("vase", (0.4, 0.6, 0.4)))
    )
    assert judge(context, "size_change", name="vase", axis="height", factor=2.0).passed
    assert judge(context, "size_change", name="vase", axis="height", at_least=1.5).passed

    verdict = judge(context, "size_change", name="vase", axis="height", at_most=0.95)
    assert not verdict.passed
    assert "vase's height went from 0.300 to 0.600 m" in verdict.reason


def test_size_change_on_a_first_turn_has_nothing_to_compare(workspace):
    context = play(workspace, scene(box("vase", (0.2, 0.3, 0.2))))
    verdict = judge(context, "size_change", name="vase", axis="height", factor=2.0)
    assert not verdict.passed and "no previous turn" in verdict.reason


def test_colour_by_family(workspace):
    context = play(
        workspace,
        scene(ball("ball", 0.1, colour=RED), box("cube", (0.5,) * 3, (1, 0, 0), colour=BLUE)),
    )
    assert judge(context, "color", name="ball", color="red").passed
    assert judge(context, "color", name="cube", color=["navy", "blue"]).passed
    assert judge(context, "color", name="ball", color="#cc0000").passed

    verdict = judge(context, "color", name="ball", color="green")
    assert not verdict.passed
    assert "ball is red" in verdict.reason


def test_material_judges_pbr_factors(workspace):
    steel = ball("sphere", 0.25, colour=(0.56, 0.57, 0.58), metallic=1.0, roughness=0.3)
    glass = box("vase", (0.2, 0.3, 0.2), (1, 0, 0), colour=(0.9, 0.95, 1.0), opacity=0.25)
    context = play(workspace, scene(steel, glass))
    assert judge(context, "material", name="sphere", like="steel").passed
    assert judge(context, "material", name="vase", like="glass").passed
    assert judge(context, "material", name="sphere", roughness_max=0.4).passed

    verdict = judge(context, "material", name="sphere", like="wood")
    assert not verdict.passed
    assert "sphere: metallic 1.00 is outside" in verdict.reason

    gold = judge(context, "material", name="sphere", like="gold")
    assert not gold.passed and "colour reads as grey" in gold.reason


@pytest.mark.parametrize(
    ("check", "params", "problem"),
    [
        ("object_count", {"name": "ball"}, "give one of"),
        ("size", {"name": "ball", "axis": "girth", "value": 1}, "'axis' must be one of"),
        ("size", {"name": "ball", "axis": "height", "value": "3 parsecs"}, "must be a length"),
        ("color", {"name": "ball", "color": "blurple"}, "no colour family"),
        ("material", {"name": "ball", "like": "cheese"}, "not a material word"),
        ("object_count", {"name": "ball", "count": 1, "colour": "red"}, "unknown parameter"),
    ],
)
def test_bad_parameters_fail_loudly(workspace, check, params, problem):
    context = play(workspace, scene(ball("ball", 0.1)))
    verdict = judge(context, check, **params)
    assert not verdict.passed
    assert "bad check parameters" in verdict.reason and problem in verdict.reason
