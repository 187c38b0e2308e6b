"""Requests from the fourth hold-out suite (studio/evaluation/suite/holdout4.yaml) the grammar once
misread: 'a grid of 3 by 3', heights against the body ('waist high'), 'small' and 'big' before a
noun, a table 'set for four', 'in front of each chair', a dark or moody scene, and things the
catalogue lacked (a parasol, a hammer, a workbench)."""

from __future__ import annotations

import itertools

import pytest

from studio.planner.builder import build_scene
from studio.planner.catalogue import CATALOGUE
from studio.planner.grammar import parse_request


def _objects(text: str) -> list[tuple[str, int, dict]]:
    return [(o.noun, o.count, o.sizes) for o in parse_request(text).objects]


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("a grid of 3 by 3 cubes on the floor", 9),
        ("a grid of 2 x 4 red balls", 8),
        ("a 3 by 3 grid of cubes", 9),
    ],
)
def test_a_grid_of_rows_by_columns_is_their_product(text, count):
    [(_, made, _)] = [o for o in _objects(text) if o[0] in ("cube", "ball")]
    assert made == count


@pytest.mark.parametrize(
    ("text", "height"),
    [("a waist high table", 1.0), ("a knee-high wall", 0.5), ("a shoulder-height bookcase", 1.45)],
)
def test_a_height_against_the_body_is_a_length(text, height):
    assert _objects(text)[0][2] == {"height": height}


def test_at_waist_height_is_where_a_thing_is_not_its_size():
    assert _objects("a red ball at waist height on a pillar")[0][2] == {}


def test_small_and_big_scale_the_usual_size_when_none_is_given():
    [(_, _, small), (_, _, big)] = _objects("a small box stacked on a big box")
    usual = max(CATALOGUE["crate"].size)
    assert small == {"size": pytest.approx(usual * 0.75)}
    assert big == {"size": pytest.approx(usual * 1.3)}
    bed = _objects("a kids room with a small bed and a red ball on the rug")[0]
    assert bed[0] == "bed" and 1.2 < bed[2]["size"] < 1.9
    assert _objects("a tiny 2 cm cube")[0][2] == {"size": 0.02}  # a stated size wins


@pytest.mark.parametrize(
    ("text", "table", "chairs"),
    [
        ("a dining table set for four", "table", 4),
        ("a round table for 6 people", "round-table", 6),
        ("a table for two", "table", 2),
    ],
)
def test_a_table_for_n_has_n_chairs_around_it(text, table, chairs):
    parsed = parse_request(text)
    assert [(o.noun, o.count) for o in parsed.objects] == [(table, 1), ("chair", chairs)]
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(1, "around", 0)]


def test_a_plate_in_front_of_each_chair_is_one_plate_per_chair_not_more_tables():
    parsed = parse_request(
        "a dining table set for four, with a plate on the table in front of each chair"
    )
    assert [(o.noun, o.count) for o in parsed.objects] == [("table", 1), ("chair", 4), ("plate", 4)]
    assert (2, "on", 0) in [(r.subject, r.kind, r.target) for r in parsed.relations]


def test_a_dark_scene_is_lit_by_its_candle():
    parsed = parse_request("a moody, dark scene with a single candle on a wooden table")
    assert parsed.lighting is not None and parsed.lighting.mood == "dark"
    lights = build_scene(parsed).scene.lights
    brightest = max(lights, key=lambda light: light.intensity)
    assert brightest.name == "candle-light"


def test_moonlight_is_cool():
    parsed = parse_request("a sofa under moonlight")
    assert parsed.lighting is not None and parsed.lighting.mood == "moonlight"
    key = build_scene(parsed).scene.lights[0]
    assert key.color[2] > key.color[0]  # bluer than red


@pytest.mark.parametrize(
    ("text", "nouns"),
    [
        ("a garden patio with a round table, two chairs and a parasol", {"parasol"}),
        ("a workshop bench with a hammer and a toolbox on it", {"workbench", "hammer"}),
    ],
)
def test_patio_and_workshop_things_are_in_the_catalogue(text, nouns):
    assert nouns <= {noun for noun, _, _ in _objects(text)}


def test_a_cushion_on_a_sofa_rests_on_the_seat_clear_of_the_back():
    scene = build_scene(parse_request("a couple of red cushions on a sofa")).scene
    from studio.scene.geometry import object_bounds

    sofa_low, _ = object_bounds(scene.object("sofa"))
    for name in ("cushion-1", "cushion-2"):
        low, _ = object_bounds(scene.object(name))
        assert low[1] == pytest.approx(0.425, abs=0.01)  # the seat, not the back's top
        assert low[2] > sofa_low[2] + 0.9 * 0.25 + 0.005  # not flush against the back


def test_four_plates_on_a_dining_table_stand_in_two_rows_apart():
    scene = build_scene(
        parse_request(
            "a dining table set for four, with a plate on the table in front of each chair"
        )
    ).scene
    from studio.scene.geometry import object_bounds

    plates = [object_bounds(scene.object(f"plate-{n}")) for n in (1, 2, 3, 4)]
    for (a_low, a_high), (b_low, b_high) in itertools.combinations(plates, 2):
        apart_x = a_high[0] <= b_low[0] or b_high[0] <= a_low[0]
        apart_z = a_high[2] <= b_low[2] or b_high[2] <= a_low[2]
        assert apart_x or apart_z
    table_low, table_high = object_bounds(scene.object("table"))
    for low, high in plates:
        assert table_low[2] - 1e-6 <= low[2] and high[2] <= table_high[2] + 1e-6
