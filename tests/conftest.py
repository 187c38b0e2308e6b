"""Shared fixtures: two users who must never see each other's objects, API clients, factories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.fakes.fixtures"]

SHARED_DATA = Path(
    os.environ.get("SHARED_DATA", Path(__file__).resolve().parents[2] / "shared" / "data")
)


@pytest.fixture
def alice(django_user_model):
    return django_user_model.objects.create_user("alice", password="correct horse battery")


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password="another good secret")


def _client_for(user):
    from rest_framework.test import APIClient

    from accounts.services import api_token_create

    _, raw = api_token_create(user=user, name="tests")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    client.raw_token = raw
    return client


@pytest.fixture
def alice_api(alice):
    """An API client authenticated as alice with a real bearer token."""
    return _client_for(alice)


@pytest.fixture
def bob_api(bob):
    return _client_for(bob)


@pytest.fixture
def make_workspace():
    from agents.services.workspaces import workspace_create

    def make(owner, name="Workspace", kind="finance"):
        return workspace_create(owner=owner, name=name, kind=kind)

    return make


@pytest.fixture
def finish_run():
    """Advance a run slice by slice, as workers do, until it ends; return the fresh row."""
    from agents.models import Run
    from agents.services.execution import run_advance

    def finish(run, max_slices=200):
        for index in range(max_slices):
            result = run_advance(run_id=run.pk, owner=f"test-slice-{index}")
            if result.status == "finished":
                break
        return Run.objects.get(pk=run.pk)

    return finish
