"""A new run starts with what its workspace kind says about the workspace and the conversation."""

from __future__ import annotations

import dataclasses

import pytest

from agents import registry
from agents.models import Run
from agents.selectors import run_messages
from agents.services.execution import conversation_messages, run_advance
from agents.services.runs import run_create
from tests.agents.helpers import TWO_SUMS
from tests.fakes.openai_server import FakeOpenAI, arithmetic_model

pytestmark = pytest.mark.django_db

STATE = "The workspace holds 3 documents."


@pytest.fixture(autouse=True)
def no_default_model(settings):
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""
    settings.MODEL_TOOL_MODE = "native"


@pytest.fixture
def with_context(monkeypatch):
    """The finance kind, given a context hook: earlier turns plus a state line."""

    def context(run):
        state = {"role": "user", "name": "context-state", "content": STATE}
        return [*conversation_messages(run), state]

    kind = dataclasses.replace(registry.get_kind("finance"), context=context)
    monkeypatch.setitem(registry._kinds, "finance", kind)


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice)


def finished(workspace, prompt, *, message="done", status=Run.Status.SUCCEEDED):
    run = run_create(workspace=workspace, prompt=prompt)
    Run.objects.filter(pk=run.pk).update(status=status, message=message)
    return run


def start(run):
    run_advance(run_id=run.pk, owner="test", max_units=1)
    return run_messages(run_id=run.pk)


def test_a_kind_without_a_hook_starts_with_the_system_prompt_and_the_request(workspace):
    finished(workspace, "what is 1+1")
    messages = start(run_create(workspace=workspace, prompt=TWO_SUMS))
    assert [m["role"] for m in messages[:2]] == ["system", "user"]
    assert messages[1]["content"] == TWO_SUMS and "name" not in messages[1]


def test_context_comes_after_the_system_prompt_and_before_the_request(workspace, with_context):
    finished(workspace, "what is 1+1", message="1+1 = 2")
    finished(workspace, "and 2+2?", message="", status=Run.Status.FAILED)
    messages = start(run_create(workspace=workspace, prompt=TWO_SUMS))
    assert [(m["role"], m.get("name"), m["content"]) for m in messages[:7]] == [
        ("system", None, registry.get_kind("finance").system_prompt),
        ("user", "context-turn", "what is 1+1"),
        ("assistant", "context-turn", "1+1 = 2"),
        ("user", "context-turn", "and 2+2?"),
        ("assistant", "context-turn", "(the run ended: failed)"),
        ("user", "context-state", STATE),
        ("user", None, TWO_SUMS),
    ]


def test_the_context_is_read_once_and_checkpointed(workspace, with_context, finish_run):
    finished(workspace, "what is 1+1", message="1+1 = 2")
    run = run_create(workspace=workspace, prompt=TWO_SUMS)
    first = start(run)
    finished(workspace, "a turn that happened later")  # must not leak into the resumed run
    run = finish_run(run)
    assert run.status == Run.Status.SUCCEEDED, run.message
    messages = run_messages(run_id=run.pk)
    assert messages[: len(first) - 1] == first[:-1]
    assert "a turn that happened later" not in str(messages)


def test_long_conversations_are_condensed(workspace):
    for number in range(12):
        finished(workspace, f"request {number}", message="answer " + "x" * 2000)
    run = run_create(workspace=workspace, prompt="now")
    messages = conversation_messages(run, max_turns=3, answer_chars=100)
    assert len(messages) == 2 + 3 * 2
    assert messages[0]["content"].startswith("(earlier requests, condensed) request 0;")
    assert "request 8" in messages[0]["content"] and "request 9" not in messages[0]["content"]
    assert [m["content"] for m in messages[2::2]] == ["request 9", "request 10", "request 11"]
    assert all(len(m["content"]) <= 100 for m in messages[3::2])


def test_a_model_sees_the_context_as_named_chat_messages(
    workspace, with_context, finish_run, fake_openai: FakeOpenAI
):
    workspace.model_base_url, workspace.model_name = fake_openai.base_url, fake_openai.model
    workspace.save()
    finished(workspace, "what is 1+1", message="1+1 = 2")
    fake_openai.responder = arithmetic_model
    run = run_create(workspace=workspace, prompt=TWO_SUMS, options={"planner": "model"})
    run = finish_run(run)
    assert run.status == Run.Status.SUCCEEDED, run.message
    sent = fake_openai.chat_requests[0].messages
    assert [(m["role"], m.get("name"), m["content"]) for m in sent[1:5]] == [
        ("user", "context-turn", "what is 1+1"),
        ("assistant", "context-turn", "1+1 = 2"),
        ("user", "context-state", STATE),
        ("user", None, TWO_SUMS),
    ]
    # only fields of the chat API reach the server
    assert all(set(m) <= {"role", "name", "content", "tool_calls", "tool_call_id"} for m in sent)
