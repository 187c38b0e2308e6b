"""`manage.py check_model` and the workspace page tell a person whether the model server works."""

from __future__ import annotations

import socket

import pytest
from django.core.management import CommandError, call_command

from tests.fakes.openai_server import Reply


def check(fake_base_url: str, model: str) -> str:
    from io import StringIO

    out = StringIO()
    call_command("check_model", "--base-url", fake_base_url, "--model", model, stdout=out)
    return out.getvalue()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_working_server_reports_its_tool_call_and_speed(fake_openai):
    fake_openai.script(Reply.call("calculate", {"expression": "6 * 7"}))
    output = check(fake_openai.base_url, fake_openai.model)
    assert f"served: {fake_openai.model}" in output
    assert "time to first token:" in output and "tokens/s" in output
    assert "tool call ok: called calculate({'expression': '6 * 7'})" in output
    request = fake_openai.chat_requests[-1]
    assert request.streamed and request.tools[0]["function"]["name"] == "calculate"


@pytest.mark.parametrize(
    ("setup", "model", "expected"),
    [
        (
            lambda fake: None,
            "other-model",
            "model 'other-model' is not served (served: fake-model)",
        ),
        (lambda fake: setattr(fake, "models_failure", Reply.fail(401, "bad key")), None, "401"),
        (
            lambda fake: setattr(fake, "models_failure", Reply.fail(503, "loading")),
            None,
            "the model is probably still loading",
        ),
        (lambda fake: fake.script(Reply.say("It is 42.")), None, "answered without a tool call"),
        (
            lambda fake: fake.script(Reply.bad_request('"auto" tool choice requires flags')),
            None,
            "refused tool calling",
        ),
        (lambda fake: fake.script(Reply.call("calculate", "{6 * 7")), None, "not valid JSON"),
    ],
    ids=["model-not-found", "unauthorized", "loading", "no-tool-call", "tools-refused", "bad-json"],
)
def test_each_failure_is_explained(fake_openai, setup, model, expected):
    setup(fake_openai)
    with pytest.raises(CommandError) as failure:
        check(fake_openai.base_url, model or fake_openai.model)
    assert expected in str(failure.value)


def test_an_unreachable_server_is_named():
    url = f"http://127.0.0.1:{closed_port()}/v1"
    with pytest.raises(CommandError, match=f"cannot reach {url}"):
        check(url, "any")


def test_without_any_configuration_it_says_what_to_set(settings):
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
    with pytest.raises(CommandError, match="set MODEL_BASE_URL and MODEL_NAME"):
        call_command("check_model")


@pytest.mark.django_db
def test_the_workspace_page_shows_the_active_policy_and_its_health(
    client, alice, make_workspace, fake_openai, settings
):
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
    client.force_login(alice)
    offline = make_workspace(alice, name="Offline")
    healthy = make_workspace(alice, name="Served")
    healthy.model_base_url, healthy.model_name = fake_openai.base_url, fake_openai.model
    healthy.save()
    down = make_workspace(alice, name="Down")
    down.model_base_url, down.model_name = f"http://127.0.0.1:{closed_port()}/v1", "gone"
    down.save()

    def page(workspace):
        return client.get(f"/workspaces/{workspace.pk}/").content.decode()

    assert "Agent: <strong>Offline planner</strong>" in page(offline)
    served = page(healthy)
    assert f"{fake_openai.model} at {fake_openai.base_url}" in served and "healthy" in served
    assert "unavailable: cannot reach" in page(down)
