"""A lease holds through a long unit (a heartbeat renews it) and a lost lease stops the slice."""

from __future__ import annotations

import time

import pytest

from agents.models import Run
from agents.services import execution
from agents.services.execution import lease_acquire, run_advance
from agents.services.runs import run_create
from tests.agents.helpers import TWO_SUMS, seqs_of, types_of

# The heartbeat renews the lease from a thread of its own: the rows must be committed.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("offline_planner")]


@pytest.fixture
def short_lease(settings, monkeypatch):
    settings.AGENT_LEASE_SECONDS = 0.6  # renewed every 0.2 s
    # The test drives the slices itself: no task is sent when a run is created.
    monkeypatch.setattr("agents.services.runs.run_enqueue", lambda *, run_id: None)


def slow_steps(monkeypatch, during_step):
    """Make every unit slow: `during_step(run_id, unit)` runs inside it, before the real step."""
    original = execution.build_agent

    def build(run_row, log, lease_lost=None):
        agent = original(run_row, log, lease_lost)
        step, units = agent.step, []

        def slow(state):
            units.append(state)
            during_step(run_row.pk, len(units))
            return step(state)

        monkeypatch.setattr(agent, "step", slow)
        return agent

    monkeypatch.setattr(execution, "build_agent", build)


def test_a_unit_longer_than_the_lease_keeps_it(alice, make_workspace, short_lease, monkeypatch):
    run = run_create(workspace=make_workspace(alice), prompt=TWO_SUMS)
    intruders = []

    def wait_past_the_lease(run_id, unit):
        time.sleep(1.0)  # longer than the 0.6 s lease
        intruders.append(lease_acquire(run_id=run_id, owner=f"intruder-{unit}"))

    slow_steps(monkeypatch, wait_past_the_lease)
    result = run_advance(run_id=run.pk, owner="worker-a", max_units=2)

    assert result.status in {"continue", "finished"} and result.units == 2
    assert intruders == [False, False], "the heartbeat kept the lease while the unit ran"
    run.refresh_from_db()
    assert seqs_of(run) == list(range(1, run.last_seq + 1))
    assert types_of(run).count("run.started") == 1


def test_a_slice_whose_lease_was_taken_stops_and_writes_nothing(
    alice, make_workspace, short_lease, monkeypatch
):
    run = run_create(workspace=make_workspace(alice), prompt=TWO_SUMS)

    def taken_over_during_the_second_unit(run_id, unit):
        if unit == 2:
            Run.objects.filter(pk=run_id).update(lease_owner="worker-b#other")
            time.sleep(0.5)  # the heartbeat notices within 0.2 s

    slow_steps(monkeypatch, taken_over_during_the_second_unit)
    result = run_advance(run_id=run.pk, owner="worker-a", max_units=10)

    assert result.status == "lost" and result.units == 2
    run.refresh_from_db()
    assert types_of(run) == ["run.started", "model.message", "tool.call"]
    assert run.lease_owner == "worker-b#other"
