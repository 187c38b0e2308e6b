"""Follow-ups written the way people type them that the planner once misread (found by the
hold-out suite): digits as counts, 'make that 2 of them', 'one of the mugs', hex colours."""

from __future__ import annotations

import pytest

from tests.studio.planner.test_edits import TABLE, calls, item, state

VASE = item("vase", "vase", [0.24, 0.3, 0.24], [0, 0.75, 0], shape="revolve")
BENCH = item("bench", "bench", [1.524, 0.45, 0.4], [0, 0, 0], shape="boolean")
MUGS = [item(f"cup-{n}", "cup", [0.08, 0.1, 0.08], [n * 0.2, 0.75, 0]) for n in (1, 2, 3)]


@pytest.mark.parametrize(
    ("request_text", "colour"),
    [("and paint it #8b4513", "#8b4513"), ("make it #f80", "#ff8800"), ("#00ff00 pls", "#00ff00")],
)
def test_a_hex_code_colours_what_it_is_about(request_text, colour):
    assert calls(request_text, state(BENCH), ["a 4 ft bench"]) == [
        ("set_material", {"name": "bench", "color": colour})
    ]


def test_digits_count_what_is_added():
    added = calls("add 2 chairs beside it", state(TABLE), ["a small table"])
    assert added == [
        ("add_described", {"description": "2 chair", "relation": "next_to", "target": "table"})
    ]
    assert calls("add 3 cups", state(TABLE))[0][1]["description"] == "3 cup"


@pytest.mark.parametrize(
    "request_text", ["actually make that 2 of them", "make it 2", "2 of them pls", "two of those"]
)
def test_make_that_two_of_them_copies_what_the_last_request_named(request_text):
    made = calls(request_text, state(VASE, TABLE), ["a red vase on a table"])
    assert [(tool, args["name"], args["new_name"]) for tool, args in made] == [
        ("duplicate_object", "vase", "vase-2")
    ]


def test_a_count_of_the_things_named_is_not_a_recount():
    # "2 of the mugs" picks mugs, it does not ask for two mugs in all
    assert calls("make 2 of the mugs blue", state(*MUGS, TABLE), ["three mugs on a table"])


@pytest.mark.parametrize(
    ("request_text", "removed"),
    [
        ("remove one of the mugs", ["cup-3"]),
        ("delete 2 of the mugs", ["cup-2", "cup-3"]),
        ("remove two mugs", ["cup-2", "cup-3"]),
        ("remove a mug", ["cup-3"]),
        ("remove the mugs", ["cup-1", "cup-2", "cup-3"]),
    ],
)
def test_removing_some_of_a_group_removes_only_that_many(request_text, removed):
    made = calls(request_text, state(*MUGS, TABLE), ["three mugs on a table"])
    assert made == [("delete_object", {"name": name}) for name in removed]


CHAIR = item("chair", "chair", [0.45, 0.9, 0.45], [0, 0, 0], shape="boolean")


@pytest.mark.parametrize(
    ("request_text", "height"),
    [
        ("make it 20% taller", 1.08),
        ("make it 50 percent taller", 1.35),
        ("10 per cent shorter", 0.81),
    ],
)
def test_a_percentage_resizes_and_is_never_a_count(request_text, height):
    made = calls(request_text, state(CHAIR), ["a wooden chair"])
    assert [tool for tool, _ in made] == ["resize_object"]
    assert made[0][1]["size"][1] == pytest.approx(height)


@pytest.mark.parametrize("request_text", ["make the vase blue-ish", "make the vase bluish"])
def test_ish_colours_in_a_follow_up(request_text):
    assert calls(request_text, state(VASE, TABLE), ["put a vase on it"]) == [
        ("set_material", {"name": "vase", "color": "#285adc"})
    ]


def test_remove_one_lamp_of_two():
    lamps = [item(f"lamp-{n}", "lamp", [0.4, 1.6, 0.4], [n, 0, 0]) for n in (1, 2)]
    sofa = item("sofa", "sofa", [2.0, 0.85, 0.9], [4, 0, 0])
    made = calls("remove one lamp", state(*lamps, sofa), ["two lamps and a sofa"])
    assert made == [("delete_object", {"name": "lamp-2"})]
