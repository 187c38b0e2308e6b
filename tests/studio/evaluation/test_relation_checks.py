"""The `relation` check on scenes built to satisfy each relation, and on scenes that do not."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from studio.planner.builder import build_scene
from studio.planner.grammar import parse_request
from tests.studio.evaluation.scenes import ball, box, judge, play, scene

pytestmark = pytest.mark.django_db

TABLE = (1.2, 0.75, 0.7)


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, "Eval", "studio")


def relation(context, kind, subject, target=None, **params):
    extra = {"target": target} if target is not None else {}
    return judge(context, "relation", relation=kind, subject=subject, **extra, **params)


def test_on_holds_for_a_resting_ball_and_not_for_a_floating_one(workspace, alice, make_workspace):
    resting = play(workspace, scene(box("table", TABLE), ball("ball", 0.1, (0, 0.75, 0))))
    assert relation(resting, "on", "ball", "table").passed

    floating = play(
        make_workspace(alice, "Floating", "studio"),
        scene(box("table", TABLE), ball("ball", 0.1, (0, 1.0, 0))),
    )
    verdict = relation(floating, "on", "ball", "table")
    assert not verdict.passed
    assert "ball's bottom is 25.0 cm from table's top" in verdict.reason
    assert verdict.outputs["failed"] == ["ball"]


def test_on_needs_the_ball_over_the_table(workspace):
    context = play(workspace, scene(box("table", TABLE), ball("ball", 0.1, (2.0, 0.75, 0))))
    verdict = relation(context, "on", "ball", "table")
    assert not verdict.passed and "not over table" in verdict.reason


def test_under(workspace):
    context = play(
        workspace,
        scene(box("table", TABLE), ball("ball", 0.1), box("crate", (0.5,) * 3, (2, 0, 0))),
    )
    assert relation(context, "under", "ball", "table").passed
    verdict = relation(context, "under", "crate", "table")
    assert not verdict.passed and "crate's top" in verdict.reason


def test_beside_within_a_gap(workspace):
    context = play(
        workspace,
        scene(
            box("sofa", (2.0, 0.85, 0.9)),
            box("lamp", (0.3, 0.45, 0.3), (1.3, 0, 0)),
            box("crate", (0.5,) * 3, (5, 0, 0)),
        ),
    )
    assert relation(context, "beside", "lamp", "sofa").passed
    assert relation(context, "next_to", "lamp", "sofa", max_gap="20 cm").passed
    verdict = relation(context, "beside", "crate", "sofa")
    assert not verdict.passed and "crate is 375.0 cm from sofa" in verdict.reason


@pytest.mark.parametrize(
    ("kind", "at", "wrong"),
    [
        ("left_of", (-1.5, 0, 0), "right_of"),
        ("right_of", (1.5, 0, 0), "left_of"),
        ("in_front_of", (0, 0, 1.5), "behind"),
        ("behind", (0, 0, -1.5), "in_front_of"),
    ],
)
def test_sides_in_the_world_frame(workspace, kind, at, wrong):
    context = play(workspace, scene(box("table", TABLE), box("chair", (0.45, 0.9, 0.45), at)))
    assert relation(context, kind, "chair", "table").passed
    verdict = relation(context, wrong, "chair", "table")
    assert not verdict.passed and "chair is" in verdict.reason


def test_pairwise_count_asks_for_some_subjects_only(workspace):
    context = play(
        workspace,
        scene(
            box("table", TABLE),
            box("chair-1", (0.45, 0.9, 0.45), (-1.2, 0, 0)),
            box("chair-2", (0.45, 0.9, 0.45), (1.2, 0, 0)),
        ),
    )
    assert relation(context, "left_of", "chair", "table", count=1).passed
    verdict = relation(context, "left_of", "chair", "table")
    assert not verdict.passed
    assert verdict.score == pytest.approx(0.5)


def test_inside_an_open_box_and_on_its_lid(workspace, alice, make_workspace):
    # An open box as four thin walls and a floor would have the same bounds as this box.
    inside = play(workspace, scene(box("box", (0.6, 0.4, 0.6)), ball("ball", 0.1, (0, 0.02, 0))))
    assert relation(inside, "inside", "ball", "box").passed

    on_lid = play(
        make_workspace(alice, "Lid", "studio"),
        scene(box("box", (0.6, 0.4, 0.6)), ball("ball", 0.1, (0, 0.4, 0))),
    )
    verdict = relation(on_lid, "inside", "ball", "box")
    assert not verdict.passed and "ball's bottom at 0.400 m" in verdict.reason


def test_stacked(workspace, alice, make_workspace):
    cubes = [box(f"cube-{n}", (0.5,) * 3, (0, 0.5 * (n - 1), 0)) for n in (1, 2, 3)]
    stacked = play(workspace, scene(*cubes))
    verdict = relation(stacked, "stacked", "cube", count=3)
    assert verdict.passed and verdict.outputs["stack"] == ["cube-1", "cube-2", "cube-3"]

    row = [box(f"cube-{n}", (0.5,) * 3, (0.8 * n, 0, 0)) for n in (1, 2, 3)]
    in_a_row = play(make_workspace(alice, "Row", "studio"), scene(*row))
    failed = relation(in_a_row, "stacked", "cube", count=3)
    assert not failed.passed and "the tallest stack is 1 high" in failed.reason


def test_around(workspace, alice, make_workspace):
    def chair(n, x, z):
        return box(f"chair-{n}", (0.45, 0.9, 0.45), (x, 0, z))

    table = box("table", TABLE)
    ring = [
        chair(n, 1.0 * math.cos(n * math.pi / 2), 0.9 * math.sin(n * math.pi / 2)) for n in range(4)
    ]
    around = play(workspace, scene(table, *ring))
    assert relation(around, "around", "chair", "table", count=4).passed

    row = [chair(n, 1.0 + 0.6 * n, 0) for n in range(4)]
    one_side = play(make_workspace(alice, "Row", "studio"), scene(table, *row))
    verdict = relation(one_side, "around", "chair", "table", count=4)
    assert not verdict.passed and "table" in verdict.reason


def test_pyramid_levels(workspace, alice, make_workspace):
    def crate(n, x, level):
        return box(f"crate-{n}", (0.5,) * 3, (x, 0.5 * level, 0))

    pyramid = [crate(1, -0.5, 0), crate(2, 0, 0), crate(3, 0.5, 0)]
    pyramid += [crate(4, -0.25, 1), crate(5, 0.25, 1), crate(6, 0, 2)]
    built = play(workspace, scene(*pyramid))
    verdict = relation(built, "pyramid", "crate", levels=[3, 2, 1])
    assert verdict.passed and verdict.outputs["levels"] == [3, 2, 1]

    row = [crate(n, 0.6 * n, 0) for n in range(1, 7)]
    flat = play(make_workspace(alice, "Flat", "studio"), scene(*row))
    failed = relation(flat, "pyramid", "crate", levels=[3, 2, 1])
    assert not failed.passed and "levels of [6]" in failed.reason


def test_missing_objects_are_named(workspace):
    context = play(workspace, scene(box("table", TABLE)))
    assert "no ball" in relation(context, "on", "ball", "table").reason
    assert "no shelf" in relation(context, "on", "table", "shelf").reason


def test_yaml_on_read_as_true_is_a_parameter_error(workspace):
    context = play(workspace, scene(box("table", TABLE), ball("ball", 0.1, (0, 0.75, 0))))
    verdict = judge(context, "relation", relation=True, subject="ball", target="table")
    assert not verdict.passed and "quote" in verdict.reason


def test_on_a_bed_means_on_its_mattress_not_level_with_its_headboard(
    workspace, alice, make_workspace
):
    built = build_scene(parse_request("a pillow on a bed")).scene
    pillow = built.object("cushion")  # the catalogue's name for a pillow
    assert relation(play(workspace, built), "on", "cushion", "bed").passed

    x, y, z = pillow.transform.translation
    lifted = built.with_object(
        replace(pillow, transform=replace(pillow.transform, translation=(x, y + 0.2, z)))
    )
    verdict = relation(
        play(make_workspace(alice, "Lifted", "studio"), lifted), "on", "cushion", "bed"
    )
    assert not verdict.passed
    assert "20.0 cm from bed's surface under it" in verdict.reason


@pytest.mark.parametrize(
    ("kind", "far", "offset"),
    [
        ("left_of", (-30.0, 0, 0), (-1.0, 0, -6.0)),
        ("right_of", (30.0, 0, 0), (1.0, 0, 6.0)),
        ("in_front_of", (0, 0, 30.0), (-6.0, 0, 1.0)),
        ("behind", (0, 0, -30.0), (6.0, 0, -1.0)),
    ],
)
def test_a_side_needs_the_objects_near_each_other(workspace, kind, far, offset):
    # A 1.2 m table: within 1.5 x 1.2 = 1.8 m of it a chair is on that side; 30 m away, or
    # a metre to the side but 6 m along the other axis, it is somewhere else.
    context = play(
        workspace,
        scene(
            box("table", TABLE),
            box("chair-1", (0.45, 0.9, 0.45), far),
            box("chair-2", (0.45, 0.9, 0.45), offset),
        ),
    )
    verdict = relation(context, kind, "chair", "table")
    assert not verdict.passed
    assert verdict.outputs["failed"] == ["chair-1", "chair-2"]
    assert "more than 180.0 cm" in verdict.reason


def test_a_side_holds_up_to_one_and_a_half_times_the_larger_object(workspace):
    # table half-width 0.6 + gap + chair half-width 0.225: gaps of 1.7 m and 1.9 m.
    context = play(
        workspace,
        scene(
            box("table", TABLE),
            box("chair-1", (0.45, 0.9, 0.45), (-2.525, 0, 0)),
            box("chair-2", (0.45, 0.9, 0.45), (-2.725, 0, 0)),
        ),
    )
    verdict = relation(context, "left_of", "chair", "table")
    assert verdict.outputs["held"] == ["chair-1"] and verdict.outputs["failed"] == ["chair-2"]


def test_above_needs_the_upper_footprint_over_the_lower(workspace):
    context = play(
        workspace,
        scene(
            box("table", TABLE),
            box("lamp-1", (0.3, 0.3, 0.3), (0, 1.8, 0)),
            box("lamp-2", (0.3, 0.3, 0.3), (0.7, 1.8, 0)),  # overhangs the table's edge
            box("lamp-3", (0.3, 0.3, 0.3), (5.0, 1.8, 0)),  # far to the side
        ),
    )
    verdict = relation(context, "above", "lamp", "table")
    assert verdict.outputs["held"] == ["lamp-1", "lamp-2"]
    assert verdict.outputs["failed"] == ["lamp-3"]
    assert "not over table's footprint" in verdict.reason


def test_beside_allows_a_gap_of_a_third_of_the_larger_width(workspace):
    # A 2 m sofa: beside within max(0.3 x 2.0, 0.25) = 0.6 m; a 0.9 m gap is not beside.
    context = play(
        workspace,
        scene(
            box("sofa", (2.0, 0.85, 0.9)),
            box("lamp-1", (0.3, 0.45, 0.3), (1.65, 0, 0)),  # 50 cm gap
            box("lamp-2", (0.3, 0.45, 0.3), (-2.05, 0, 0)),  # 90 cm gap
        ),
    )
    verdict = relation(context, "beside", "lamp", "sofa")
    assert verdict.outputs["held"] == ["lamp-1"] and verdict.outputs["failed"] == ["lamp-2"]
    assert "lamp-2 is 90.0 cm from sofa, more than 60.0 cm" in verdict.reason
    assert relation(context, "beside", "lamp", "sofa", max_gap=1.0).passed


def test_small_things_are_beside_within_35_cm(workspace):
    context = play(
        workspace,
        scene(
            box("vase", (0.15, 0.3, 0.15)),
            box("candle-1", (0.06, 0.15, 0.06), (0.405, 0, 0)),  # 30 cm gap
            box("candle-2", (0.06, 0.15, 0.06), (-0.505, 0, 0)),  # 40 cm gap
        ),
    )
    verdict = relation(context, "beside", "candle", "vase")
    assert verdict.outputs["held"] == ["candle-1"] and verdict.outputs["failed"] == ["candle-2"]
    assert "candle-2 is 40.0 cm from vase, more than 35.0 cm" in verdict.reason
