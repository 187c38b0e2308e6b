"""The studio kind's QC solvers: the reference scene rebuilt with the primitive tools (gold), and
one wrong scene for each kind of check the task has."""

from __future__ import annotations

import json
from typing import Any

from agents.evaluation.spec import Check
from studio.evaluation.qc import replay, wrong_scenes

REFERENCE: dict[str, Any] = {
    "objects": [
        {
            "name": "ball",
            "shape": {"kind": "sphere", "params": {"radius": 0.15}},
            "transform": {"translation": [0, 0.9, 0], "rotation": [0, 0, 0], "scale": [1, 1, 1]},
            "material": {"name": "rubber red", "base_color": [0.8, 0.05, 0.05], "roughness": 0.9},
            "physics": {"dynamic": True, "mass": None, "collision": "convex"},
            "category": "ball",
            "size_stated": True,
        },
        {
            "name": "table",
            "shape": {"kind": "box", "params": {"size": [1.2, 0.75, 0.8]}},
            "transform": {"translation": [0, 0.375, 0], "scale": [1, 1, 2]},
            "material": {"name": "wood", "base_color": [0.4, 0.24, 0.12]},
        },
    ],
    "lights": [{"name": "sun", "kind": "directional", "position": [0, 5, 0], "target": [0, 0, 0]}],
    "camera": {"position": [3, 2, 3], "target": [0, 0.5, 0], "yfov_deg": 50},
}


def calls(solver) -> list[tuple[str, dict]]:
    """Every tool call the scripted solver makes, answering each with an empty tool result."""
    made, messages = [], [{"role": "user", "content": "a red ball on a wooden table"}]
    while True:
        reply = solver.replies(type("Request", (), {"messages": messages})())
        if not reply.calls:
            return made
        made.append((reply.calls[0].name, json.loads(reply.calls[0].raw)))
        messages.append({"role": "tool", "content": "{}"})


def test_the_gold_rebuilds_the_reference_with_primitive_tools_then_measures_it():
    made = calls(replay("gold", "gold", REFERENCE))

    assert [name for name, _ in made] == [
        "add_object",
        "add_object",
        "update_object",
        "add_light",
        "set_camera",
        "refine_round",
    ]
    ball = made[0][1]
    assert ball["size_stated"] is True and ball["material"]["color"] == [0.8, 0.05, 0.05]
    assert "preset" not in ball["material"]  # "rubber red" is no preset: its values are given
    assert "mass" not in ball["physics"]
    assert made[1][1]["material"]["preset"] == "wood"
    assert made[2][1] == {"name": "table", "scale": [1, 1, 2]}


def test_one_wrong_scene_for_each_kind_of_check():
    checks = (
        Check("object_count", {"name": "ball", "count": 1}),
        Check("object_count", {"name": "table", "count": 1}),  # the first of a kind only
        Check("size", {"name": "ball", "axis": "diameter", "value": 0.3}),
        Check("color", {"name": "ball", "color": "red"}),
        Check("material", {"name": "table", "like": "wood"}),
        Check("relation", {"relation": "on", "subject": "ball", "target": "table"}),
        Check("lights", {"temperature": "warm"}),  # no wrong scene written for lights yet
    )

    wrong = dict(wrong_scenes(REFERENCE, checks))

    assert list(wrong) == [
        "1 ball dropped",
        "ball half as large again",
        "ball in a far colour",
        "table of another material",
        "ball moved away from what it is on",
    ]
    assert [o["name"] for o in wrong["1 ball dropped"]["objects"]] == ["table"]
    grown = wrong["ball half as large again"]["objects"][0]["transform"]["scale"]
    assert grown == [1.5, 1.5, 1.5]
    far = wrong["ball in a far colour"]["objects"][0]["material"]["base_color"]
    assert far != [0.8, 0.05, 0.05] and far[0] < 0.5
    assert wrong["table of another material"]["objects"][1]["material"]["name"] == "metal"
    moved = wrong["ball moved away from what it is on"]["objects"][0]["transform"]["translation"]
    assert moved == [6.0, 0.9, 6.0]
    assert REFERENCE["objects"][0]["transform"]["translation"] == [0, 0.9, 0]  # not changed


def test_a_relation_among_the_subjects_scatters_them_instead_of_moving_them_together():
    books = [
        {"name": f"book-{n}", "shape": {"kind": "box", "params": {"size": [0.2, 0.04, 0.3]}},
         "transform": {"translation": [0, 0.02 + 0.04 * n, 0]}}
        for n in range(9)
    ]  # fmt: skip
    checks = (Check("relation", {"relation": "stacked", "subject": "book"}),)

    [(name, wrong)] = wrong_scenes({"objects": books}, checks)

    assert name == "the books scattered, no longer stacked"
    spots = {tuple(o["transform"]["translation"][::2]) for o in wrong["objects"]}
    assert len(spots) == 9  # no two still one above the other


def test_a_count_given_as_a_range_drops_below_its_minimum():
    books = [{"name": f"book-{n}", "shape": {"kind": "box", "params": {"size": [0.2] * 3}}}
             for n in range(5)]  # fmt: skip
    checks = (Check("object_count", {"name": "book", "min": 3, "max": 6}),)

    [(name, wrong)] = wrong_scenes({"objects": books}, checks)

    assert name == "3 book dropped" and len(wrong["objects"]) == 2  # "a few" no more
