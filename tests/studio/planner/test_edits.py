"""Follow-up requests become edits of the scene the run starts with (no database needed)."""

from __future__ import annotations

from typing import Any

import pytest

from studio.planner.edits import plan_edits
from studio.planner.references import resolve, scope_for


def item(name: str, category: str, size: list[float], at: list[float], **extra: Any) -> dict:
    return {
        "name": name,
        "category": category,
        "shape": extra.pop("shape", "box"),
        "size": size,
        "position": at,
        "material": extra.pop("material", "wood"),
        **extra,
    }


TABLE = item("table", "table", [1.2, 0.75, 0.7], [0, 0, 0], shape="boolean")
BALL = item("ball", "ball", [0.22, 0.22, 0.22], [0, 0.75, 0], shape="sphere", material="rubber")
CUBES = [
    item("cube-1", "cube", [0.5, 0.5, 0.5], [0, 0, 0]),
    item("cube-2", "cube", [0.5, 0.5, 0.5], [0, 0.5, 0]),
    item("cube-3", "cube", [0.5, 0.5, 0.5], [0, 1.0, 0]),
]
CHAIRS = [
    item("chair", "chair", [0.45, 0.9, 0.45], [-1, 0, 0]),
    item("chair-2", "chair", [0.45, 0.9, 0.45], [1, 0, 0]),
]


def state(*objects: dict, revisions: list | None = None, user_edits: list | None = None) -> dict:
    return {
        "revision": 2,
        "objects": [dict(o) for o in objects],
        "lights": [{"name": "key", "kind": "directional", "intensity": 3.0}],
        "revisions": revisions or [{"number": 1, "source": "round 1", "run": 1}],
        "user_edits": user_edits or [],
    }


def calls(request: str, scene: dict, previous: list[str] | None = None) -> list[tuple[str, dict]]:
    plan = plan_edits(request, scene, previous or [])
    assert plan.rebuild is None, f"{request!r} rebuilt the scene"
    return [(call.tool, call.arguments) for call in plan.calls]


# --- references ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("head", "modifiers", "expected"),
    [
        ("cube", ["top"], ["cube-3"]),
        ("cube", ["bottom"], ["cube-1"]),
        ("box", ["middle"], ["cube-2"]),
        ("cubes", ["all"], ["cube-1", "cube-2", "cube-3"]),
        ("cube-2", [], ["cube-2"]),
    ],
)
def test_references_pick_objects_by_place_kind_and_name(head, modifiers, expected):
    scope = scope_for(CUBES)
    assert resolve(scope, head, modifiers, plural=head.endswith("s")) == expected


def test_the_left_one_and_the_other_chair():
    scope = scope_for(CHAIRS, previous_requests=["make chair-2 red"])
    assert resolve(scope, "one", ["left"]) == ["chair"]
    assert resolve(scope, "chair", ["other"]) == ["chair"]
    assert resolve(scope, "it") == ["chair-2"]


def test_it_means_what_the_last_request_named_and_them_its_group():
    scope = scope_for([TABLE, *CUBES], previous_requests=["three cubes next to a table"])
    assert resolve(scope, "them") == ["cube-1", "cube-2", "cube-3"]
    scope = scope_for([TABLE, BALL], previous_requests=["a table", "put a red ball on it"])
    assert resolve(scope, "it") == ["ball"]


def test_the_chair_i_just_moved_is_the_latest_user_edit():
    edits = [{"revision": 3, "source": "edit: moved chair-2", "changed": ["chair-2"]}]
    plan = calls(
        "the chair I just moved - make it blue",
        state(*CHAIRS, user_edits=edits),
        ["two chairs"],
    )
    assert plan == [("set_material", {"name": "chair-2", "color": "#285adc"})]


# --- each kind of change ------------------------------------------------------------------


def test_size_changes_touch_only_the_named_object():
    scene = state(TABLE, BALL)
    assert calls("make the table 1 m tall", scene) == [
        ("resize_object", {"name": "table", "size": [1.2, 1.0, 0.7]})
    ]
    assert calls("make the ball twice as big", scene) == [
        ("resize_object", {"name": "ball", "size": [0.44, 0.44, 0.44]})
    ]
    assert calls("make the table 10 cm wider", scene) == [
        ("resize_object", {"name": "table", "size": [1.3, 0.75, 0.7]})
    ]
    [(tool, arguments)] = calls("a bit shorter", state(TABLE))
    assert tool == "resize_object" and 0.6 < arguments["size"][1] < 0.75


def test_colour_and_material():
    scene = state(TABLE, BALL)
    assert calls("make the ball blue", scene) == [
        ("set_material", {"name": "ball", "color": "#285adc"})
    ]
    assert calls("change the ball to gold", scene) == [
        ("set_material", {"name": "ball", "preset": "gold"})
    ]
    assert calls("nah, red", scene, ["make the ball blue"]) == [
        ("set_material", {"name": "ball", "color": "#dc2828"})
    ]


def test_position_and_rotation():
    scene = state(TABLE, BALL, *CHAIRS)
    assert calls("put the ball on the table", scene) == [
        ("place_object", {"name": "ball", "relation": "on", "target": "table"})
    ]
    assert calls("move the ball left of the table", scene) == [
        ("place_object", {"name": "ball", "relation": "left_of", "target": "table"})
    ]
    assert calls("turn the chair to face the table", scene, ["make chair-2 red"]) == [
        ("turn_object", {"name": "chair-2", "face": "table"})
    ]
    [(tool, arguments)] = calls("move chair-2 closer", scene)
    assert tool == "move_object" and arguments["name"] == "chair-2" and arguments["by"][0] < 0


def test_additions_relative_to_what_exists():
    scene = state(TABLE, BALL)
    assert calls("add a lamp on the table", scene) == [  # a lamp on furniture: the desk lamp
        ("add_described", {"description": "a desk lamp", "relation": "on", "target": "table"})
    ]
    assert calls("another one, blue, on top of it", state(CUBES[0]), ["a red cube"]) == [
        (
            "duplicate_object",
            {
                "name": "cube-1",
                "material": {"color": "#285adc"},
                "relation": "on",
                "target": "cube-1",
                "new_name": "cube-2",
            },
        )
    ]
    two_more = calls("two more chairs", state(*CHAIRS))
    assert [c[1]["new_name"] for c in two_more] == ["chair-3", "chair-4"]
    assert {c[0] for c in two_more} == {"duplicate_object"}


def test_a_restated_scene_adds_only_what_is_new():
    scene = state(TABLE, BALL)
    assert calls("a red ball on a table and a blue cube next to the table", scene) == [
        (
            "add_described",
            {"description": "a blue cube", "relation": "next_to", "target": "table"},
        )
    ]


def test_removal():
    scene = state(*CUBES, TABLE)
    assert calls("remove the top cube", scene) == [("delete_object", {"name": "cube-3"})]
    assert calls("delete the cubes", scene) == [
        ("delete_object", {"name": name}) for name in ("cube-1", "cube-2", "cube-3")
    ]
    assert calls("actually, no table", scene) == [("delete_object", {"name": "table"})]


def test_lighting():
    scene = state(TABLE)
    assert calls("make the lighting warmer", scene) == [("set_lighting", {"mood": "warm"})]
    assert calls("make it sunset", scene) == [("set_lighting", {"mood": "sunset"})]
    assert calls("brighter", scene) == [("scale_lights", {"factor": 1.5})]


def test_counts_and_stacks():
    crates = [item(f"crate-{n}", "crate", [0.5] * 3, [n * 0.8, 0, 0]) for n in (1, 2, 3)]
    five = calls("actually make it five", state(*crates), ["three crates"])
    assert [c[1]["new_name"] for c in five] == ["crate-4", "crate-5"]
    assert calls("stack them", state(*crates), ["three crates"]) == [
        ("place_object", {"name": "crate-2", "relation": "on", "target": "crate-1"}),
        ("place_object", {"name": "crate-3", "relation": "on", "target": "crate-2"}),
    ]


# --- undo, revert, start over, questions ---------------------------------------------------


def test_undo_goes_back_to_before_the_last_run():
    revisions = [
        {"number": 1, "source": "round 1", "run": 1},
        {"number": 2, "source": "round 1", "run": 2},
        {"number": 3, "source": "round 2", "run": 2},
    ]
    assert calls("undo that", state(TABLE, revisions=revisions)) == [
        ("revert_scene", {"revision": 1})
    ]
    assert calls("go back to revision 2", state(TABLE, revisions=revisions)) == [
        ("revert_scene", {"revision": 2})
    ]
    by_hand = [*revisions, {"number": 4, "source": "edit: moved table", "run": None}]
    assert calls("undo", state(TABLE, revisions=by_hand)) == [("revert_scene", {"revision": 3})]


@pytest.mark.parametrize(
    ("request_text", "rebuild"),
    [
        ("start over: a green cone", "a green cone"),
        ("new scene with two chairs", "two chairs"),
        ("instead build a sofa", "a sofa"),
        ("let's start from scratch with a red ball", "a red ball"),
    ],
)
def test_a_new_scene_only_when_asked(request_text, rebuild):
    assert plan_edits(request_text, state(TABLE), []).rebuild == rebuild


def test_start_over_with_nothing_named_clears_the_scene():
    plan = plan_edits("let's start from scratch", state(TABLE, BALL), [])
    assert plan.rebuild is None
    assert [(c.tool, c.arguments["name"]) for c in plan.calls] == [
        ("delete_object", "table"),
        ("delete_object", "ball"),
    ]


def test_edits_never_rebuild_and_never_touch_unmentioned_objects():
    scene = state(TABLE, BALL, *CHAIRS)
    for request in ("make the ball blue", "make the table taller", "remove chair-2"):
        touched = {arguments.get("name") for _, arguments in calls(request, scene)}
        assert len(touched) == 1, request


def test_a_question_is_answered_without_a_change():
    plan = plan_edits("how tall is it?", state(TABLE), ["a table"])
    assert plan.calls == [] and "0.75 m tall" in plan.answer


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("can you make the ball red?", [("set_material", {"name": "ball", "color": "#dc2828"})]),
        ("remove everything but the table", [("delete_object", {"name": "ball"})]),
        (
            "lower the table by 10 cm",
            [("resize_object", {"name": "table", "size": [1.2, 0.65, 0.7]})],
        ),
        (
            "make the table taller by 20 cm",
            [("resize_object", {"name": "table", "size": [1.2, 0.95, 0.7]})],
        ),
        ("dim the lights", [("scale_lights", {"factor": 0.6})]),
        (
            "swap the ball for a cube",
            [
                (
                    "add_described",
                    {"description": "a cube", "relation": "next_to", "target": "ball"},
                ),
                ("delete_object", {"name": "ball"}),
            ],
        ),
    ],
)
def test_more_ways_designers_say_it(request_text, expected):
    assert calls(request_text, state(TABLE, BALL)) == expected
