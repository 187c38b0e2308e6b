"""A workspace's own model server gets the workspace's key or none, never the global
MODEL_API_KEY; the key is write-only (no API response or admin page shows it)."""

from __future__ import annotations

import pytest

from agents.services.runs import run_create

pytestmark = pytest.mark.django_db

GLOBAL_KEY = "global-model-key-never-for-workspaces"
OWN_KEY = "workspace-own-model-key-42"


@pytest.fixture
def own_server(alice, make_workspace, fake_openai, settings):
    """A workspace pointed at its own (fake) model server, with the global key set elsewhere."""
    settings.MODEL_BASE_URL = "http://global-model.invalid/v1"
    settings.MODEL_NAME = "global-model"
    settings.MODEL_API_KEY = GLOBAL_KEY
    workspace = make_workspace(alice)
    workspace.model_base_url, workspace.model_name = fake_openai.base_url, fake_openai.model
    workspace.save()
    return workspace


def authorization_sent(workspace, fake_openai, finish_run) -> str:
    from tests.fakes.openai_server import Reply

    fake_openai.script(Reply.say("2+2 = 4"))
    run = finish_run(
        run_create(workspace=workspace, prompt="what is 2+2", options={"planner": "model"})
    )
    assert run.status == "succeeded", run.message
    return str(fake_openai.chat_requests[0].headers.get("authorization"))


def test_a_workspace_server_without_a_key_of_its_own_gets_none(own_server, fake_openai, finish_run):
    sent = authorization_sent(own_server, fake_openai, finish_run)
    assert GLOBAL_KEY not in sent
    assert sent == "Bearer EMPTY"


def test_a_workspace_server_gets_the_workspace_key(own_server, fake_openai, finish_run):
    own_server.model_api_key = OWN_KEY
    own_server.save()
    assert authorization_sent(own_server, fake_openai, finish_run) == f"Bearer {OWN_KEY}"


def test_the_global_server_gets_the_global_key(alice, make_workspace, fake_openai, settings):
    from agents.model_settings import model_config

    settings.MODEL_BASE_URL, settings.MODEL_NAME = fake_openai.base_url, fake_openai.model
    settings.MODEL_API_KEY = GLOBAL_KEY
    config = model_config(make_workspace(alice))
    assert config is not None and config.api_key == GLOBAL_KEY


def test_the_key_is_never_shown_back(alice, alice_api, own_server, django_user_model, client):
    own_server.model_api_key = OWN_KEY
    own_server.save()

    listed = alice_api.get("/api/v1/workspaces/").content.decode()
    detail = alice_api.get(f"/api/v1/workspaces/{own_server.pk}/").content.decode()
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    client.force_login(admin)
    page = client.get(f"/admin/agents/workspace/{own_server.pk}/change/")
    changelist = client.get("/admin/agents/workspace/")

    assert page.status_code == 200 and changelist.status_code == 200
    assert own_server.name in detail
    for shown in (listed, detail, page.content.decode(), changelist.content.decode()):
        assert OWN_KEY not in shown


def test_saving_the_admin_form_blank_keeps_the_key(own_server, django_user_model, client):
    own_server.model_api_key = OWN_KEY
    own_server.save()
    admin = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    client.force_login(admin)
    form = {
        "owner": own_server.owner_id,
        "name": "Renamed",
        "kind": own_server.kind,
        "model_base_url": own_server.model_base_url,
        "model_name": own_server.model_name,
        "model_api_key": "",
    }

    response = client.post(f"/admin/agents/workspace/{own_server.pk}/change/", form)

    assert response.status_code == 302, response.content.decode()[:2000]
    own_server.refresh_from_db()
    assert (own_server.name, own_server.model_api_key) == ("Renamed", OWN_KEY)
