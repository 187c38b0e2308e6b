"""Suite files: every mistake in one is named with its file and task."""

from __future__ import annotations

import pytest

from agents.evaluation import SuiteError, load_suite


def _suite(tmp_path, text, name="tasks.yaml"):
    (tmp_path / name).write_text(text)
    return load_suite("s", "studio", tmp_path)


def test_a_prompt_task_becomes_one_turn_with_defaults_applied(tmp_path):
    suite = _suite(
        tmp_path,
        "defaults: {options: {rounds: 2}, tags: [single]}\n"
        "tasks:\n- {id: a, prompt: a cube, known_failure: not yet, verify: [{check: c, n: 1}]}\n",
    )
    (task,) = suite.tasks
    assert task.options == {"rounds": 2} and task.tags == ("single",)
    assert task.turns[0].prompt == "a cube" and task.turns[0].checks[0].params == {"n": 1}
    assert task.known_failure == "not yet"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tasks: [{prompt: x}]", "every task needs an 'id'"),
        ("tasks: [{id: a}]", "a task needs a 'prompt' or 'turns'"),
        ("tasks: [{id: a, prompt: x, turns: [{prompt: y}]}]", "not both"),
        ("tasks: [{id: a, turns: []}]", "'turns' must be a non-empty list"),
        ("tasks: [{id: a, prompt: x}, {id: a, prompt: y}]", "'a' appears twice"),
        ("tasks: [{id: a, prompt: x, verify: [{check: c, weight: 0}]}]", "positive weight"),
        ("tasks: [{id: a, prompt: x, expect_status: maybe}]", "expect_status must be one of"),
        ("tasks: {id: a}", "expected a 'tasks' list"),
        ("tasks: [", "tasks.yaml"),
    ],
)
def test_mistakes_are_named(tmp_path, text, message):
    with pytest.raises(SuiteError, match=message):
        _suite(tmp_path, text)


def test_selection_by_glob_tag_and_quick(tmp_path):
    suite = _suite(
        tmp_path,
        "tasks:\n- {id: ball-1, prompt: x, quick: true, tags: [units]}\n"
        "- {id: cube-1, prompt: y}\n",
    )
    assert [t.id for t in suite.select("ball-*")] == ["ball-1"]
    assert [t.id for t in suite.select("tag:units")] == ["ball-1"]
    assert [t.id for t in suite.select(quick=True)] == ["ball-1"]
    assert [t.id for t in suite.select("cube,ball")] == ["ball-1", "cube-1"]


def test_a_lazy_hook_imports_its_module_only_when_called():
    import sys

    from agents.evaluation.kinds import lazy

    sys.modules.pop("colorsys", None)
    to_hls = lazy("colorsys:rgb_to_hls")
    assert "colorsys" not in sys.modules
    assert to_hls(1.0, 0.0, 0.0) == (0.0, 0.5, 1.0)
    assert "colorsys" in sys.modules
