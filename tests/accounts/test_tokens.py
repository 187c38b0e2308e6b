"""Personal API tokens: printed once by a command or the account page, stored hashed, revocable."""

from __future__ import annotations

import hashlib
import io
import re

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

WORKSPACES = "/api/v1/workspaces"


def api_status(raw_token: str) -> int:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw_token}")
    return client.get(WORKSPACES).status_code


def create_token_command(*args: str) -> str:
    out = io.StringIO()
    call_command("create_api_token", *args, stdout=out)
    return out.getvalue().strip()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def create_token_on_account_page(client: Client, name: str) -> str:
    response = client.post("/accounts/", {"name": name})
    assert response.status_code == 200
    match = re.search(r'<code id="new-token">([^<]+)</code>', response.content.decode())
    assert match, "the new token is shown"
    return match.group(1)


# --- the command -------------------------------------------------------------------------------


def test_the_command_creates_a_user_and_prints_a_working_token(django_user_model):
    raw = create_token_command("carol", "--create-user")

    assert raw.startswith("aw_") and "\n" not in raw
    carol = django_user_model.objects.get(username="carol")
    assert not carol.has_usable_password()
    assert api_status(raw) == 200


def test_the_command_gives_an_existing_user_another_token(alice, alice_api):
    raw = create_token_command("alice", "--name", "laptop")

    assert api_status(raw) == 200
    assert set(alice.api_tokens.values_list("name", flat=True)) == {"tests", "laptop"}


def test_the_command_refuses_an_unknown_user_without_create_user(django_user_model):
    with pytest.raises(CommandError, match=r"No user 'dave'.*--create-user"):
        create_token_command("dave")

    assert not django_user_model.objects.filter(username="dave").exists()
    assert not ApiToken.objects.exists()


def test_only_a_digest_of_the_token_is_stored():
    raw = create_token_command("carol", "--create-user")

    token = ApiToken.objects.get()
    assert token.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert raw.startswith(token.prefix) and len(token.prefix) < len(raw)
    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert raw not in dump.getvalue()


# --- the account page --------------------------------------------------------------------------


def test_the_account_page_requires_login():
    response = Client().get("/accounts/")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_account_page_lists_tokens_and_shows_a_new_one_once(alice, alice_api):
    client = logged_in(alice)
    listed = client.get("/accounts/").content.decode()
    assert "<td>tests</td>" in listed and ApiToken.objects.get().prefix in listed

    raw = create_token_on_account_page(client, "laptop")

    assert api_status(raw) == 200
    page = client.get("/accounts/").content.decode()
    assert "<td>laptop</td>" in page and raw[:10] in page
    assert raw not in page, "the whole token is shown only once"


def test_a_revoked_token_no_longer_works(alice):
    client = logged_in(alice)
    raw = create_token_on_account_page(client, "laptop")
    token = ApiToken.objects.get(name="laptop")

    response = client.post(f"/accounts/tokens/{token.pk}/revoke/", follow=True)

    assert response.status_code == 200 and "Token revoked." in response.content.decode()
    assert api_status(raw) == 401
    token.refresh_from_db()
    assert not token.is_active


def test_another_user_cannot_revoke_a_token(alice, alice_api, bob):
    token = ApiToken.objects.get(user=alice)

    response = logged_in(bob).post(f"/accounts/tokens/{token.pk}/revoke/", follow=True)

    assert "No such active token." in response.content.decode()
    token.refresh_from_db()
    assert token.is_active
    assert alice_api.get(WORKSPACES).status_code == 200


def test_revoking_needs_a_post(alice, alice_api):
    token = ApiToken.objects.get(user=alice)

    response = logged_in(alice).get(f"/accounts/tokens/{token.pk}/revoke/")

    assert response.status_code == 405
    token.refresh_from_db()
    assert token.is_active
