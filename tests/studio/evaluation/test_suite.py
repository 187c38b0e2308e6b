"""The studio suite as data: enough tasks of each shape, every check known with valid
parameters, known failures explained, floors recorded."""

from __future__ import annotations

import json

import pytest

from agents.evaluation.generic import GENERIC_VERIFIERS
from agents.evaluation.spec import load_suite
from agents.evaluation.suites import suite_problems
from studio.evaluation import SUITE
from studio.evaluation.verifiers import TABLE, parameter_problems


@pytest.fixture(scope="module")
def suite():
    return load_suite("studio", "studio", SUITE)


def test_at_least_sixty_single_requests_and_twenty_conversations(suite):
    single = [task for task in suite.tasks if len(task.turns) == 1]
    conversations = [task for task in suite.tasks if len(task.turns) > 1]
    assert len(single) >= 60
    assert len(conversations) >= 20
    assert all(2 <= len(task.turns) <= 6 for task in conversations)
    assert all("conversation" in task.tags for task in conversations)
    assert all("single" in task.tags for task in single)


def test_every_check_is_a_studio_verifier_with_valid_parameters(suite):
    problems = {
        f"{task.id}: {check.describe()}": found
        for task in suite.tasks
        for check in task.checks
        if check.name not in GENERIC_VERIFIERS
        and (found := parameter_problems(check.name, check.params))
    }
    assert problems == {}
    assert suite_problems(suite) == []
    used = {check.name for task in suite.tasks for check in task.checks}
    assert used <= set(TABLE) | set(GENERIC_VERIFIERS)


def test_every_task_checks_its_result_and_has_tags(suite):
    for task in suite.tasks:
        assert task.checks, task.id
        assert task.tags, task.id
        assert task.options.get("rounds") == 2, task.id


def test_known_failures_say_why_and_are_not_in_the_quick_subset(suite):
    known = [task for task in suite.tasks if task.known_failure]
    assert all(len(task.known_failure) > 20 for task in known)  # none today; each says why
    quick = suite.select(quick=True)
    assert 10 <= len(quick) <= 30  # the CI subset stays well under its two minutes
    assert not [task.id for task in quick if task.known_failure]
    assert any(len(task.turns) > 1 for task in quick)


def test_the_suite_covers_the_ways_designers_write(suite):
    tags = {tag for task in suite.tasks for tag in task.tags}
    assert {"terse", "chatty", "units", "imperial", "number-words", "typo", "correction"} <= tags
    assert {"relation", "stack", "lighting", "colour", "material", "identity"} <= tags


def test_floors_are_recorded(suite):
    floors = json.loads((SUITE / "floors.json").read_text())
    assert suite.floors == floors
    assert 0 < floors["full"] <= floors["quick"] <= 1
