"""The REST API: the full flow, per-user isolation, and clear 4xx errors for bad input."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken
from agents.models import Run
from tests.agents.helpers import TWO_SUMS, stage_artifact

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("offline_planner")]

API = "/api/v1"


def create_workspace(client, name="Scenes", kind="finance"):
    response = client.post(f"{API}/workspaces", {"name": name, "kind": kind}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def create_run(client, workspace_id, prompt=TWO_SUMS, **options):
    body = {"workspace": workspace_id, "prompt": prompt, "options": options}
    response = client.post(f"{API}/runs", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ids(page):
    return {item["id"] for item in page["results"]}


def all_events(client, run_id, *, after=0, limit=3):
    """Follow `next` from the first page until it is null; return (seqs, pages fetched)."""
    url, seqs, pages = f"{API}/runs/{run_id}/events?after={after}&limit={limit}", [], 0
    while url is not None:
        response = client.get(url)
        assert response.status_code == 200, response.content
        body = response.json()
        seqs += [event["seq"] for event in body["results"]]
        url, pages = body["next"], pages + 1
    return seqs, pages


def assert_client_error(response, *statuses):
    assert response.status_code in (statuses or range(400, 500)), response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json(), "the error body says what went wrong"


@pytest.fixture
def alice_run(alice_api, finish_run):
    """A finished run of alice's with one artifact: (workspace, run, artifact)."""
    workspace = create_workspace(alice_api)
    run = Run.objects.get(pk=create_run(alice_api, workspace["id"])["id"])
    artifact = stage_artifact(run, name="scene.json", content=b'{"cube": 1.5}')
    return workspace, finish_run(run), artifact


# --- the full flow -----------------------------------------------------------------------------


def test_workspaces_are_created_listed_and_shown(alice_api):
    created = create_workspace(alice_api, name="  Bridge models  ", kind="studio")

    assert created["name"] == "Bridge models" and created["kind"] == "studio"
    listed = alice_api.get(f"{API}/workspaces").json()
    assert ids(listed) == {created["id"]}
    detail = alice_api.get(f"{API}/workspaces/{created['id']}").json()
    assert detail == created


def test_a_run_is_created_listed_and_shown(alice_api, finish_run):
    workspace = create_workspace(alice_api)

    created = create_run(alice_api, workspace["id"], max_steps=20)

    assert created["status"] == "queued" and created["workspace"] == workspace["id"]
    assert created["budget"]["max_steps"] == 20
    assert ids(alice_api.get(f"{API}/runs").json()) == {created["id"]}
    finish_run(Run.objects.get(pk=created["id"]))
    detail = alice_api.get(f"{API}/runs/{created['id']}").json()
    assert detail["status"] == "succeeded"
    assert "395" in detail["message"] and "1024" in detail["message"]
    assert detail["events_url"] == f"{API}/runs/{created['id']}/events"


def test_creating_a_run_through_the_api_runs_it(alice_api, django_capture_on_commit_callbacks):
    workspace = create_workspace(alice_api)

    with django_capture_on_commit_callbacks(execute=True):
        created = create_run(alice_api, workspace["id"])

    detail = alice_api.get(f"{API}/runs/{created['id']}").json()
    assert detail["status"] == "succeeded" and "1024" in detail["message"]


def test_runs_can_be_listed_per_workspace(alice_api):
    first, second = create_workspace(alice_api), create_workspace(alice_api)
    run = create_run(alice_api, first["id"])
    create_run(alice_api, second["id"])

    assert ids(alice_api.get(f"{API}/runs?workspace={first['id']}").json()) == {run["id"]}


@pytest.mark.parametrize("value", ["abc", "", "-1", "1.5", "\u00b2", "9" * 30])
def test_a_bad_workspace_filter_is_refused(alice_api, value):
    response = alice_api.get(f"{API}/runs", {"workspace": value})

    assert_client_error(response, 400)
    assert "workspace" in response.json()


def test_events_page_after_a_seq_and_follow_next_until_the_end(alice_api, alice_run):
    _, run, _ = alice_run
    assert run.last_seq > 6

    seqs, pages = all_events(alice_api, run.pk, limit=3)

    assert seqs == list(range(1, run.last_seq + 1))
    assert pages == -(-run.last_seq // 3)
    later = alice_api.get(f"{API}/runs/{run.pk}/events?after=5").json()
    assert [event["seq"] for event in later["results"]] == list(range(6, run.last_seq + 1))
    assert later["next"] is None
    assert all_events(alice_api, run.pk, after=run.last_seq)[0] == []


def test_cancelling_a_run_returns_202_and_it_ends_cancelled(
    alice_api, django_capture_on_commit_callbacks
):
    run = create_run(alice_api, create_workspace(alice_api)["id"])

    with django_capture_on_commit_callbacks() as callbacks:
        response = alice_api.post(f"{API}/runs/{run['id']}/cancel")

    assert response.status_code == 202
    assert response.json()["status"] == "queued"  # the request only records the wish
    assert response.json()["cancel_requested"] is True
    for callback in callbacks:
        callback()  # the worker's cancel task
    assert alice_api.get(f"{API}/runs/{run['id']}").json()["status"] == "cancelled"
    events = alice_api.get(f"{API}/runs/{run['id']}/events").json()["results"]
    assert events[-1]["type"] == "run.finished"
    assert events[-1]["payload"]["status"] == "cancelled"


def test_artifacts_are_listed_and_downloaded(alice_api, alice_run):
    _, run, artifact = alice_run

    listed = alice_api.get(f"{API}/runs/{run.pk}/artifacts").json()

    assert [item["ref"] for item in listed] == [artifact.ref]
    assert listed[0]["name"] == "scene.json" and listed[0]["size"] == 13
    response = alice_api.get(listed[0]["download_url"])
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b'{"cube": 1.5}'
    assert response["Content-Type"] == "application/json"
    assert "scene.json" in response["Content-Disposition"]


# --- isolation ---------------------------------------------------------------------------------


def test_another_users_objects_are_not_found(alice_run, bob_api):
    workspace, run, artifact = alice_run
    base = f"{API}/runs/{run.pk}"
    urls = [
        f"{API}/workspaces/{workspace['id']}",
        base,
        f"{base}/events",
        f"{base}/artifacts",
        f"{base}/artifacts/{artifact.pk}/download",
    ]

    for url in urls:
        response = bob_api.get(url)
        assert response.status_code == 404, url
        assert "detail" in response.json(), url
    cancel = bob_api.post(f"{base}/cancel")
    assert cancel.status_code == 404 and "detail" in cancel.json()
    assert Run.objects.get(pk=run.pk).cancel_requested is False


def test_another_users_objects_never_appear_in_lists(alice_run, bob_api):
    mine = create_workspace(bob_api)
    create_run(bob_api, mine["id"])
    workspace, run, _ = alice_run

    assert ids(bob_api.get(f"{API}/workspaces").json()) == {mine["id"]}
    assert run.pk not in ids(bob_api.get(f"{API}/runs").json())
    assert bob_api.get(f"{API}/runs?workspace={workspace['id']}").json()["results"] == []


def test_a_run_cannot_be_started_in_another_users_workspace(alice_run, bob_api):
    workspace, _, _ = alice_run

    response = bob_api.post(
        f"{API}/runs", {"workspace": workspace["id"], "prompt": "2+2"}, format="json"
    )

    assert_client_error(response, 400)
    assert "workspace" in response.json()
    assert Run.objects.filter(workspace_id=workspace["id"]).count() == 1


def test_an_unknown_artifact_of_ones_own_run_is_not_found(alice_api, alice_run):
    _, run, artifact = alice_run

    response = alice_api.get(f"{API}/runs/{run.pk}/artifacts/{artifact.pk + 99}/download")

    assert response.status_code == 404 and "detail" in response.json()


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"kind": "studio"},
        {"name": "", "kind": "studio"},
        {"name": "   ", "kind": "studio"},
        {"name": "x" * 201, "kind": "studio"},
        {"name": "Scenes", "kind": "pottery"},
        {"name": "Scenes"},
    ],
)
def test_bad_workspaces_are_refused(alice_api, body):
    response = alice_api.post(f"{API}/workspaces", body, format="json")

    assert_client_error(response, 400)


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"prompt": ""}, "prompt"),
        ({"prompt": "   "}, "prompt"),
        ({"prompt": "1+1 " * 5001}, "prompt"),
        ({"options": {"colour": "red"}}, "options"),
        ({"options": {"planner": "no-such-planner"}}, "options"),
        ({"options": ["max_steps"]}, "options"),
        ({"options": "max_steps=3"}, "options"),
        ({"options": {"max_steps": 0}}, "options"),
        ({"options": {"max_steps": 501}}, "options"),
        ({"options": {"max_steps": "many"}}, "options"),
        ({"workspace": "abc"}, "workspace"),
        ({"workspace": 999999}, "workspace"),
    ],
)
def test_bad_runs_are_refused(alice_api, changes, field):
    body = {"workspace": create_workspace(alice_api)["id"], "prompt": TWO_SUMS, **changes}

    response = alice_api.post(f"{API}/runs", body, format="json")

    assert_client_error(response, 400)
    assert field in response.json()
    assert not Run.objects.exists()


@pytest.mark.parametrize("query", ["after=-1", "after=abc", "limit=0", "limit=501", "after=1e3"])
def test_bad_event_queries_are_refused(alice_api, alice_run, query):
    _, run, _ = alice_run

    assert_client_error(alice_api.get(f"{API}/runs/{run.pk}/events?{query}"), 400)


def test_a_request_without_credentials_is_refused():
    assert_client_error(APIClient().get(f"{API}/workspaces"), 401, 403)


def test_a_revoked_token_is_refused(alice_api):
    assert alice_api.get(f"{API}/workspaces").status_code == 200
    ApiToken.objects.update(revoked_at="2020-01-01T00:00:00Z")

    assert_client_error(alice_api.get(f"{API}/workspaces"), 401)


@pytest.mark.parametrize(
    "header",
    [
        "Bearer",
        "Bearer ",
        "Token aw_abc",
        "Basic dXNlcjpwYXNz",
        "Bearer not-a-token",
        "Bearer aw_" + "x" * 300,
        "Bearer aw_a aw_b",
        "aw_only",
    ],
)
def test_a_malformed_authorization_header_is_refused(alice, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    assert_client_error(client.get(f"{API}/workspaces"), 401, 403)


def test_an_unknown_api_path_is_a_json_404(alice_api):
    response = alice_api.get(f"{API}/nothing-here")

    assert response.status_code == 404 and response.json() == {"detail": "Not found."}


# --- schema and docs ---------------------------------------------------------------------------


def test_the_schema_describes_the_runs_endpoint(alice_api):
    response = alice_api.get("/api/schema/?format=json")

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert any(path.rstrip("/") == "/api/v1/runs" for path in schema["paths"])
    assert "post" in schema["paths"]["/api/v1/runs/"]
    schemes = schema["components"]["securitySchemes"]
    assert {"type": "http", "scheme": "bearer"}.items() <= schemes["bearerAuth"].items()
    assert {"bearerAuth": []} in schema["paths"]["/api/v1/runs/"]["post"]["security"]


def test_the_docs_page_uses_only_local_static_files(alice_api):
    response = alice_api.get("/api/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" in html.lower()
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert sources, "the page loads Swagger UI"
    assert not [source for source in sources if re.match(r"(https?:)?//", source)]
    for source in sources:
        assert source.startswith("/static/"), source
        assert alice_api.get(source).status_code == 200, source


def test_the_prompt_limit_is_one_number_in_the_schema_and_the_errors(alice_api):
    from agents.models import Workspace
    from agents.services.runs import MAX_PROMPT_CHARS, PROMPT_TOO_LONG, RunInputError, run_create

    schema = alice_api.get("/api/schema/?format=json").json()
    body = schema["paths"]["/api/v1/runs/"]["post"]["requestBody"]["content"]["application/json"]
    name = body["schema"]["$ref"].rsplit("/", 1)[-1]
    prompt = schema["components"]["schemas"][name]["properties"]["prompt"]
    assert prompt["maxLength"] == MAX_PROMPT_CHARS
    assert str(MAX_PROMPT_CHARS) in prompt["description"]
    assert f"the prompt is longer than {MAX_PROMPT_CHARS} characters" == PROMPT_TOO_LONG

    workspace_id = create_workspace(alice_api)["id"]
    too_long = "x" * (MAX_PROMPT_CHARS + 1)
    response = alice_api.post(
        f"{API}/runs", {"workspace": workspace_id, "prompt": too_long}, format="json"
    )
    assert_client_error(response, 400)
    assert response.json()["prompt"] == [PROMPT_TOO_LONG]
    with pytest.raises(RunInputError, match=f"^{PROMPT_TOO_LONG}$"):
        run_create(workspace=Workspace.objects.get(pk=workspace_id), prompt=too_long)
    assert not Run.objects.exists()
