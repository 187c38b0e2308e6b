"""Follow-ups from the fourth hold-out suite (studio/evaluation/suite/holdout4.yaml) the planner
once misread: 'go back to the first version', 'now a bit to the left' with no verb, 'closer to the
wall' measured along the line between them, 'put a few jars on it', a light named for its source
('now cool moonlight instead'), and 'a small round table between them'."""

from __future__ import annotations

import pytest

from tests.studio.planner.test_edits import calls, item, state

WALL = item("wall", "wall", [3.0, 2.5, 0.2], [0, 0, -1])
ARMCHAIR = item("armchair", "armchair", [0.8, 0.9, 0.8], [0, 0, 1.5])
SHELF = item("shelf", "shelf", [0.8, 1.8, 0.3], [0, 0, 0])
LEFT = item("armchair-1", "armchair", [0.85, 0.85, 0.85], [-0.5, 0, 0])
RIGHT = item("armchair-2", "armchair", [0.85, 0.85, 0.85], [0.5, 0, 0])
HISTORY = [
    {"number": 1, "source": "build", "run": 1},
    {"number": 2, "source": "round 1", "run": 1},
    {"number": 3, "source": "round 1", "run": 2},
    {"number": 4, "source": "round 1", "run": 3},
]


@pytest.mark.parametrize(
    ("request_text", "revision"),
    [
        ("go back to the first version", 2),
        ("back to the original please", 2),
        ("go back to the second version", 3),
        ("undo", 3),
    ],
)
def test_the_first_version_is_what_the_first_request_left(request_text, revision):
    made = calls(request_text, state(WALL, revisions=HISTORY))
    assert made == [("revert_scene", {"revision": revision})]


@pytest.mark.parametrize(
    "request_text", ["now a bit to the left", "a little further left", "move it a bit to the left"]
)
def test_a_direction_alone_nudges_what_the_talk_is_about(request_text):
    previous = ["a wall and an armchair 2 m in front of it", "move the armchair closer to the wall"]
    made = calls(request_text, state(WALL, ARMCHAIR), previous)
    assert made == [("move_object", {"name": "armchair", "by": [-0.2, 0.0, 0.0]})]


def test_closer_halves_the_clear_gap_along_the_line_between_them():
    made = calls("move the armchair closer to the wall", state(WALL, ARMCHAIR), ["a wall"])
    # 2.5 m apart centre to centre, 0.1 + 0.4 m of that is the two halves: 2 m clear, half of it
    assert made == [("move_object", {"name": "armchair", "by": [0.0, 0.0, -1.0]})]


def test_further_from_moves_away_by_a_step():
    made = calls("move the armchair further from the wall", state(WALL, ARMCHAIR), ["a wall"])
    assert made[0][1]["by"][2] == pytest.approx(0.5)


def test_a_few_is_three():
    made = calls("put a few jars on it", state(SHELF), ["a shelf"])
    assert made == [
        ("add_described", {"description": "3 jar", "relation": "on", "target": "shelf"})
    ]


@pytest.mark.parametrize(
    ("request_text", "mood"),
    [("now cool moonlight instead", "cool"), ("moonlight please", "moonlight")],
)
def test_a_light_named_for_its_source_sets_the_mood(request_text, mood):
    made = calls(request_text, state(WALL, ARMCHAIR), ["a wall and an armchair"])
    assert made == [("set_lighting", {"mood": mood})]


def test_a_small_round_table_between_two_armchairs_that_touch():
    made = calls("put a small round table between them", state(LEFT, RIGHT), ["two armchairs"])
    assert made == [
        (
            "add_described",
            {"description": "a round table", "relation": "right_of", "target": "armchair-1"},
        ),
        ("place_object", {"name": "armchair-2", "relation": "right_of", "target": "round-table"}),
    ]


def test_a_candle_between_two_vases_with_room_moves_neither():
    vases = [
        item("vase-1", "vase", [0.2, 0.3, 0.2], [-0.4, 0.75, 0]),
        item("vase-2", "vase", [0.2, 0.3, 0.2], [0.4, 0.75, 0]),
    ]
    made = calls("put a candle between them", state(*vases), ["two vases on a table"])
    assert [tool for tool, _ in made] == ["add_described"]
