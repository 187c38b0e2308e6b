"""Per-user quotas: runs at once and per hour (429), tokens per run and stored bytes (403), each
answered as JSON naming the quota, its limit and when it frees up; the evaluation harness's
users (who cannot sign in) are not bounded."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from agents.models import Run
from agents.services.quotas import QuotaExceeded
from agents.services.runs import run_create

pytestmark = pytest.mark.django_db
RUNS = "/api/v1/runs/"


@pytest.fixture
def workspace(alice: Any, make_workspace: Any) -> Any:
    return make_workspace(alice, kind="finance")


def start(client: Any, workspace: Any, **options: Any) -> Any:
    return client.post(
        RUNS, {"workspace": workspace.pk, "prompt": "hi", "options": options}, format="json"
    )


@override_settings(QUOTA_CONCURRENT_RUNS=1, QUOTA_RUNS_PER_HOUR=0)
def test_a_second_run_at_once_is_a_429_naming_the_quota(alice_api: Any, workspace: Any) -> None:
    assert start(alice_api, workspace).status_code == 201

    response = start(alice_api, workspace)

    assert response.status_code == 429
    body = response.json()
    assert body["quota"] == "concurrent_runs" and body["limit"] == 1
    assert "runs in progress" in body["detail"] and body["retry_after"] is None
    Run.objects.update(status=Run.Status.SUCCEEDED)  # the first one ends: there is room again
    assert start(alice_api, workspace).status_code == 201


@override_settings(QUOTA_CONCURRENT_RUNS=0, QUOTA_RUNS_PER_HOUR=2)
def test_runs_per_hour_say_when_the_next_one_is_allowed(alice_api: Any, workspace: Any) -> None:
    for _ in range(2):
        assert start(alice_api, workspace).status_code == 201

    response = start(alice_api, workspace)

    assert response.status_code == 429
    body = response.json()
    assert body["quota"] == "runs_per_hour" and body["limit"] == 2
    assert 3500 < body["retry_after"] <= 3601
    assert response["Retry-After"] == str(body["retry_after"])


@override_settings(QUOTA_TOKENS_PER_RUN=1000)
def test_tokens_per_run_cap_the_budget(alice_api: Any, workspace: Any) -> None:
    refused = start(alice_api, workspace, max_tokens=5000)
    assert refused.status_code == 403
    assert refused.json()["quota"] == "tokens_per_run" and refused.json()["limit"] == 1000

    created = start(alice_api, workspace)
    assert created.status_code == 201 and created.json()["budget"]["max_tokens"] == 1000


@override_settings(QUOTA_STORED_BYTES=100)
def test_an_upload_past_the_stored_bytes_quota_is_a_403(
    alice_api: Any, alice: Any, make_workspace: Any
) -> None:
    studio = make_workspace(alice, kind="studio")
    mesh = SimpleUploadedFile("box.stl", b"solid x\n" * 50)

    response = alice_api.post(
        f"/api/v1/studio/workspaces/{studio.pk}/meshes/", {"file": mesh}, format="multipart"
    )

    assert response.status_code == 403
    assert response.json()["quota"] == "stored_bytes" and response.json()["limit"] == 100


@override_settings(QUOTA_CONCURRENT_RUNS=1)
def test_the_workspace_page_says_why_a_run_was_refused(
    client: Any, alice: Any, workspace: Any
) -> None:
    client.force_login(alice)
    url = f"/workspaces/{workspace.pk}/"
    client.post(url, {"prompt": "first"})

    response = client.post(url, {"prompt": "second"})

    assert response.status_code == 429
    assert "runs in progress" in response.content.decode()


@override_settings(QUOTA_CONCURRENT_RUNS=1, QUOTA_RUNS_PER_HOUR=1)
def test_the_evaluation_harness_users_are_not_bounded(alice: Any, workspace: Any) -> None:
    alice.is_active = False  # as the harness makes its users: they cannot sign in
    alice.save()
    for _ in range(3):
        run_create(workspace=workspace, prompt="turn")
    assert Run.objects.filter(workspace=workspace).count() == 3


@override_settings(QUOTA_CONCURRENT_RUNS=1)
def test_staff_are_bounded_too(alice: Any, workspace: Any) -> None:
    alice.is_staff = True
    alice.save()
    run_create(workspace=workspace, prompt="one")
    with pytest.raises(QuotaExceeded):
        run_create(workspace=workspace, prompt="two")
