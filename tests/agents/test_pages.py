"""Pages: sign-up, the workspace list, a workspace's chat with its run timeline, cancelling."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

from agents.models import Run, Workspace
from agents.services.runs import run_create
from tests.agents.helpers import ONE_SUM, TWO_SUMS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_planner")]


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def workspace_url(workspace) -> str:
    return f"/workspaces/{workspace.pk}/"


@pytest.fixture
def alice_client(alice):
    return logged_in(alice)


@pytest.fixture
def alice_workspace(alice, make_workspace):
    return make_workspace(alice, name="Bridges")


def test_signing_up_creates_a_user_and_logs_in(django_user_model):
    client = Client()
    password = "a long enough passphrase"

    response = client.post(
        "/accounts/signup/", {"username": "dora", "password1": password, "password2": password}
    )

    assert response.status_code == 302 and response["Location"] == "/workspaces/"
    assert django_user_model.objects.filter(username="dora").exists()
    page = client.get("/workspaces/")
    assert page.status_code == 200 and "Log out (dora)" in page.content.decode()


def test_signing_up_with_mismatched_passwords_shows_an_error(django_user_model):
    response = Client().post(
        "/accounts/signup/",
        {"username": "dora", "password1": "a long passphrase", "password2": "another one"},
    )

    assert response.status_code == 200 and response.context["form"].errors
    assert not django_user_model.objects.filter(username="dora").exists()


def test_the_workspace_list_requires_login():
    response = Client().get("/workspaces/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/workspaces/"


def test_creating_a_workspace_redirects_to_its_page(alice, alice_client):
    response = alice_client.post("/workspaces/", {"name": "Bridges", "kind": "studio"})

    workspace = Workspace.objects.get(owner=alice)
    assert response.status_code == 302 and response["Location"] == workspace_url(workspace)
    assert workspace.name == "Bridges" and workspace.kind == "studio"
    assert "Bridges" in alice_client.get("/workspaces/").content.decode()


def test_a_workspace_with_a_bad_kind_is_refused(alice_client):
    response = alice_client.post("/workspaces/", {"name": "Bridges", "kind": "pottery"})

    assert response.status_code == 200 and "kind" in response.context["form"].errors
    assert not Workspace.objects.exists()


def test_asking_on_the_workspace_page_starts_a_run_and_shows_its_timeline(
    alice_client, alice_workspace, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(workspace_url(alice_workspace), {"prompt": TWO_SUMS})

    run = Run.objects.get(workspace=alice_workspace)
    assert response.status_code == 302
    assert response["Location"] == f"{workspace_url(alice_workspace)}?run={run.pk}"
    assert run.status == Run.Status.SUCCEEDED and "1024" in run.message
    page = alice_client.get(response["Location"]).content.decode()
    assert re.search(rf'id="run" data-run-id="{run.pk}" data-status="succeeded"', page)
    assert 'id="timeline"' in page and "js/timeline.js" in page


@pytest.mark.parametrize("value", ["abc", "\u00b2", "9" * 30])
def test_a_bad_run_in_the_address_shows_the_page_without_a_run(
    alice_client, alice_workspace, value
):
    response = alice_client.get(workspace_url(alice_workspace), {"run": value})

    assert response.status_code == 200 and "data-run-id" not in response.content.decode()


def test_an_empty_prompt_shows_a_form_error(alice_client, alice_workspace):
    for prompt in ("", "   "):
        response = alice_client.post(workspace_url(alice_workspace), {"prompt": prompt})

        assert response.status_code == 200
        assert response.context["form"].errors["prompt"] == ["This field is required."]
    assert not Run.objects.exists()


def sent_by_script(client: Client, workspace, prompt: str):
    """The chat form as the page's script sends it: the same fields, asking for JSON."""
    return client.post(workspace_url(workspace), {"prompt": prompt}, HTTP_ACCEPT="application/json")


def test_a_prompt_sent_by_the_page_script_returns_the_new_runs_panel(alice_client, alice_workspace):
    earlier = run_create(workspace=alice_workspace, prompt=ONE_SUM)

    response = sent_by_script(alice_client, alice_workspace, TWO_SUMS)

    run = Run.objects.exclude(pk=earlier.pk).get()
    assert response.status_code == 201 and run.prompt == TWO_SUMS
    body = response.json()
    assert body["run"] == run.pk and body["url"] == f"{workspace_url(alice_workspace)}?run={run.pk}"
    assert re.search(rf'id="run" data-run-id="{run.pk}" data-status="queued"', body["run_html"])
    assert 'id="timeline"' in body["run_html"] and "csrfmiddlewaretoken" in body["run_html"]
    listed = re.findall(r'<li class="(current)?">\s*<a href="\?run=(\d+)"', body["runs_html"])
    assert listed == [("current", str(run.pk)), ("", str(earlier.pk))]  # newest first, selected


@pytest.mark.parametrize(
    ("prompt", "message"),
    [
        ("   ", "This field is required."),
        ("x" * 20_001, "Ensure this value has at most 20000 characters (it has 20001)."),
    ],
)
def test_a_refused_prompt_sent_by_the_page_script_says_why_in_json(
    alice_client, alice_workspace, prompt, message
):
    response = sent_by_script(alice_client, alice_workspace, prompt)

    assert response.status_code == 400
    assert response.json() == {"errors": {"prompt": [message]}}
    assert not Run.objects.exists()


@override_settings(QUOTA_CONCURRENT_RUNS=1, QUOTA_RUNS_PER_HOUR=0)
def test_a_quota_refusal_sent_by_the_page_script_keeps_its_status(alice_client, alice_workspace):
    run_create(workspace=alice_workspace, prompt=ONE_SUM)  # queued: the one run allowed at once

    response = sent_by_script(alice_client, alice_workspace, TWO_SUMS)

    assert response.status_code == 429
    assert "runs in progress" in response.json()["errors"]["__all__"][0]
    assert Run.objects.count() == 1


def test_pages_link_the_icon_and_favicon_ico_leads_to_it(alice_client, alice_workspace):
    page = alice_client.get(workspace_url(alice_workspace)).content.decode()
    linked = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)

    response = Client().get("/favicon.ico")  # browsers ask without logging in

    assert linked and response.status_code == 301 and response["Location"] == linked.group(1)
    icon = Client().get(linked.group(1))
    assert icon.status_code == 200 and icon["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in b"".join(icon.streaming_content)


def test_the_owner_can_cancel_a_run_from_its_page(
    alice_client, alice_workspace, django_capture_on_commit_callbacks
):
    run = run_create(workspace=alice_workspace, prompt=TWO_SUMS)

    with django_capture_on_commit_callbacks(execute=True):
        response = alice_client.post(f"/runs/{run.pk}/cancel/")

    assert response["Location"] == f"{workspace_url(alice_workspace)}?run={run.pk}"
    run.refresh_from_db()
    assert run.status == Run.Status.CANCELLED


def test_another_users_workspace_and_runs_are_not_found(alice_workspace, bob, make_workspace):
    run = run_create(workspace=alice_workspace, prompt=TWO_SUMS)
    bob_client = logged_in(bob)

    assert bob_client.get(workspace_url(alice_workspace)).status_code == 404
    assert bob_client.post(workspace_url(alice_workspace), {"prompt": ONE_SUM}).status_code == 404
    assert bob_client.post(f"/runs/{run.pk}/cancel/").status_code == 404
    run.refresh_from_db()
    assert run.status == Run.Status.QUEUED and not run.cancel_requested
    assert Run.objects.count() == 1

    own = make_workspace(bob, name="Bob's")
    page = bob_client.get(f"{workspace_url(own)}?run={run.pk}").content.decode()
    assert "data-run-id" not in page and TWO_SUMS not in page
    assert "Bridges" not in bob_client.get("/workspaces/").content.decode()
