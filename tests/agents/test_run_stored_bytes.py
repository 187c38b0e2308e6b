"""What runs write counts against their owner's stored-bytes quota: a full account's run stops."""

from __future__ import annotations

from agents.models import Event, Run
from agents.services.execution import run_advance
from agents.services.runs import run_create
from tests.agents.helpers import stage_artifact

TWO_SUMS = "what is 17*23+4 and 2**10?"


def test_a_run_stops_at_its_next_slice_once_its_owner_is_out_of_space(
    alice, make_workspace, settings
):
    settings.QUOTA_STORED_BYTES = 1000
    workspace = make_workspace(alice)
    run = run_create(workspace=workspace, prompt=TWO_SUMS)
    assert run_advance(run_id=run.pk, owner="w0", max_units=1).status == "continue"
    stage_artifact(run, name="render.png", content=b"x" * 1500)  # what the run wrote meanwhile

    assert run_advance(run_id=run.pk, owner="w1", max_units=10).status == "finished"

    run.refresh_from_db()
    assert run.status == Run.Status.FAILED
    assert (run.result or {})["reason"] == "quota"
    assert "1.4 MB" not in run.message and "delete documents" in run.message
    assert Event.objects.filter(run=run, type="run.failed").count() == 1


def test_a_run_within_its_space_is_not_stopped(alice, make_workspace, finish_run, settings):
    settings.QUOTA_STORED_BYTES = 10**9
    run = finish_run(run_create(workspace=make_workspace(alice), prompt=TWO_SUMS))

    assert run.status == Run.Status.SUCCEEDED
