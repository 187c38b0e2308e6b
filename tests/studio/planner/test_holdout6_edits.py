"""Follow-ups from the sixth hold-out suite (studio/evaluation/suite/holdout6.yaml) the planner
once misread: removing something the scene lacks ('remove the tv'), 'actually only 3 chairs',
'swap their colours', 'no, the other one', 'another two like that', 'make it night', a 'sun
umbrella' read as sunlight, 'the first one' read as a fir tree, 'the new one', 'one each side of
the monitor', 'go back two steps', 'taller, 1.5m', 'navy not green', 'take two of them away',
'3 logs around the fire' and a spotlight asked for without a verb."""

from __future__ import annotations

import pytest

from studio.planner.edits import plan_edits
from tests.studio.planner.test_edits import calls, item, state

SOFA = item("sofa", "sofa", [2.0, 0.85, 0.9], [0, 0, 0], material="fabric")
COFFEE_TABLE = item("coffee-table", "coffee-table", [1.1, 0.45, 0.6], [0, 0, 1])
PLANT = item("plant", "plant", [0.5, 0.8, 0.5], [1.5, 0, 0], material="ceramic")
WAITING = (SOFA, COFFEE_TABLE, PLANT)
WAITING_TALK = ["waiting room, a sofa and a coffee table in front of it", "add a plant next to it"]
CHAIRS = [item(f"chair-{n}", "chair", [0.45, 0.9, 0.45], [n, 0, 0]) for n in (1, 2, 3, 4)]
TENTS = (
    item("tent-1", "tent", [2, 1.3, 2], [-1.5, 0, 0], material="fabric", color="#f58c1e"),
    item("tent-2", "tent", [2, 1.3, 2], [1.5, 0, 0], material="fabric", color="#28a03c"),
)
SPEAKERS = (
    item("speaker-1", "speaker", [0.25, 0.4, 0.25], [-1, 0, 0], material="plastic"),
    item("speaker-2", "speaker", [0.25, 0.4, 0.25], [1, 0, 0], material="plastic"),
    item("stool", "stool", [0.35, 0.45, 0.35], [0, 0, 0]),
)
TWO_RUNS = [{"number": 1, "run": 1}, {"number": 2, "run": 2}]
SHELF = item("shelf", "shelf", [0.8, 1.8, 0.35], [0, 0, 0])
BOTTLES = [item(f"bottle-{n}", "bottle", [0.08, 0.3, 0.08], [n / 5, 0.9, 0]) for n in (1, 2)]
PLINTHS = [item(f"plinth-{n}", "plinth", [0.6, 0.5, 0.6], [n - 2, 0, 0]) for n in (1, 2, 3)]
STATUE = item("statue", "statue", [0.5, 1.8, 0.5], [-1, 0.5, 0], material="stone")
DESK = item("desk", "desk", [1.4, 0.75, 0.7], [0, 0, 0])
MONITOR = item("monitor", "monitor", [0.6, 0.4, 0.2], [0, 0.75, 0], material="plastic")
ARMCHAIRS = [item(f"armchair-{n}", "armchair", [0.85, 0.85, 0.85], [n, 0, 1]) for n in (1, 2)]
TOY_BOX = item("toy-box", "toy-box", [0.8, 0.5, 0.45], [0, 0, 0])
TEDDIES = [
    item(f"teddy-bear-{n}", "teddy-bear", [0.25, 0.35, 0.2], [n / 5, 0.5, 0], material="fabric")
    for n in (1, 2, 3, 4)
]


@pytest.mark.parametrize("request_text", ["remove the tv", "now get rid of the ironing board"])
def test_removing_what_the_scene_lacks_removes_nothing_and_says_so(request_text):
    plan = plan_edits(request_text, state(*WAITING), WAITING_TALK)
    assert plan.calls == []
    assert "nothing was removed" in plan.notes[0]


@pytest.mark.parametrize("request_text", ["remove it", "delete that", "drop the last one"])
def test_removing_it_still_removes_what_the_talk_is_about(request_text):
    assert calls(request_text, state(*WAITING), WAITING_TALK) == [
        ("delete_object", {"name": "plant"})
    ]


def test_only_three_chairs_of_four_removes_the_last_not_adds_three():
    made = calls("actually only 3 chairs", state(*CHAIRS), ["4 chairs in a row"])
    assert made == [("delete_object", {"name": "chair-4"})]


def test_just_six_chairs_of_four_adds_two_copies():
    made = calls("just 6 chairs", state(*CHAIRS), ["4 chairs in a row"])
    assert [tool for tool, _ in made] == ["duplicate_object", "duplicate_object"]


@pytest.mark.parametrize("request_text", ["swap their colours", "swap the colors of the tents"])
def test_two_things_trade_colours(request_text):
    made = calls(request_text, state(*TENTS), ["make the left one orange and the right one green"])
    assert made == [
        ("set_material", {"name": "tent-1", "color": "#28a03c"}),
        ("set_material", {"name": "tent-2", "color": "#f58c1e"}),
    ]


def test_swapping_two_things_without_saying_colours_still_swaps_places():
    made = calls("swap the tents", state(*TENTS), ["two tents side by side"])
    assert [tool for tool, _ in made] == ["move_object", "move_object"]


@pytest.mark.parametrize(
    "request_text", ["no, the other one", "nope the other speaker", "i meant the other one"]
)
def test_the_other_one_undoes_the_change_and_makes_it_on_the_other(request_text):
    scene = state(*SPEAKERS, revisions=TWO_RUNS)
    talk = ["a stool with 2 speakers either side of it", "make the left speaker red"]
    assert calls(request_text, scene, talk) == [
        ("revert_scene", {"revision": 1}),
        ("set_material", {"name": "speaker-2", "color": "#dc2828"}),
    ]


@pytest.mark.parametrize("request_text", ["another two like that", "two more like that"])
def test_more_like_that_copies_the_things_there_were_several_of(request_text):
    made = calls(request_text, state(SHELF, *BOTTLES), ["a shelf with 2 bottles on it"])
    assert [arguments["name"] for _, arguments in made] == ["bottle-2", "bottle-2"]


def test_another_one_copies_what_stood_on_the_box_not_the_box():
    made = calls("add another one", state(TOY_BOX, *TEDDIES[:3]), ["a toy box with 3 teddies"])
    assert made[0][1]["name"] == "teddy-bear-3"


@pytest.mark.parametrize(
    ("request_text", "mood"), [("make it night", "moonlight"), ("night time pls", "moonlight")]
)
def test_night_is_moonlight(request_text, mood):
    assert calls(request_text, state(*TENTS), ["two tents"]) == [("set_lighting", {"mood": mood})]


def test_a_sun_umbrella_is_a_thing_not_sunlight():
    plan = plan_edits("remove the sun umbrella", state(*WAITING), WAITING_TALK)
    assert plan.calls == []


def test_the_first_one_is_a_choice_not_a_misspelt_fir():
    made = calls("put a statue on the first one", state(*PLINTHS), ["three plinths in a row"])
    assert made == [
        ("add_described", {"description": "a statue", "relation": "on", "target": "plinth-1"})
    ]


def test_the_last_one_after_a_single_statue_is_the_last_of_the_row():
    talk = ["three plinths in a row", "put a statue on the first one"]
    made = calls("and a vase on the last one", state(*PLINTHS, STATUE), talk)
    assert made == [
        ("add_described", {"description": "a vase", "relation": "on", "target": "plinth-3"})
    ]


def test_the_new_one_is_the_one_just_added_not_another():
    talk = ["a plinth with a statue on it", "fine, a second plinth then, to the right"]
    made = calls("put a vase on the new one", state(*PLINTHS[:2]), talk)
    assert made == [
        ("add_described", {"description": "a vase", "relation": "on", "target": "plinth-2"})
    ]


def test_one_each_side_of_the_monitor_flanks_the_monitor_not_the_desk():
    made = calls(
        "add 2 speakers on the desk, one each side of the monitor",
        state(DESK, MONITOR),
        ["a desk with a monitor on it"],
    )
    assert [(a["relation"], a["target"]) for _, a in made] == [
        ("left_of", "monitor"),
        ("right_of", "monitor"),
    ]


@pytest.mark.parametrize(
    ("request_text", "revision"),
    [("go back two steps", 1), ("undo the last 2 changes", 1), ("undo", 2)],
)
def test_going_back_steps_counts_requests(request_text, revision):
    revisions = [
        {"number": 1, "run": 1},
        {"number": 2, "run": 2},
        {"number": 3, "run": 3},
        {"number": 4, "run": 3},
    ]
    made = calls(request_text, state(*TENTS, revisions=revisions), ["two tents"])
    assert made == [("revert_scene", {"revision": revision})]


def test_taller_then_a_length_sets_the_height_only():
    made = calls("make the middle plinth taller, 1.5m", state(*PLINTHS), ["three plinths"])
    assert made == [("resize_object", {"name": "plinth-2", "size": [0.6, 1.5, 0.6]})]


def test_navy_not_green_paints_navy():
    made = calls("actually navy not green", state(DESK, *ARMCHAIRS), ["make the armchairs green"])
    assert {arguments["color"] for _, arguments in made} == {"#19235a"}


def test_take_two_of_them_away_removes_two():
    talk = ["a toy box with three teddy bears on it", "add another one", "make them all pink"]
    made = calls("take two of them away", state(TOY_BOX, *TEDDIES), talk)
    assert made == [
        ("delete_object", {"name": "teddy-bear-3"}),
        ("delete_object", {"name": "teddy-bear-4"}),
    ]


def test_three_logs_around_the_fire_stand_a_third_of_a_turn_apart():
    tent = item("tent", "tent", [2, 1.3, 2], [0, 0, 0], material="fabric")
    fire = item("campfire", "campfire", [0.8, 0.35, 0.8], [0, 0, 2], material="stone")
    made = calls("put 3 logs around the fire", state(tent, fire), ["a tent and a campfire"])
    assert [(a.get("relation"), a.get("target")) for _, a in made[:3]] == [
        ("left_of", "campfire"),
        ("right_of", "campfire"),
        ("in_front_of", "campfire"),
    ]
    assert made[3:] == [
        ("move_object", {"name": "log", "by": [0.0, 0.0, -0.2]}),
        ("move_object", {"name": "log-2", "by": [0.0, 0.0, -0.2]}),
    ]


@pytest.mark.parametrize(
    "request_text", ["spotlight on the statue pls", "a spotlight on the statue"]
)
def test_a_spotlight_named_first_is_added(request_text):
    made = calls(request_text, state(*PLINTHS, STATUE), ["put a statue on the first one"])
    assert [tool for tool, _ in made] == ["add_light"]


def test_the_other_one_after_an_addition_adds_beside_the_other():
    scene = state(*SPEAKERS, revisions=TWO_RUNS)
    talk = ["a stool with 2 speakers either side of it", "put a plant next to the left speaker"]
    made = calls("no, the other one", scene, talk)
    assert made[0] == ("revert_scene", {"revision": 1})
    assert made[1][1]["target"] == "speaker-2"


def test_taking_a_thing_out_of_another_is_no_removal():
    basket = item("basket", "basket", [0.4, 0.25, 0.4], [0, 0, 0])
    apple = item("apple", "apple", [0.08, 0.08, 0.08], [0, 0.02, 0], material="plastic")
    made = calls("take the apple out of the basket", state(basket, apple), ["an apple in a basket"])
    assert "delete_object" not in [tool for tool, _ in made]
