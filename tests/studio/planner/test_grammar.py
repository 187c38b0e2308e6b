"""The offline planner's grammar: what people commonly type becomes exact object specs."""

from __future__ import annotations

import pytest

from studio.planner.grammar import GrammarError, parse_request


def only(request: str):
    parsed = parse_request(request)
    assert len(parsed.objects) == 1, parsed.objects
    return parsed.objects[0]


def test_the_issue_example_is_understood_whole():
    parsed = parse_request(
        "a red metal sphere of 50 cm resting on a wooden table, warm light from the left"
    )
    sphere, table = parsed.objects
    assert (sphere.noun, sphere.colour_word, sphere.material, sphere.sizes) == (
        "sphere",
        "red",
        "metal",
        {"size": 0.5},
    )
    assert (table.noun, table.material) == ("table", "wood")
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(0, "on", 1)]
    assert (parsed.lighting.mood, parsed.lighting.direction) == ("warm", "left")
    assert parsed.unparsed == []


@pytest.mark.parametrize(
    ("request_text", "role", "metres"),
    [
        ("a ball of 22 cm", "size", 0.22),
        ("a 500 mm cube", "size", 0.5),
        ("a pillar 3 m tall", "height", 3.0),
        ("a table 2 m long", "length", 2.0),
        ("a sphere 30 cm diameter", "diameter", 0.3),
        ("a crate of 2 ft", "size", 0.6096),
        ("a cup 4 in tall", "height", 0.1016),
        ("a 1.5 m wide shelf", "width", 1.5),
    ],
)
def test_sizes_with_units_become_metres(request_text, role, metres):
    assert only(request_text).sizes == pytest.approx({role: metres})


def test_three_dimensions_are_kept_for_the_shape_to_fit():
    assert only("a 2x1x0.5 m platform").sizes == pytest.approx(
        {"dims_x": 2.0, "dims_y": 1.0, "dims_z": 0.5}
    )


@pytest.mark.parametrize(
    ("request_text", "count"),
    [("three crates", 3), ("a pair of chairs", 2), ("12 balls", 12), ("a dozen cups", 12)],
)
def test_counts(request_text, count):
    assert only(request_text).count == count


def test_colours_by_name_shade_and_hex():
    assert only("a blue ball").colour == (40, 90, 220)
    assert only("a dark red ball").colour == (121, 22, 22)
    assert only("a #ff8800 crate").colour == (255, 136, 0)
    assert only("a #f80 crate").colour == (255, 136, 0)


@pytest.mark.parametrize(
    ("request_text", "material"),
    [
        ("a wooden crate", "wood"),
        ("a steel barrel", "steel"),
        ("a gold vase", "gold"),
        ("a glass bottle", "glass"),
        ("a table made of oak", "oak"),
        ("an aluminum cylinder", "aluminium"),
    ],
)
def test_materials_before_or_after_the_noun(request_text, material):
    assert only(request_text).material == material


@pytest.mark.parametrize(
    ("request_text", "kind"),
    [
        ("a ball on top of a table", "on"),
        ("a ball under a table", "under"),
        ("a crate next to a barrel", "next_to"),
        ("a lamp to the left of a sofa", "left_of"),
        ("a chair right of a table", "right_of"),
        ("a vase in front of a wall", "in_front_of"),
        ("a chair behind a table", "behind"),
        ("a ball inside a bowl", "inside"),
    ],
)
def test_spatial_relations(request_text, kind):
    parsed = parse_request(request_text)
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(0, kind, 1)]


def test_a_pronoun_points_back_to_the_earlier_object():
    parsed = parse_request("a concrete platform with a gold vase on it")
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [(1, "on", 0)]


def test_stacking_is_marked():
    crates = only("three crates stacked")
    assert crates.stacked and crates.count == 3


@pytest.mark.parametrize(
    ("request_text", "mood", "direction"),
    [
        ("a ball, cool lighting", "cool", ""),
        ("a ball, studio light", "studio", ""),
        ("a ball, evening light from behind", "evening", "behind"),
        ("a ball, dramatic lighting from the right", "dramatic", "right"),
        ("a ball, soft light from above", "soft", "above"),
    ],
)
def test_lighting_moods_and_directions(request_text, mood, direction):
    lighting = parse_request(request_text).lighting
    assert (lighting.mood, lighting.direction) == (mood, direction)


def test_words_it_cannot_place_are_reported_not_dropped():
    parsed = parse_request("a dragon and a spaceship on a wooden table")
    assert [o.noun for o in parsed.objects] == ["table"]
    assert parsed.unknown == ["dragon", "spaceship"]


def test_a_request_without_any_known_object_is_refused_clearly():
    with pytest.raises(
        GrammarError, match=r"no object I know in 'a unicorn' \(not in my catalogue: unicorn\)"
    ):
        parse_request("a unicorn")


def test_the_same_noun_with_the_refers_back_instead_of_adding_another():
    parsed = parse_request("a wall behind a sofa, a lamp next to the sofa")
    assert [o.noun for o in parsed.objects] == ["wall", "sofa", "lamp"]
    assert [(r.subject, r.kind, r.target) for r in parsed.relations] == [
        (0, "behind", 1),
        (2, "next_to", 1),
    ]
