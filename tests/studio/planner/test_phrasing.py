"""Dimensions in any order, corrections, misspellings, arrangements and lighting in the clause."""

from __future__ import annotations

import pytest

from studio.planner.grammar import parse_colour, parse_request


def only(text: str):
    parsed = parse_request(text)
    assert len(parsed.objects) == 1, parsed.objects
    return parsed.objects[0]


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        (
            "a cabinet 90 cm wide, 40 cm deep and 1.2 m high",
            {"width": 0.9, "depth": 0.4, "height": 1.2},
        ),
        ("a wardrobe 2.2 m high and 1.5 m wide", {"height": 2.2, "width": 1.5}),
        ("a sphere with a radius of 40 cm", {"radius": 0.4}),
        ("a round table with a diameter of 1.1 m", {"diameter": 1.1}),
        ("a ball 30 cm across", {"diameter": 0.3}),
        ("a rug 3 m long", {"length": 3.0}),
        ("a rug 2 m by 3 m", {"width": 2.0, "depth": 3.0}),
        ("a table 120 x 75 x 70 cm", {"dims_x": 1.2, "dims_y": 0.75, "dims_z": 0.7}),
    ],
)
def test_dimensions_in_any_order_and_form(text, sizes):
    assert only(text).sizes == pytest.approx(sizes)


@pytest.mark.parametrize(
    ("text", "noun", "count", "colour", "sizes"),
    [
        ("a red ball, no wait, a blue ball", "ball", 1, "blue", {}),
        ("a red ball, no, make it blue", "ball", 1, "blue", {}),
        ("a red ball - actually make it green", "ball", 1, "green", {}),
        ("two, no wait, three cubes", "cube", 3, "", {}),
        ("a table 2 m long, I mean 1.6 m long", "table", 1, "", {"length": 1.6}),
        ("a ball 50 cm across - I mean 60 cm", "ball", 1, "", {"diameter": 0.6}),
    ],
)
def test_corrections_within_one_request(text, noun, count, colour, sizes):
    spec = only(text)
    assert (spec.noun, spec.count, spec.colour_word) == (noun, count, colour)
    assert spec.sizes == pytest.approx(sizes)


def test_no_is_a_count_when_it_does_not_take_anything_back():
    assert parse_request("a table with no chairs, a red ball").objects[-1].noun == "ball"


@pytest.mark.parametrize(
    ("text", "nouns"),
    [
        ("a tabel with a red bal on it", ["table", "ball"]),
        ("two wooden chiars next to a tabel", ["chair", "table"]),
        ("a bookshelf and a lamb next to a sofaa", ["bookshelf", "lamp", "sofa"]),
    ],
)
def test_misspelt_objects_are_recognised(text, nouns):
    assert [spec.noun for spec in parse_request(text).objects] == nouns


def test_number_words_are_never_read_as_misspelt_objects():
    parsed = parse_request("a pyramid of crates, three on the bottom, then two, then one")
    (crates,) = parsed.objects
    assert (crates.arrangement, crates.levels, crates.count) == ("pyramid", [3, 2, 1], 6)


def test_an_unknown_object_is_reported_and_the_rest_is_kept():
    parsed = parse_request("a red ball and a unicorn on a table")
    assert [spec.noun for spec in parsed.objects] == ["ball", "table"]
    assert parsed.unknown == ["unicorn"]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("six chairs around the table", "around"),
        ("a lamp on each side of the sofa", "each_side"),
        ("a plant between two armchairs", "between"),
        ("a plank across two crates", "across"),
        ("a sofa against the wall", "against"),
        ("a vase in the middle of the table", "on"),
        ("five books stacked on a table", "on"),
    ],
)
def test_arrangement_relations(text, kind):
    parsed = parse_request(text)
    assert [relation.kind for relation in parsed.relations] == [kind]


@pytest.mark.parametrize(
    ("text", "arrangement", "stacked"),
    [
        ("five barrels in a row", "row", False),
        ("eight stools in a circle", "circle", False),
        ("nine cubes in a grid", "grid", False),
        ("four books on top of each other", "", True),
        ("a stack of three crates", "", True),
        ("a pyramid of ten cubes", "pyramid", False),
    ],
)
def test_group_arrangements(text, arrangement, stacked):
    spec = only(text)
    assert (spec.arrangement, spec.stacked) == (arrangement, stacked)


def test_one_lamp_on_each_side_is_two_lamps():
    assert parse_request("a lamp on each side of the sofa").objects[0].count == 2


def test_a_box_something_goes_inside_is_modelled_open():
    parsed = parse_request("a ball inside a box")
    assert [spec.noun for spec in parsed.objects] == ["ball", "open-box"]
    assert parsed.notes == ["the crate is modelled open so things can go inside"]


@pytest.mark.parametrize(
    ("text", "mood", "kind", "kelvin", "nouns"),
    [
        ("a red ball on a wooden table under warm light", "warm", "", None, ["ball", "table"]),
        ("sunset lighting over three barrels", "sunset", "", None, ["barrel"]),
        ("a chair and a table in daylight", "daylight", "directional", None, ["chair", "table"]),
        ("a vase with a spotlight on it", "studio", "spot", None, ["vase"]),
        ("a table lit by a bare bulb", "studio", "point", None, ["table"]),
        ("a white vase on a pedestal, 2700 K light", "studio", "", 2700.0, ["vase", "pedestal"]),
        ("a jar on a tray, softbox lighting", "studio", "area", None, ["jar", "tray"]),
    ],
)
def test_lighting_in_the_same_sentence_as_objects(text, mood, kind, kelvin, nouns):
    parsed = parse_request(text)
    assert [spec.noun for spec in parsed.objects] == nouns
    lighting = parsed.lighting
    assert (lighting.mood, lighting.kind, lighting.kelvin) == (mood, kind, kelvin)


def test_a_spotlight_points_at_its_object():
    assert parse_request("a cube and a 3000 K spotlight on the vase").lighting.target == "vase"


def test_on_top_with_no_object_means_on_the_one_before():
    parsed = parse_request("a white marble plinth, 50cm tall, with a bronze sphere on top")
    plinth, sphere = parsed.objects
    assert plinth.sizes == {"height": 0.5} and sphere.material == "brass"
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(1, "on", 0)]


def test_a_list_before_a_relation_shares_it():
    parsed = parse_request("a jar and an apple on a tray")
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(1, "on", 2), (0, "on", 2)]


def test_parse_colour_reads_names_shades_and_hex():
    assert parse_colour("dark red") == (121, 22, 22)
    assert parse_colour("#ff8800") == (255, 136, 0)
    assert parse_colour("something") is None


def test_on_top_before_its_object_refers_to_the_one_before():
    parsed = parse_request("a green cube, on top a red ball")
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(1, "on", 0)]


def test_each_side_without_an_object_means_the_main_piece_not_what_rests_on_it():
    parsed = parse_request("a bed with a pillow on it, a nightstand on each side")
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [
        (1, "on", 0),
        (2, "each_side", 0),
    ]
    assert parsed.objects[2].count == 2


@pytest.mark.parametrize(
    ("text", "count"), [("a 2 by 3 grid of crates", 6), ("nine crates in a 3 by 3 grid", 9)]
)
def test_grids_with_their_sides(text, count):
    spec = only(text)
    assert (spec.count, spec.arrangement) == (count, "grid")


def test_a_bare_number_takes_the_unit_of_the_length_before_it():
    assert only("an oak desk about 160cm wide and 80 deep").sizes == pytest.approx(
        {"width": 1.6, "depth": 0.8}
    )


def test_round_is_around_before_an_article_and_a_shape_before_table():
    assert parse_request("six chairs round the table").relations[0].kind == "around"
    assert [spec.noun for spec in parse_request("a round table").objects] == ["round-table"]
