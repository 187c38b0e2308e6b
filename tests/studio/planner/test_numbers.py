"""Counts and lengths as people write them: number words, units, compounds."""

from __future__ import annotations

import pytest

from studio.planner.grammar import GrammarError, parse_request
from studio.planner.numbers import QuantityError, parse_count, parse_length


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("twelve", 12),
        ("twenty", 20),
        ("twenty one", 21),
        ("a dozen", 12),
        ("a couple of", 2),
        ("a pair of", 2),
        ("one hundred and five", 105),
        ("7", 7),
    ],
)
def test_number_words_and_digits(text, count):
    assert parse_count(text) == count


@pytest.mark.parametrize(
    ("text", "metres"),
    [
        ("half a metre", 0.5),
        ("3 metres", 3.0),
        ("3 meters", 3.0),
        ("2.5 m", 2.5),
        ("50cm", 0.5),
        ("24 millimeters", 0.024),
        ("5 km", 5000.0),
        ("three feet", 0.9144),
        ("1 foot", 0.3048),
        ("30 inches", 0.762),
        ("12 in", 0.3048),
        ("5 ft 6 in", 1.6764),
        ("5' 6\"", 1.6764),
        ("1 m 20", 1.2),
        ("2 m 5 cm", 2.05),
        ("6 ft 2", 1.8796),
    ],
)
def test_lengths_with_units_spellings_and_compounds(text, metres):
    assert parse_length(text) == pytest.approx(metres)


def test_a_number_without_a_unit_is_not_a_length():
    with pytest.raises(QuantityError, match="no length"):
        parse_length("three crates")


@pytest.mark.parametrize(
    ("text", "noun", "count"),
    [
        ("twelve crates", "crate", 12),
        ("twenty small cubes", "cube", 20),
        ("a dozen tennis balls", "tennis-ball", 12),
        ("a couple of chairs", "chair", 2),
        ("fifteen books", "book", 15),
    ],
)
def test_counts_in_requests(text, noun, count):
    (spec,) = parse_request(text).objects
    assert (spec.noun, spec.count) == (noun, count)


@pytest.mark.parametrize(
    ("text", "role", "metres"),
    [
        ("a barrel three feet tall", "height", 0.9144),
        ("a concrete wall 3 metres long", "length", 3.0),
        ("a cube half a metre wide", "width", 0.5),
        ("a bookcase 5 ft 6 in tall", "height", 1.6764),
        ("a desk 1 m 20 wide", "width", 1.2),
        ("a sphere 30 cm in diameter", "diameter", 0.3),
    ],
)
def test_number_words_and_compounds_in_requests(text, role, metres):
    (spec,) = parse_request(text).objects
    assert spec.sizes == pytest.approx({role: metres})


def test_a_km_is_a_unit_not_a_count():
    (wall,) = parse_request("a 0.5 km wall").objects
    assert wall.count == 1
    assert wall.sizes == {"size": 500.0}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a 5 km wall", "a wall size of 5 km cannot be built"),
        ("a 5 km sphere", "a sphere size of 5 km cannot be built"),
        ("a ball with a radius of 700 m", "a radius may be 500 m at most"),
    ],
)
def test_sizes_beyond_the_studio_are_refused_not_shrunk(text, message):
    with pytest.raises(GrammarError, match=message):
        parse_request(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("zero balls", "nothing to build"),
        ("-3 cubes", "negative count"),
        ("a ball -5 cm across", "sizes are positive"),
        ("a cube 0 cm wide", "sizes are positive"),
        ("80 chairs", "more than the 50 copies"),
        ("2.5 chairs", "not a whole number"),
    ],
)
def test_impossible_quantities_are_refused_with_the_reason(text, message):
    with pytest.raises(GrammarError, match=message):
        parse_request(text)


def test_each_applies_a_size_to_every_copy():
    (crates,) = parse_request("three crates, 40 centimetres each").objects
    assert crates.count == 3
    assert crates.sizes == {"size": pytest.approx(0.4)}
