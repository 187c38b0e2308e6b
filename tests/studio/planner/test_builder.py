"""Parsed requests become scenes with exact sizes, the asked-for materials and the relations."""

from __future__ import annotations

import pytest

from studio.planner.builder import build_scene, linear_colour
from studio.planner.catalogue import CATALOGUE
from studio.planner.grammar import parse_request
from studio.scene.geometry import object_bounds, world_mesh

TOL = 1e-6


def build(text):
    return build_scene(parse_request(text))


def extents(obj):
    low, high = object_bounds(obj)
    return high - low


def rests_on(scene, upper, lower):
    """upper's lowest point is at lower's top and its footprint centre lies over lower."""
    up_low, up_high = object_bounds(scene.object(upper))
    low_low, low_high = object_bounds(scene.object(lower))
    centre = (up_low + up_high) / 2
    return (
        abs(up_low[1] - low_high[1]) < TOL
        and low_low[0] <= centre[0] <= low_high[0]
        and low_low[2] <= centre[2] <= low_high[2]
    )


def test_the_issue_example_builds_a_sphere_resting_on_a_table_lit_from_the_left():
    built = build("a red metal sphere of 50 cm resting on a wooden table, warm light from the left")
    scene = built.scene
    sphere, table = scene.object("sphere"), scene.object("table")
    assert extents(sphere) == pytest.approx([0.5, 0.5, 0.5], rel=1e-6)
    assert sphere.material.metallic == 1.0 and sphere.material.base_color == linear_colour(
        (220, 40, 40)
    )
    assert table.material.name == "wood"
    assert rests_on(scene, "sphere", "table")
    assert object_bounds(table)[0][1] == pytest.approx(0.0, abs=TOL)  # on the ground
    key = next(light for light in scene.lights if light.name == "key")
    assert key.position[0] < key.target[0]  # the key light comes from the left (-X)
    assert key.color[0] > key.color[2]  # warm
    assert built.notes == []


def test_a_table_has_room_underneath_for_two_balls():
    scene = build("two balls under a table").scene
    table = object_bounds(scene.object("table"))
    for name in ("ball-1", "ball-2"):
        low, high = object_bounds(scene.object(name))
        assert low[1] == pytest.approx(0.0, abs=TOL)
        assert table[0][0] < low[0] and high[0] < table[1][0]  # between the legs
        assert high[1] < table[1][1] - 0.04


def test_stacked_copies_rest_on_each_other_next_to_their_target():
    scene = build("three 40 cm crates stacked next to a blue barrel").scene
    assert rests_on(scene, "crate-2", "crate-1") and rests_on(scene, "crate-3", "crate-2")
    crate, barrel = object_bounds(scene.object("crate-1")), object_bounds(scene.object("barrel"))
    assert crate[0][0] > barrel[1][0]  # beside, not overlapping
    assert extents(scene.object("crate-1")) == pytest.approx([0.4, 0.4, 0.4], rel=1e-6)


def test_a_cup_inside_a_bowl_stands_on_its_floor():
    scene = build("a glass cup inside a ceramic bowl").scene
    cup, bowl = object_bounds(scene.object("cup")), object_bounds(scene.object("bowl"))
    assert cup[0][1] == pytest.approx(bowl[0][1] + 0.01, abs=TOL)
    assert scene.object("cup").material.opacity < 1


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("a pillar 3 m tall", "pillar", [0.5, 3.0, 0.5]),
        ("a 2x0.3x1.5 m concrete platform", "platform", [2.0, 0.3, 1.5]),
        ("a 2x1.5x0.3 m concrete platform", "platform", [2.0, 0.3, 1.5]),
        ("a sphere 30 cm diameter", "sphere", [0.3, 0.3, 0.3]),
        ("a table 2 m long", "table", [2.0, 0.75, 0.7]),
        ("a 1 ft crate", "crate", [0.3048, 0.3048, 0.3048]),
        ("a vase 40 cm tall", "vase", None),
    ],
)
def test_sizes_are_exact(text, name, expected):
    obj = build(text).scene.object(name)
    size = extents(obj)
    if expected is None:
        assert size[1] == pytest.approx(0.4, rel=1e-6)
    else:
        assert size == pytest.approx(expected, rel=1e-6)
    assert world_mesh(obj).is_watertight


@pytest.mark.parametrize(
    ("text", "first", "relation", "second"),
    [
        ("a crate left of a barrel", "crate", "left", "barrel"),
        ("a crate right of a barrel", "crate", "right", "barrel"),
        ("a crate in front of a barrel", "crate", "front", "barrel"),
        ("a crate behind a barrel", "crate", "behind", "barrel"),
    ],
)
def test_relative_placements_do_not_overlap(text, first, relation, second):
    scene = build(text).scene
    a, b = object_bounds(scene.object(first)), object_bounds(scene.object(second))
    check = {
        "left": a[1][0] < b[0][0],
        "right": a[0][0] > b[1][0],
        "front": a[0][2] > b[1][2],
        "behind": a[1][2] < b[0][2],
    }
    assert check[relation]
    assert a[0][1] == pytest.approx(0.0, abs=TOL) and b[0][1] == pytest.approx(0.0, abs=TOL)


def test_what_was_not_understood_is_reported():
    built = build("a dragon on a wooden table")
    assert [o.name for o in built.scene.objects] == ["table"]
    assert built.notes == [f"not in my catalogue of {len(CATALOGUE)} objects, so not built: dragon"]


def test_the_camera_frames_every_object():
    import numpy as np

    built = build("a wall behind a sofa, a lamp next to the sofa")
    scene = built.scene
    assert sorted(o.name for o in scene.objects) == ["lamp", "sofa", "wall"]
    camera = scene.camera
    forward = np.subtract(camera.target, camera.position)
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0, 1, 0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    tan_y = np.tan(np.radians(camera.yfov_deg) / 2)
    for obj in scene.objects:
        low, high = object_bounds(obj)
        for corner in np.array(np.meshgrid(*zip(low, high, strict=True))).T.reshape(-1, 3):
            v = corner - np.array(camera.position)
            depth = v @ forward
            assert depth > 0
            assert abs(v @ up / depth) < tan_y and abs(v @ right / depth) < tan_y * camera.aspect
