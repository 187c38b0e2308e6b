"""Lights, the round report and what a follow-up kept: each check passes and fails for cause."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.studio.evaluation.scenes import (
    BLUE,
    COOL,
    PASSING_REPORT,
    RED,
    WARM,
    ball,
    box,
    judge,
    key_light,
    play,
    scene,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, "Eval", "studio")


def crate():
    return box("crate", (0.5, 0.5, 0.5))


def test_light_temperature_from_the_brightest_light(workspace):
    fill = replace(key_light(position=(-3.0, 2.0, -3.0)), name="fill", intensity=1.0)
    warm = scene(crate(), lights=[key_light(WARM), fill])
    context = play(workspace, warm)
    assert judge(context, "lights", temperature="warm").passed

    verdict = judge(context, "lights", temperature="cool")
    assert not verdict.passed
    assert "key light key is warm" in verdict.reason
    assert verdict.outputs["key_kelvin"] < 4500


def test_cool_and_neutral_light(workspace, alice, make_workspace):
    assert judge(
        play(workspace, scene(crate(), lights=[key_light(COOL)])), "lights", temperature="cool"
    ).passed
    white = play(make_workspace(alice, "White", "studio"), scene(crate()))
    assert judge(white, "lights", temperature="neutral").passed
    assert not judge(white, "lights", temperature="warm").passed


def test_light_kinds_and_direction(workspace):
    context = play(workspace, scene(crate(), lights=[key_light(position=(-5.0, 2.0, 0.0))]))
    assert judge(context, "lights", types=["directional"], min_count=1, direction="left").passed

    verdict = judge(context, "lights", types=["spot"], direction="right")
    assert not verdict.passed
    assert "no spot light (found directional)" in verdict.reason
    assert "comes from left, not right" in verdict.reason


def test_light_from_above(workspace):
    context = play(workspace, scene(crate(), lights=[key_light(position=(0.5, 6.0, 0.5))]))
    assert judge(context, "lights", direction="above").passed


def test_physics_pass_reads_the_round_report(workspace, alice, make_workspace):
    assert judge(play(workspace, scene(crate())), "physics_pass").passed

    failing = {
        **PASSING_REPORT,
        "passed": False,
        "checks": {
            **PASSING_REPORT["checks"],
            "support": {"passed": False, "value": 0.3, "reasons": ["crate floats 30 cm up"]},
        },
    }
    context = play(make_workspace(alice, "Floats", "studio"), scene(crate()), report=failing)
    verdict = judge(context, "physics_pass")
    assert not verdict.passed
    assert "support: crate floats 30 cm up" in verdict.reason
    assert verdict.outputs["failed"] == ["support"]
    assert judge(context, "physics_pass", checks=["exposure", "stability"]).passed


def test_physics_pass_fails_without_a_round(workspace):
    verdict = judge(play(workspace, scene(crate()), None), "physics_pass")
    assert not verdict.passed and "no revision" in verdict.reason


def test_unchanged_keeps_identity_size_and_place(workspace):
    before = scene(box("table", (1.2, 0.75, 0.7)), ball("ball", 0.1, (0, 0.75, 0), colour=RED))
    after = scene(box("table", (1.2, 0.75, 0.7)), ball("ball", 0.1, (0, 0.75, 0), colour=BLUE))
    context = play(workspace, before, after)
    verdict = judge(context, "unchanged", names=["table"])
    assert verdict.passed and verdict.outputs["kept"] == ["table"]
    assert judge(context, "unchanged", tolerance="5 mm").passed


@pytest.mark.parametrize(
    ("after", "problem"),
    [
        (scene(box("table", (1.2, 0.75, 0.7), (0.3, 0, 0))), "table moved 30.0 cm"),
        (scene(box("table", (1.2, 1.0, 0.7))), "table changed size by 25.0 cm"),
        (scene(ball("table", 0.3, category="table")), "table became a table sphere"),
        (scene(ball("ball", 0.1)), "table is gone"),
    ],
)
def test_unchanged_fails_naming_the_object(workspace, after, problem):
    context = play(workspace, scene(box("table", (1.2, 0.75, 0.7))), after)
    verdict = judge(context, "unchanged", names=["table"])
    assert not verdict.passed
    assert problem in verdict.reason


def test_unchanged_all_but_the_object_asked_about(workspace):
    before = scene(box("table", (1.2, 0.75, 0.7)), ball("ball", 0.1, (0, 0.75, 0)))
    after = scene(box("table", (1.2, 0.75, 0.7)), ball("ball", 0.2, (0, 0.75, 0)))
    context = play(workspace, before, after)
    assert judge(context, "unchanged", **{"except": ["ball"]}).passed
    assert not judge(context, "unchanged").passed


def test_unchanged_when_the_follow_up_built_nothing_keeps_the_scene(workspace):
    context = play(workspace, scene(crate()), None)
    assert judge(context, "unchanged").passed
    assert judge(context, "object_count", name="crate", count=1).passed


def test_unchanged_on_a_first_turn_fails(workspace):
    verdict = judge(play(workspace, scene(crate())), "unchanged")
    assert not verdict.passed and "no previous turn" in verdict.reason
