"""Misreads seen in use: a noun before a noun is the kind of the second ('a shop display shelf' is
one shelf, not a torus, a monitor and a shelf), a compound name read whole in a follow-up ('add a
desk lamp'), 'the two armchairs' meaning the ones already there, and setting words ('kids',
'patio', 'moody') that name no object and are not reported unknown."""

from __future__ import annotations

import pytest

from studio.planner.grammar import parse_request
from studio.planner.vocabulary import SETTING_WORDS, words_not_objects
from tests.studio.planner.test_edits import calls, item, state

LEFT = item("armchair-1", "armchair", [0.85, 0.85, 0.85], [-0.5, 0, 0])
RIGHT = item("armchair-2", "armchair", [0.85, 0.85, 0.85], [0.5, 0, 0])


def _objects(text: str) -> list[tuple[str, int]]:
    return [(spec.noun, spec.count) for spec in parse_request(text).objects]


@pytest.mark.parametrize(
    "request_text",
    [
        "a shop display shelf",
        "a display shelf",
        "a shlef display shelf",  # a misspelt noun before a noun: a modifier too
        "a hopp shelf",
    ],
)
def test_a_noun_before_a_noun_says_what_kind_it_is(request_text):
    parsed = parse_request(request_text)
    assert _objects(request_text) == [("shelf", 1)]
    assert not parsed.unknown
    assert not parsed.unparsed


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("a display", [("monitor", 1)]),
        ("a display and a shelf", [("monitor", 1), ("shelf", 1)]),
        ("a display, a shelf", [("monitor", 1), ("shelf", 1)]),
        ("3 chairs 2 tables", [("chair", 3), ("table", 2)]),  # plurals: a list without commas
        ("a desk lamp on a desk", [("desk-lamp", 1), ("desk", 1)]),
    ],
)
def test_nouns_joined_or_alone_stay_objects(request_text, expected):
    assert _objects(request_text) == expected


def test_a_compound_name_is_read_whole_in_a_follow_up():
    made = calls("add a desk lamp on armchair-1", state(LEFT, RIGHT), ["two armchairs"])
    assert made == [
        ("add_described", {"description": "a desk lamp", "relation": "on", "target": "armchair-1"})
    ]


@pytest.mark.parametrize(
    "request_text",
    ["put a lamp between the two armchairs", "put a lamp between those two armchairs"],
)
def test_the_two_armchairs_are_the_ones_already_there(request_text):
    made = calls(request_text, state(LEFT, RIGHT), ["two armchairs"])
    added = [arguments for tool, arguments in made if tool == "add_described"]
    assert added == [{"description": "a lamp", "relation": "right_of", "target": "armchair-1"}]
    assert made == calls("put a lamp between them", state(LEFT, RIGHT), ["two armchairs"])


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("a cozy kids room with a bed", [("bed", 1)]),
        ("a patio with two chairs, moody", [("chair", 2)]),
        ("a rustic cabin interior with a table", [("house", 1), ("table", 1)]),
        ("a dreamy loft with a sofa and a lamp", [("sofa", 1), ("lamp", 1)]),
    ],
)
def test_setting_words_are_neither_objects_nor_unknown(request_text, expected):
    parsed = parse_request(request_text)
    assert _objects(request_text) == expected
    assert not parsed.unknown
    assert not parsed.unparsed


def test_setting_words_are_known_words_in_follow_ups_too():
    assert {"kids", "patio", "moody", "balcony", "minimalist"} <= SETTING_WORDS
    assert words_not_objects() >= SETTING_WORDS


@pytest.mark.parametrize(
    ("text", "nouns"),
    [
        ("table chair lamp", ["table", "chair", "lamp"]),
        ("sofa lamp rug", ["sofa", "lamp", "rug"]),
        ("bed nightstand lamp", ["bed", "side-table", "lamp"]),
    ],
)
def test_three_nouns_in_a_row_are_a_list_said_without_commas(text, nouns):
    assert [spec.noun for spec in parse_request(text).objects] == nouns
