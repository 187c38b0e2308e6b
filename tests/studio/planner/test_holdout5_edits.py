"""Follow-ups from the fifth hold-out suite (studio/evaluation/suite/holdout5.yaml) the planner
once misread: 'add 2 more chairs', 'raise the bench by 6 inches', 'the smaller box' as a choice
not a resize, feet and inches run together (6'6", 2ft 6in), 'the one on the left', 'a bean bag',
'a second monitor beside it', 'on the floor to the right of the desk', a spotlight on 'the red
one', 'the bags on the floor', 'golden hour' and a workbench called 'the bench'."""

from __future__ import annotations

import pytest

from tests.studio.planner.test_edits import calls, item, state

TABLE = item("table", "table", [1.2, 0.75, 0.7], [0, 0, 0], shape="boolean")
LEFT = item("chair-1", "chair", [0.45, 0.9, 0.45], [-1, 0, 0], color="#aa8661")
RIGHT = item("chair-2", "chair", [0.45, 0.9, 0.45], [1, 0, 0], color="#aa8661")
BENCH = item("workbench", "workbench", [2.0, 0.9, 0.7], [0, 0, 0])
BED = item("bed", "bed", [1.6, 1.0, 2.1], [0, 0, 0], material="fabric")
DESK = item("desk", "desk", [1.4, 0.75, 0.7], [2, 0, 0])
MONITOR = item("monitor", "monitor", [0.6, 0.4, 0.2], [2, 0.75, 0], material="plastic")
BIG = item("crate", "crate", [0.5, 0.5, 0.5], [-0.5, 0, 0])
SMALL = item("crate-2", "crate", [0.3, 0.3, 0.3], [0.5, 0, 0])
PLINTH = item("plinth", "plinth", [0.6, 0.5, 0.6], [0, 0, 0], material="glass")
BAGS = [
    item("handbag", "handbag", [0.32, 0.26, 0.13], [0, 0.5, 0], material="fabric"),
    item("handbag-2", "handbag", [0.32, 0.26, 0.13], [1.0, 0, 0], material="fabric"),
    item("handbag-3", "handbag", [0.32, 0.26, 0.13], [1.5, 0, 0], material="fabric"),
]
MANNEQUINS = [
    item("mannequin-1", "mannequin", [0.45, 1.8, 0.32], [-1, 0, 0], color="#cccccc"),
    item("mannequin-2", "mannequin", [0.45, 1.8, 0.32], [0, 0, 0], color="#dc2828"),
]


@pytest.mark.parametrize("request_text", ["add 2 more chairs", "add two more chairs"])
def test_more_chairs_counted_in_digits_or_words(request_text):
    made = calls(request_text, state(TABLE, LEFT, RIGHT), ["a table with two chairs"])
    assert [tool for tool, _ in made] == ["duplicate_object", "duplicate_object"]


def test_raising_a_workbench_by_inches_makes_it_that_much_taller():
    made = calls("raise the bench by 6 inches", state(BENCH), ["a workbench 2m long"])
    assert made == [("resize_object", {"name": "workbench", "size": [2.0, 1.0524, 0.7]})]


def test_the_smaller_box_is_the_one_painted_not_a_box_made_smaller():
    made = calls("make the smaller box red", state(BIG, SMALL), ["a 50cm box and a 30cm box"])
    assert made == [("set_material", {"name": "crate-2", "color": "#dc2828"})]


@pytest.mark.parametrize(
    ("request_text", "length"),
    [("make the bed 6'6\" long", 1.9812), ("make the bed 6 ft 6 in long", 1.9812)],
)
def test_feet_and_inches_together_are_one_length_not_a_count(request_text, length):
    made = calls(request_text, state(BED, DESK), ["add a bean bag next to the bed"])
    assert made == [("resize_object", {"name": "bed", "size": [1.6, 1.0, length]})]


def test_two_foot_six_is_the_height_of_every_desk():
    desks = [item(f"desk-{n}", "desk", [1.4, 0.75, 0.7], [2 * n, 0, 0]) for n in (1, 2, 3)]
    made = calls("make them 2ft 6in tall", state(*desks), ["4 school desks in a row"])
    assert [args["size"] for _, args in made] == [[1.4, 0.762, 0.7]] * 3


@pytest.mark.parametrize(
    "request_text", ["make the one on the left green", "make the chair on the left green"]
)
def test_a_place_said_after_the_noun_picks_one(request_text):
    made = calls(request_text, state(TABLE, LEFT, RIGHT), ["patio table with two chairs"])
    assert made == [("set_material", {"name": "chair-1", "color": "#28a03c"})]


def test_on_the_left_of_a_thing_is_a_relation_not_a_choice():
    made = calls("put a lamp on the left of the table", state(TABLE, LEFT, RIGHT), ["a table"])
    assert made == [
        ("add_described", {"description": "a lamp", "relation": "left_of", "target": "table"})
    ]


def test_a_bean_bag_is_a_bean_bag_not_a_handbag():
    made = calls("add a bean bag next to the bed", state(BED, DESK), ["a single bed and a desk"])
    assert made == [
        ("add_described", {"description": "a bean bag", "relation": "next_to", "target": "bed"})
    ]


def test_a_second_monitor_beside_it_stands_by_the_first_one():
    made = calls("add a second monitor beside it", state(DESK, MONITOR), ["a desk with a monitor"])
    assert made == [
        (
            "duplicate_object",
            {
                "name": "monitor",
                "relation": "next_to",
                "target": "monitor",
                "new_name": "monitor-2",
            },
        )
    ]


def test_on_the_floor_to_the_right_of_the_desk_is_right_of_the_desk():
    made = calls(
        "put a plant on the floor to the right of the desk", state(DESK, MONITOR), ["a desk"]
    )
    assert made == [
        ("add_described", {"description": "a plant", "relation": "right_of", "target": "desk"})
    ]


def test_a_spotlight_on_the_red_one_aims_at_the_red_one():
    made = calls("add a spotlight on the red one", state(*MANNEQUINS), ["make the middle one red"])
    assert len(made) == 1
    tool, arguments = made[0]
    assert (tool, arguments["kind"], arguments["target"]) == ("add_light", "spot", [0.0, 1.8, 0.0])
    assert arguments["position"][1] > arguments["target"][1]


def test_the_red_one_is_the_one_of_that_colour():
    made = calls("make the red one blue", state(*MANNEQUINS), ["3 mannequins in a row"])
    assert made == [("set_material", {"name": "mannequin-2", "color": "#285adc"})]


def test_the_bags_on_the_floor_are_not_the_one_on_the_plinth():
    made = calls("remove the bags on the floor", state(PLINTH, *BAGS), ["make the plinth glass"])
    assert made == [
        ("delete_object", {"name": "handbag-2"}),
        ("delete_object", {"name": "handbag-3"}),
    ]


def test_golden_hour_is_sunset_light_and_golden_alone_no_light():
    assert calls("make it golden hour", state(TABLE), ["a table"]) == [
        ("set_lighting", {"mood": "sunset"})
    ]
    assert calls("make it golden", state(TABLE), ["a table"]) == []


def test_accents_and_shorthands_in_a_follow_up():
    made = calls("put a stool infront of the café table", state(TABLE), ["a table"])
    assert made == [
        ("add_described", {"description": "a stool", "relation": "in_front_of", "target": "table"})
    ]


def test_in_before_an_article_is_a_place_not_inches():
    made = calls("put the red one in a sunny spot", state(*MANNEQUINS), ["3 mannequins"])
    assert "resize_object" not in [tool for tool, _ in made]
    made = calls("make the red one 30 in tall", state(*MANNEQUINS), ["3 mannequins"])
    assert made == [("resize_object", {"name": "mannequin-2", "size": [0.45, 0.762, 0.32]})]


def test_a_spot_to_put_something_is_no_spotlight():
    made = calls("put the red one in a good spot", state(*MANNEQUINS), ["3 mannequins"])
    assert "add_light" not in [tool for tool, _ in made]


def test_stand_after_a_noun_is_the_verb():
    lamp = item("lamp", "lamp", [0.4, 1.6, 0.4], [1, 0, 0], material="metal")
    made = calls("make the lamp stand next to the table", state(TABLE, lamp), ["a table, a lamp"])
    assert made == [("place_object", {"name": "lamp", "relation": "next_to", "target": "table"})]
