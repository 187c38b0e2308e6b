"""One person's runs cannot hold every worker while another person's run waits: a slice of
theirs steps aside (sent again a moment later) only then; alone, a person uses every worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from agents.models import Run
from agents.services.fair_share import run_should_yield

pytestmark = pytest.mark.django_db


def a_run(workspace, *, held: bool = False) -> Run:
    lease = {"lease_owner": "task:x", "lease_expires_at": timezone.now() + timedelta(seconds=30)}
    return Run.objects.create(
        workspace=workspace, prompt="count to 9", status="running", **(lease if held else {})
    )


def test_a_persons_second_run_steps_aside_for_someone_waiting(
    alice, bob, make_workspace, broker, settings, django_capture_on_commit_callbacks
):
    from agents.tasks import advance_run

    settings.AGENT_SLICES_PER_USER = 1
    settings.AGENT_YIELD_SECONDS = 1.0
    broker.failures = 0
    mine = make_workspace(alice, kind="finance")
    a_run(mine, held=True)  # alice's first run holds a worker
    second = a_run(mine)
    a_run(make_workspace(bob, kind="finance"))  # bob's run waits for a worker

    with django_capture_on_commit_callbacks(execute=True):
        assert advance_run.run(second.pk) == "yielded"

    second.refresh_from_db()
    assert second.lease_owner == "" and second.slices == 0  # not begun: the worker moved on
    assert broker.sent == [("agents.advance_run", (second.pk,))]
    assert broker.countdowns == [1.0]


def test_alone_a_person_uses_every_worker(alice, make_workspace, broker, settings):
    settings.AGENT_SLICES_PER_USER = 1
    mine = make_workspace(alice, kind="finance")
    a_run(mine, held=True)
    second = a_run(mine)

    assert run_should_yield(run_id=second.pk) is False  # nobody else waits


def test_the_waiting_persons_run_goes_ahead(alice, bob, make_workspace, broker, settings):
    settings.AGENT_SLICES_PER_USER = 1
    a_run(make_workspace(alice, kind="finance"), held=True)
    theirs = a_run(make_workspace(bob, kind="finance"))

    assert run_should_yield(run_id=theirs.pk) is False  # bob holds no worker yet


def test_no_limit_means_no_turns(alice, bob, make_workspace, broker, settings):
    settings.AGENT_SLICES_PER_USER = 0
    mine = make_workspace(alice, kind="finance")
    a_run(mine, held=True)
    second = a_run(mine)
    a_run(make_workspace(bob, kind="finance"))

    assert run_should_yield(run_id=second.pk) is False
