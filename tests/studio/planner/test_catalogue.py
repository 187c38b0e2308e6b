"""Every catalogue object builds a valid scene, one object that reads as the thing."""

from __future__ import annotations

import pytest

from studio.planner.builder import build_scene
from studio.planner.catalogue import CATALOGUE, WORDS, match_noun
from studio.planner.grammar import parse_request
from studio.scene.geometry import object_bounds, world_mesh
from studio.scene.model import scene_from_dict


def built(text: str):
    return build_scene(parse_request(text)).scene


def extents(scene, name):
    low, high = object_bounds(scene.object(name))
    return high - low


def test_the_catalogue_has_at_least_sixty_everyday_objects():
    assert len(CATALOGUE) >= 60


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_entry_builds_one_valid_object_of_its_typical_size(key):
    noun = CATALOGUE[key]
    scene = built(f"a {noun.words[0]}")
    assert [item.name for item in scene.objects] == [key]
    scene_from_dict(scene.to_dict())  # round-trips and validates
    item = scene.object(key)
    assert item.category == key
    assert world_mesh(item).volume > 0
    size = sorted(extents(scene, key))
    assert size == pytest.approx(sorted(noun.size), rel=0.06)
    assert object_bounds(item)[0][1] == pytest.approx(0.0, abs=1e-6)  # stands on the ground


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_every_name_and_plural_finds_its_entry(key):
    for word in CATALOGUE[key].words:
        assert WORDS[word] == key


@pytest.mark.parametrize(
    ("word", "key"),
    [("chairs", "chair"), ("benches", "bench"), ("shelves", "shelf"), ("boxes", "crate"),
     ("couch", "sofa"), ("bookcase", "bookshelf"), ("tabel", "table"), ("chiar", "chair"),
     ("bal", "ball"), ("sofaa", "sofa"), ("chiars", "chair")],
)  # fmt: skip
def test_synonyms_plurals_and_misspellings(word, key):
    assert match_noun(word) == key


@pytest.mark.parametrize("word", ["qwzxv", "make", "please", "tall", "unicorn"])
def test_words_that_are_not_objects_stay_unmatched(word):
    assert match_noun(word) is None


def test_things_known_by_their_colour_have_it_unless_asked_otherwise():
    from studio.planner.lights import linear_colour
    from studio.planner.vocabulary import COLOURS

    assert {key: noun.colour for key, noun in CATALOGUE.items() if noun.colour}.keys() >= {
        "apple",
        "orange-fruit",
        "rubber-duck",
        "tennis-ball",
    }
    assert all(noun.colour in COLOURS for noun in CATALOGUE.values() if noun.colour)
    duck = built("a rubber duck").objects[0].material
    assert duck.base_color == linear_colour(COLOURS["yellow"])  # not the black of rubber
    apples = built("three apples on a plate")
    assert all(
        item.material.base_color == linear_colour(COLOURS["red"])
        for item in apples.objects
        if item.category == "apple"
    )
    green = built("a green apple").objects[0].material
    assert green.base_color == linear_colour(COLOURS["green"])  # as asked


def test_a_chair_has_a_seat_back_and_legs():
    scene = built("a chair")
    chair = scene.object("chair")
    assert chair.shape.kind == "boolean"
    width, height, depth = extents(scene, "chair")
    assert (width, height, depth) == pytest.approx((0.45, 0.9, 0.45))
    mesh = world_mesh(chair)
    # legs: the horizontal cut just above the floor is four separate small squares
    section = mesh.section(plane_origin=[0, 0.1, 0], plane_normal=[0, 1, 0])
    assert len(section.discrete) == 4
    # the back rises above the seat only at the back (-Z)
    top = mesh.section(plane_origin=[0, 0.8, 0], plane_normal=[0, 1, 0]).bounds
    assert top[1][2] < -0.15


def test_a_sofa_has_arms_rising_above_its_seat_at_both_ends():
    scene = built("a sofa")
    mesh = world_mesh(scene.object("sofa"))
    (loop,) = mesh.section(plane_origin=[0, 0.55, 0], plane_normal=[0, 1, 0]).discrete
    # above the seat, arms and back join in one U spanning the whole sofa, open at the front
    assert loop[:, 0].min() == pytest.approx(-1.0) and loop[:, 0].max() == pytest.approx(1.0)
    assert loop[:, 2].max() == pytest.approx(0.45)
    assert not any(abs(x) < 0.8 and z > 0.0 for x, _, z in loop)


def test_a_bookshelf_has_shelves_and_a_lamp_gives_light():
    scene = built("a bookshelf and a lamp")
    mesh = world_mesh(scene.object("bookshelf"))
    middle = mesh.section(plane_origin=[mesh.bounds.mean(axis=0)[0], 0, 0], plane_normal=[1, 0, 0])
    assert len(middle.discrete) == 1  # back, top, bottom and shelves in one piece
    assert mesh.volume < 0.5 * mesh.convex_hull.volume  # open between its shelves
    assert any(light.kind == "point" and light.name == "lamp-light" for light in scene.lights)


@pytest.mark.parametrize("text", ["a bowl", "an open box", "a pipe", "a cup", "a bucket"])
def test_hollow_things_are_hollow(text):
    scene = built(text)
    (item,) = scene.objects
    mesh = world_mesh(item)
    assert mesh.volume < 0.6 * mesh.convex_hull.volume


def test_a_rug_is_thin_and_a_pipe_lies_down_at_its_length():
    scene = built("a rug and a copper pipe 2 m long")
    assert extents(scene, "rug")[1] <= 0.02
    assert extents(scene, "pipe") == pytest.approx((2.0, 0.1, 0.1), rel=1e-3)
    assert scene.object("pipe").size_stated and not scene.object("rug").size_stated
