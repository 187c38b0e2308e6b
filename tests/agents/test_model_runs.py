"""Runs with {"planner": "model"} end to end through the Django run path, against a fake server.

The fake model (`arithmetic_model`) does what the offline planner does: one `calculate` call per
expression in the prompt, then the results; so both planners go through the same loop, tools and
events, and can be compared event by event.
"""

from __future__ import annotations

import dataclasses
import itertools
import json

import pytest

from agents.models import Run
from agents.services import execution
from agents.services.execution import run_advance
from agents.services.runs import run_create
from tests.agents.helpers import TWO_SUMS, events_of, seqs_of, types_of
from tests.fakes.openai_server import FakeOpenAI, Faults, Reply, arithmetic_model

pytestmark = pytest.mark.django_db

API = "/api/v1"
SIX_SUMS = "what is 1+2, 3*4, 10-7, 2**5, 100//7 and 9%4"
SIX_RESULTS = ["1+2 = 3", "3*4 = 12", "10-7 = 3", "2**5 = 32", "100//7 = 14", "9%4 = 1"]


@pytest.fixture(autouse=True)
def no_default_model(settings):
    """Only the workspaces that point at the fake server have a model."""
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
    settings.MODEL_TOOL_MODE = "native"


@pytest.fixture(autouse=True)
def tiny_backoff(monkeypatch):
    """Model runs back off for milliseconds, not seconds (the settings have no knob for it)."""
    configured = execution.model_config

    def quick(workspace=None):
        config = configured(workspace)
        if config is None:
            return None
        return dataclasses.replace(config, backoff_base=0.001, backoff_max=0.01)

    monkeypatch.setattr(execution, "model_config", quick)


@pytest.fixture
def workspace(alice, make_workspace, fake_openai: FakeOpenAI):
    workspace = make_workspace(alice)
    workspace.model_base_url = fake_openai.base_url
    workspace.model_name = fake_openai.model
    workspace.save()
    return workspace


def canonical(value):
    return json.dumps(value, sort_keys=True)


def payloads(run, kind):
    return [event.payload for event in events_of(run) if event.type == kind]


def retry_messages(run):
    return [
        payload["message"]
        for payload in payloads(run, "run.status")
        if "model retrying" in payload.get("message", "")
    ]


def test_a_model_run_completes_a_multi_step_tool_conversation(workspace, fake_openai, finish_run):
    fake_openai.responder = arithmetic_model
    run = run_create(workspace=workspace, prompt=TWO_SUMS, options={"planner": "model"})

    run = finish_run(run)

    assert run.status == Run.Status.SUCCEEDED, run.message
    assert run.message == "Results:\n17*23+4 = 395\n2**10 = 1024"
    assert run.result["reason"] == "" and run.result["result"] == run.message
    seqs = seqs_of(run)
    assert seqs == list(range(1, len(seqs) + 1)) and run.last_seq == len(seqs)
    types = types_of(run)
    assert types[0] == "run.started" and types[-1] == "run.finished"
    assert payloads(run, "run.started")[0]["policy"] == f"model:{fake_openai.model}"
    assert [p["arguments"] for p in payloads(run, "tool.call")] == [
        {"expression": "17*23+4"},
        {"expression": "2**10"},
    ]
    assert [p["ok"] for p in payloads(run, "tool.result")] == [True, True]
    messages = payloads(run, "model.message")
    assert len(messages) == 3 and messages[-1]["final"] is True
    for message in messages:
        metrics = message["metrics"]
        assert metrics["model"] == fake_openai.model
        assert metrics["ttft_ms"] >= 0 and metrics["tokens_per_s"] > 0
        assert metrics["prompt_tokens"] > 0 and metrics["completion_tokens"] > 0
        assert "cached_tokens" in metrics
        assert message["usage"]["prompt_tokens"] == metrics["prompt_tokens"]
    assert messages[1]["metrics"]["cached_tokens"] > 0  # the second request shares the prefix
    # the model saw the kind's system prompt, the tools and every result
    requests = fake_openai.chat_requests
    assert len(requests) == 3
    assert (
        requests[0].messages[0]["role"] == "system"
        and "filings" in (requests[0].messages[0]["content"])
    )
    assert {tool["function"]["name"] for tool in requests[0].tools} >= {"calculate"}
    assert [m["role"] for m in requests[-1].messages].count("tool") == 2


def test_requests_keep_their_prefix_across_slices(workspace, fake_openai):
    """Slices of three units: some requests are built from messages made in memory, others from
    the checkpoint read back from the database (jsonb reorders keys); the bytes must not care."""
    fake_openai.responder = arithmetic_model
    run = run_create(workspace=workspace, prompt=SIX_SUMS, options={"planner": "model"})

    for index in range(100):
        if run_advance(run_id=run.pk, owner=f"slice-{index}", max_units=3).status == "finished":
            break

    run.refresh_from_db()
    assert run.status == Run.Status.SUCCEEDED
    requests = fake_openai.chat_requests
    assert len(requests) == 7
    for previous, current in itertools.pairwise(requests):
        count = len(previous.messages)
        assert canonical(current.messages[:count]) == canonical(previous.messages)
        assert canonical(current.tools) == canonical(previous.tools)
        # byte for byte: the raw request up to the end of the previous messages is repeated
        serialized = json.dumps(previous.messages, ensure_ascii=False, separators=(",", ":"))
        offset = previous.raw.find(serialized[:-1].encode())
        assert offset >= 0
        end = offset + len(serialized) - 1
        assert current.raw[:end] == previous.raw[:end]


def test_a_model_run_started_through_the_api_runs_eagerly(
    alice_api, workspace, fake_openai, django_capture_on_commit_callbacks
):
    fake_openai.responder = arithmetic_model
    body = {"workspace": workspace.pk, "prompt": SIX_SUMS, "options": {"planner": "model"}}

    with django_capture_on_commit_callbacks(execute=True):
        response = alice_api.post(f"{API}/runs", body, format="json")

    assert response.status_code == 201, response.content
    detail = alice_api.get(f"{API}/runs/{response.json()['id']}").json()
    assert detail["status"] == "succeeded", detail
    assert detail["message"] == "Results:\n" + "\n".join(SIX_RESULTS)
    events = alice_api.get(f"{API}/runs/{detail['id']}/events?limit=500").json()["results"]
    assert [event["seq"] for event in events] == list(range(1, len(events) + 1))
    assert len(fake_openai.chat_requests) == 7


@pytest.mark.parametrize("seed", [2, 29])
def test_a_model_run_survives_faults_and_shows_its_retries(
    workspace, fake_openai, finish_run, seed
):
    faults = Faults(arithmetic_model, rate=0.3, seed=seed)
    fake_openai.responder = faults
    run = run_create(workspace=workspace, prompt=SIX_SUMS, options={"planner": "model"})

    run = finish_run(run)

    assert run.status == Run.Status.SUCCEEDED, run.message
    assert run.message == "Results:\n" + "\n".join(SIX_RESULTS)
    assert set(faults.injected) == {"429", "503", "drop"}
    assert len(fake_openai.chat_requests) == 7 + len(faults.injected)
    retries = retry_messages(run)
    assert len(retries) == len(faults.injected)
    expected = {"429": "HTTP 429", "503": "HTTP 503", "drop": "APIConnectionError"}
    for message, kind in zip(retries, faults.injected, strict=True):
        assert message.startswith("model retrying, attempt ")
        assert f"after {expected[kind]}" in message
    seqs = seqs_of(run)
    assert seqs == list(range(1, len(seqs) + 1))
    # every step ran its tool exactly once, however often the model call was retried
    assert [p["content"] for p in payloads(run, "tool.result")] == [
        f'{{"expression": "{line.split(" = ")[0]}", "value": {line.split(" = ")[1]}}}'
        for line in SIX_RESULTS
    ]
    assert sum(p["metrics"]["retries"] for p in payloads(run, "model.message")) == len(
        faults.injected
    )


def test_a_model_run_fails_clearly_when_the_server_keeps_failing(
    workspace, fake_openai, finish_run, settings
):
    settings.MODEL_MAX_RETRIES = 2
    fake_openai.responder = lambda request: Reply.unavailable()
    run = run_create(workspace=workspace, prompt=TWO_SUMS, options={"planner": "model"})

    run = finish_run(run)

    assert run.status == Run.Status.FAILED
    assert run.result["reason"] == "policy"
    assert "model server answered HTTP 503 after 3 attempt(s)" in run.message
    assert len(retry_messages(run)) == 2
    assert types_of(run)[-1] == "run.failed"


def test_the_model_planner_without_a_server_is_refused_with_a_clear_message(
    alice_api, alice, make_workspace
):
    workspace = make_workspace(alice)
    body = {"workspace": workspace.pk, "prompt": TWO_SUMS, "options": {"planner": "model"}}

    response = alice_api.post(f"{API}/runs", body, format="json")

    assert response.status_code == 400, response.content
    message = response.json()["options"]
    message = message[0] if isinstance(message, list) else message
    assert "no model server is configured" in message
    assert "MODEL_BASE_URL" in message and "offline planner" in message
    assert Run.objects.count() == 0


def test_a_workspace_with_a_model_uses_it_by_default(workspace, fake_openai, finish_run):
    fake_openai.responder = arithmetic_model

    run = finish_run(run_create(workspace=workspace, prompt=TWO_SUMS))

    assert run.options["planner"] == "model"
    assert run.status == Run.Status.SUCCEEDED and len(fake_openai.chat_requests) == 3


@pytest.mark.parametrize("planner", ["offline", "model"])
def test_offline_and_model_planners_share_the_loop_tools_and_events(
    workspace, fake_openai, finish_run, planner
):
    fake_openai.responder = arithmetic_model
    run = run_create(workspace=workspace, prompt=TWO_SUMS, options={"planner": planner})

    run = finish_run(run)

    assert run.status == Run.Status.SUCCEEDED
    assert run.message == "Results:\n17*23+4 = 395\n2**10 = 1024"
    # model.delta events are live output only the streaming model has; the rest is the same
    shape = [kind for kind in types_of(run) if kind != "model.delta"]
    step = ["model.message", "tool.call", "tool.result"]
    assert shape == ["run.started", *step, *step, "model.message", "run.finished"]
    assert [p["text"] for p in payloads(run, "model.message")] == [
        "Computing 17*23+4 (1 of 2).",
        "Computing 2**10 (2 of 2).",
        run.message,
    ]
    assert [(p["name"], p["content"], p["step"]) for p in payloads(run, "tool.result")] == [
        ("calculate", '{"expression": "17*23+4", "value": 395}', 1),
        ("calculate", '{"expression": "2**10", "value": 1024}', 2),
    ]
    assert len(fake_openai.chat_requests) == (3 if planner == "model" else 0)
