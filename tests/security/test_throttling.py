"""Rate limits: the API answers 429 JSON past a caller's rate; the HTML login form and API token
creation answer 429 with a message a person can read, without trying the password."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.throttling import SimpleRateThrottle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def test_the_api_answers_429_json_past_the_user_rate(alice_api: Any, monkeypatch: Any) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "user", "2/minute")
    for _ in range(2):
        assert alice_api.get("/api/v1/workspaces/").status_code == 200

    response = alice_api.get("/api/v1/workspaces/")

    assert response.status_code == 429
    assert "throttled" in response.json()["detail"].lower()
    assert int(response["Retry-After"]) > 0


def test_starting_runs_has_its_own_rate(
    alice_api: Any, alice: Any, make_workspace: Any, monkeypatch: Any
) -> None:
    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "run_create", "1/minute")
    workspace = make_workspace(alice, kind="finance")
    body = {"workspace": workspace.pk, "prompt": "hi"}
    assert alice_api.post("/api/v1/runs/", body, format="json").status_code == 201

    assert alice_api.post("/api/v1/runs/", body, format="json").status_code == 429
    assert alice_api.get("/api/v1/runs/").status_code == 200  # reading is not limited by it


@override_settings(THROTTLE_LOGIN="2/minute")
def test_the_login_form_refuses_past_its_rate_even_the_right_password(
    client: Any, alice: Any
) -> None:
    for _ in range(2):
        wrong = client.post("/accounts/login/", {"username": "alice", "password": "nope"})
        assert wrong.status_code == 200

    response = client.post(
        "/accounts/login/", {"username": "alice", "password": "correct horse battery"}
    )

    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(THROTTLE_TOKEN_CREATE="1/hour")
def test_token_creation_is_limited(client: Any, alice: Any) -> None:
    client.force_login(alice)
    assert client.post("/accounts/", {"name": "one"}).status_code == 200

    response = client.post("/accounts/", {"name": "two"})

    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert alice.api_tokens.count() == 1


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return django_user_model.objects.create_superuser("root", password="staff secret 123")


@override_settings(THROTTLE_LOGIN="2/minute")
def test_the_admin_login_is_refused_past_the_login_rate(client: Any, staff: Any) -> None:
    for _ in range(2):
        wrong = client.post("/admin/login/", {"username": "root", "password": "nope"})
        assert wrong.status_code == 200

    response = client.post("/admin/login/", {"username": "root", "password": "staff secret 123"})

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert "Too many attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


@override_settings(THROTTLE_LOGIN="2/minute")
def test_both_login_forms_count_against_one_limit(client: Any, staff: Any) -> None:
    for _ in range(2):
        client.post("/accounts/login/", {"username": "root", "password": "nope"})

    response = client.post("/admin/login/", {"username": "root", "password": "staff secret 123"})

    assert response.status_code == 429


@override_settings(THROTTLE_LOGIN="2/minute")
def test_the_admin_login_still_logs_staff_in(client: Any, staff: Any) -> None:
    assert client.get("/admin/login/").status_code == 200
    response = client.post("/admin/login/", {"username": "root", "password": "staff secret 123"})

    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


@override_settings(THROTTLE_SIGNUP="2/hour")
def test_sign_up_is_limited_per_address(client: Any, django_user_model: Any) -> None:
    password = "a long enough passphrase 9"
    for name in ("one", "two"):
        body = {"username": name, "password1": password, "password2": password}
        assert client.post("/accounts/signup/", body).status_code == 302
        client.logout()

    body = {"username": "three", "password1": password, "password2": password}
    response = client.post("/accounts/signup/", body)

    assert response.status_code == 429
    assert "Too many attempts" in response.content.decode()
    assert not django_user_model.objects.filter(username="three").exists()
    other = client.post("/accounts/signup/", body, REMOTE_ADDR="10.0.0.2")
    assert other.status_code == 302  # another address has its own count
