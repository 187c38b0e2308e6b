"""Things put inside open containers rest on the inner floor (or on each other), the camera looks
over the rim at them, and a plain "lamp" on furniture is the desk lamp."""

from __future__ import annotations

import math

import numpy as np
import pytest

from studio.physics import interpenetration
from studio.physics.common import cached
from studio.planner.builder import build_scene
from studio.planner.catalogue import CATALOGUE
from studio.planner.containers import contents, elevation_to_see, heights
from studio.planner.grammar import parse_request
from studio.scene.geometry import object_bounds, world_mesh

MM = 0.001


def build(text):
    return build_scene(parse_request(text)).scene


def held(scene, container):
    return [item for item in scene.objects if item.name != container]


def inner_floor(scene, container):
    """(centre x, centre z, floor y, inner radius at the rim) of a catalogue container."""
    item = scene.object(container)
    low, high = object_bounds(item)
    noun = CATALOGUE[item.category]
    centre = (low + high) / 2
    floor = low[1] + noun.floor * (high[1] - low[1])
    return centre[0], centre[2], floor, min(high[0] - low[0], high[2] - low[2]) / 2


def test_heights_are_what_a_vertical_ray_meets_first():
    triangles = np.asarray(world_mesh(build("a 1 m cube").objects[0]).triangles)
    top = heights(triangles, np.array([[0.0, 0.0], [0.3, -0.2], [2.0, 0.0]]))
    bottom = heights(triangles, np.array([[0.0, 0.0]]), highest=False)
    assert top[:2] == pytest.approx([1.0, 1.0]) and math.isnan(top[2])
    assert bottom == pytest.approx([0.0])


def test_three_apples_in_a_40_cm_bowl_sit_side_by_side_on_its_inner_floor():
    scene = build("three apples in a 40 cm bowl")
    cx, cz, floor, _ = inner_floor(scene, "bowl")
    flat = CATALOGUE["bowl"].profile[-2][0] * 0.4  # the floor's radius: where the wall begins
    for apple in held(scene, "bowl"):
        low, high = object_bounds(apple)
        assert low[1] == pytest.approx(floor, abs=2 * MM)  # on the floor, not up the wall
        assert math.hypot((low[0] + high[0]) / 2 - cx, (low[2] + high[2]) / 2 - cz) < flat


@pytest.mark.parametrize(
    "text, container, count",
    [
        ("three apples in a 40 cm bowl", "bowl", 3),
        ("put 5 apples in the basket", "basket", 5),
        ("4 aples in teh basket pls", "basket", 4),
        ("a bucket with four tennis balls in it", "bucket", 4),
        ("2 golf balls inside a mug", "cup", 2),
        ("an apple and a tennis ball in a 16 inch bowl", "bowl", 2),
        ("9 tennis balls in a bowl", "bowl", 9),
        ("a jar and an apple on a tray", "tray", 2),
        ("a ball inside an open box", "open-box", 1),
        ("put 3 cubes of 10 cm into an open crate", "open-box", 3),
    ],
)
def test_things_inside_a_container_rest_within_it_without_touching_each_other(
    text, container, count
):
    scene = build(text)
    things = held(scene, container)
    assert len(things) == count
    cx, cz, floor, rim = inner_floor(scene, container)
    for thing in things:
        low, high = object_bounds(thing)
        x, z = (low[0] + high[0]) / 2, (low[2] + high[2]) / 2
        assert math.hypot(x - cx, z - cz) < rim  # over the opening, not beside it
        assert low[1] >= floor - MM  # not sunk into the floor
    overlaps = interpenetration(scene, cached(world_mesh))  # with each other and the walls
    assert overlaps.passed, overlaps.reasons


def test_what_does_not_fit_side_by_side_piles_up_on_what_is_below():
    # a stated size is kept (an unsized bowl is widened to take six side by side, see
    # container_fit), so nine in a 26 cm bowl pile up
    scene = build("9 tennis balls in a 26 cm bowl")
    _, _, floor, _ = inner_floor(scene, "bowl")
    bottoms = sorted(object_bounds(ball)[0][1] for ball in held(scene, "bowl"))
    assert bottoms[0] == pytest.approx(floor, abs=2 * MM)
    assert bottoms[-1] > floor + 0.03  # a second layer, resting on the first


def test_a_thing_wider_than_the_opening_rests_on_the_rim():
    scene = build("a football in a cup")
    low, _ = object_bounds(scene.object("ball"))
    assert low[1] > 0.9 * object_bounds(scene.object("cup"))[1][1]


def test_a_solid_target_of_inside_is_still_topped():
    built = build_scene(parse_request("an apple inside a cube"))
    low, _ = object_bounds(built.scene.object("apple"))
    assert low[1] == pytest.approx(object_bounds(built.scene.object("cube"))[1][1])
    assert any("solid" in note for note in built.notes)


def _line_clears_rim(scene, container, thing):
    """The sight line from the camera to the thing's middle passes over the container's rim."""
    position = np.array(scene.camera.position)
    low, high = object_bounds(scene.object(thing))
    middle = (low + high) / 2
    c_low, c_high = object_bounds(scene.object(container))
    direction = position - middle
    # where the line leaves the container's box, sideways
    exits = [
        ((c_high[i] if direction[i] > 0 else c_low[i]) - middle[i]) / direction[i]
        for i in (0, 2)
        if abs(direction[i]) > 1e-9
    ]
    height = middle[1] + min(exits) * direction[1]
    return height >= c_high[1]


@pytest.mark.parametrize(
    "text, container, thing",
    [
        ("a ball inside an open box", "open-box", "ball"),
        ("a golf ball in a mug", "cup", "golf-ball"),
        ("an apple in the bin", "bin", "apple"),
        ("put 5 apples in the basket", "basket", "apple-1"),
    ],
)
def test_the_camera_looks_over_the_rim_into_a_container_that_holds_something(
    text, container, thing
):
    scene = build(text)
    assert (container, thing) in contents(scene)
    assert _line_clears_rim(scene, container, thing)


def test_the_camera_keeps_its_usual_view_when_nothing_is_inside_anything():
    usual = build("a ball next to an open box")
    assert contents(usual) == [] and elevation_to_see(usual) == 0.0
    forward = np.subtract(usual.camera.position, usual.camera.target)
    elevation = math.degrees(math.asin(forward[1] / np.linalg.norm(forward)))
    usual_elevation = math.degrees(math.asin(0.45 / math.hypot(0.55, 0.45, 0.7)))
    assert elevation == pytest.approx(usual_elevation, abs=0.05)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a lamp on a table", "desk-lamp"),
        ("lamp on the nightstand pls", "desk-lamp"),
        ("a lmap on the desk", "desk-lamp"),
        ("2 lamps on the dresser", "desk-lamp"),
        ("put a lamp on top of the bookshelf", "desk-lamp"),
        ("a table with a lamp on it", "desk-lamp"),
        ("a lamp on a 1 ft 6 in stool", "desk-lamp"),
        ("a desk lamp on the floor", "desk-lamp"),
        ("a floor lamp on the table", "lamp"),
        ("a standing lamp on a desk", "lamp"),
        ("a lamp next to the sofa", "lamp"),
        ("a lamp on a rug", "lamp"),
        ("a lamp on a 20 cm tall crate", "lamp"),
    ],
)
def test_a_plain_lamp_on_furniture_is_the_desk_lamp(text, expected):
    parsed = parse_request(text)
    lamps = [spec for spec in parsed.objects if "lamp" in spec.noun]
    assert [spec.noun for spec in lamps] == [expected]


def test_the_desk_lamp_on_a_table_is_built_desk_sized_and_said():
    built = build_scene(parse_request("a lamp on a table"))
    low, high = object_bounds(built.scene.object("desk-lamp"))
    assert high[1] - low[1] == pytest.approx(CATALOGUE["desk-lamp"].size[1])
    assert low[1] == pytest.approx(object_bounds(built.scene.object("table"))[1][1])
    assert any("desk lamp" in note for note in built.notes)
