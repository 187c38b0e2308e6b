"""Checks shared by the trajectory tests: the OpenAI chat shape, and events added by hand."""

from __future__ import annotations

import json

from django.utils import timezone

from agents.models import Event, Run
from agents.trajectories.messages import unpaired_ids

CHAT_ROLES = {"system", "user", "assistant", "tool"}


def add_event(run: Run, type: str, payload: dict) -> Event:
    """Append an event after the run's last one, as a unit's checkpoint would."""
    run.refresh_from_db()
    seq = run.last_seq + 1
    Run.objects.filter(pk=run.pk).update(last_seq=seq)
    return Event.objects.create(run=run, seq=seq, type=type, ts=timezone.now(), payload=payload)


def assert_openai_chat(record: dict) -> None:
    """Roles and shapes of the OpenAI chat format; every call paired with exactly one result."""
    messages = record["messages"]
    assert [m["role"] for m in messages[:2]] == ["system", "user"]
    for message in messages:
        assert message["role"] in CHAT_ROLES
        if message["role"] == "tool":
            assert set(message) == {"role", "tool_call_id", "content"}
            assert isinstance(message["content"], str)
        elif message.get("tool_calls"):
            for call in message["tool_calls"]:
                assert call["type"] == "function" and call["id"]
                assert isinstance(call["function"]["name"], str)
                assert isinstance(json.loads(call["function"]["arguments"]), dict)
        else:
            assert isinstance(message["content"], str)
    assert unpaired_ids(messages) == []
    calls = [c["id"] for m in messages for c in m.get("tool_calls") or ()]
    results = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert sorted(calls) == sorted(results) and len(set(calls)) == len(calls)
    for tool in record["tools"]:
        assert tool["type"] == "function"
        assert tool["function"]["name"] and tool["function"]["description"]
        assert tool["function"]["parameters"]["type"] == "object"
