"""Thumbs up or down on a finished run, over the API and from the workspace page."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from agents.models import RunFeedback
from agents.services.runs import run_create
from tests.agents.helpers import ONE_SUM

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_planner")]

API = "/api/v1"


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, name="Sums")


@pytest.fixture
def finished(workspace, finish_run):
    return finish_run(run_create(workspace=workspace, prompt=ONE_SUM))


def feedback_url(run) -> str:
    return f"{API}/runs/{run.pk}/feedback"


def test_no_feedback_yet_reads_as_no_rating(finished, alice_api):
    response = alice_api.get(feedback_url(finished))
    assert response.status_code == 200
    assert response.json() == {
        "run": finished.pk,
        "rating": None,
        "comment": "",
        "updated_at": None,
    }


def test_thumbs_up_then_down_updates_the_one_feedback(finished, alice_api):
    first = alice_api.post(feedback_url(finished), {"rating": "up"}, format="json")
    assert first.status_code == 201
    assert first.json()["rating"] == 1

    second = alice_api.post(
        feedback_url(finished), {"rating": -1, "comment": " off by one "}, format="json"
    )

    assert second.status_code == 200
    assert (second.json()["rating"], second.json()["comment"]) == (-1, "off by one")
    assert RunFeedback.objects.filter(run=finished).count() == 1
    stored = alice_api.get(feedback_url(finished)).json()
    assert (stored["rating"], stored["comment"]) == (-1, "off by one")
    reward = alice_api.get(f"{API}/runs/{finished.pk}/trajectory").json()["reward"]
    assert reward["user"] == -1.0
    assert reward["feedback"] == [{"rating": -1, "comment": "off by one"}]


@pytest.mark.parametrize("rating", ["meh", 2, 0, True, None, 1.5, ["up"]])
def test_a_bad_rating_is_refused(finished, alice_api, rating):
    response = alice_api.post(feedback_url(finished), {"rating": rating}, format="json")
    assert response.status_code == 400
    assert "rating" in response.json()
    assert not RunFeedback.objects.exists()


def test_a_missing_rating_or_an_overlong_comment_is_refused(finished, alice_api):
    assert alice_api.post(feedback_url(finished), {}, format="json").status_code == 400
    long = {"rating": 1, "comment": "x" * 2001}
    assert alice_api.post(feedback_url(finished), long, format="json").status_code == 400


def test_a_run_still_going_cannot_be_rated(workspace, alice_api):
    run = run_create(workspace=workspace, prompt=ONE_SUM)

    response = alice_api.post(feedback_url(run), {"rating": 1}, format="json")

    assert response.status_code == 409
    assert "queued" in response.json()["detail"]
    assert not RunFeedback.objects.exists()


def test_another_users_run_cannot_be_rated_or_read(finished, bob_api):
    assert bob_api.get(feedback_url(finished)).status_code == 404
    response = bob_api.post(feedback_url(finished), {"rating": 1}, format="json")
    assert response.status_code == 404
    assert not RunFeedback.objects.exists()


# --- the workspace page --------------------------------------------------------------------------


def page_of(client: Client, run) -> str:
    response = client.get(f"/workspaces/{run.workspace_id}/?run={run.pk}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_page_offers_thumbs_and_the_download_on_a_finished_run(finished, alice, client):
    client.force_login(alice)
    html = page_of(client, finished)

    box = re.search(r'<div id="run-feedback"[^>]*>', html).group(0)
    assert "hidden" not in box
    assert f'data-feedback-url="/api/v1/runs/{finished.pk}/feedback"' in box
    assert 'id="thumb-up"' in html and 'id="thumb-down"' in html
    assert f'href="/api/v1/runs/{finished.pk}/trajectory?format=jsonl"' in html
    assert "js/feedback.js" in html
    download = client.get(f"/api/v1/runs/{finished.pk}/trajectory?format=jsonl")
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")


def test_the_page_hides_feedback_while_the_run_is_active(workspace, alice, client):
    run = run_create(workspace=workspace, prompt=ONE_SUM)
    client.force_login(alice)

    box = re.search(r'<div id="run-feedback"[^>]*>', page_of(client, run)).group(0)

    assert "hidden" in box


def test_the_page_posts_feedback_with_its_session_and_csrf_token(finished, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    html = page_of(client, finished)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    url = feedback_url(finished)

    refused = client.post(url, {"rating": 1}, content_type="application/json")
    accepted = client.post(
        url, {"rating": 1}, content_type="application/json", HTTP_X_CSRFTOKEN=token
    )

    assert refused.status_code == 403
    assert accepted.status_code == 201
    assert RunFeedback.objects.get(run=finished, user=alice).rating == 1
