"""A request whose task the broker does not take still succeeds, and the work still runs: the row
is marked never enqueued and the sweeper's next pass sends it again."""

from __future__ import annotations

import pytest

from agents.models import Run
from agents.services import queueing
from agents.services.sweeper import sweep_pass

pytestmark = pytest.mark.django_db
API = "/api/v1"


def test_a_run_whose_send_fails_is_accepted_and_sent_again_by_the_sweeper(
    alice_api, make_workspace, alice, broker, django_capture_on_commit_callbacks
):
    workspace = make_workspace(alice, kind="finance")
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_api.post(
            f"{API}/runs", {"workspace": workspace.pk, "prompt": "what is 2+2"}, format="json"
        )

    assert response.status_code == 201, response.content  # accepted, not a 500
    run = Run.objects.get(pk=response.json()["id"])
    assert run.status == "queued" and run.enqueued_at is None  # marked: never sent
    assert broker.sent == []

    with django_capture_on_commit_callbacks(execute=True):
        rescued = sweep_pass()

    assert rescued["runs"] == [run.pk]
    assert broker.sent == [("agents.advance_run", (run.pk,))]
    run.refresh_from_db()
    assert run.enqueued_at is not None


def test_a_send_that_succeeds_is_not_sent_again(
    alice, make_workspace, broker, django_capture_on_commit_callbacks
):
    from agents.services.runs import run_create

    broker.failures = 0
    workspace = make_workspace(alice, kind="finance")
    with django_capture_on_commit_callbacks(execute=True):
        run = run_create(workspace=workspace, prompt="what is 2+2")
    assert broker.sent == [("agents.advance_run", (run.pk,))]
    assert sweep_pass()["runs"] == []  # enqueued just now: its message is waiting, not lost


def test_only_one_sweeper_works_at_a_time(broker):
    assert sweep_pass() != {}
    assert sweep_pass() == {}  # the lock is held for AGENT_SWEEP_SECONDS


def test_eager_tasks_resolve_their_names_from_many_threads_at_once(monkeypatch):
    """The first tasks of a process, sent from several request threads at once, all find their
    task (the lazy discovery they replaced raced: NotRegistered)."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setattr(queueing, "_tasks_ready", False)
    with ThreadPoolExecutor(max_workers=8) as pool:
        tasks = list(
            pool.map(
                queueing._eager_task, ["agents.cancel_run"] * 8 + ["finance.ingest_document"] * 8
            )
        )
    assert {task.name for task in tasks} == {"agents.cancel_run", "finance.ingest_document"}
