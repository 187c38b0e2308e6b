"""complete_json: strict json_schema output, falling back when the server refuses it."""

from __future__ import annotations

import json

import pytest

from agents.runtime import PolicyError
from tests.fakes.openai_server import Reply

SCHEMA = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "population": {"type": "integer", "minimum": 0},
    },
    "required": ["city", "population"],
    "additionalProperties": False,
}
MESSAGES = [
    {"role": "system", "content": "You extract facts."},
    {"role": "user", "content": "Paris has about 2.1 million inhabitants."},
]
ANSWER = {"city": "Paris", "population": 2100000}


def formats(server):
    return [(r.body.get("response_format") or {}).get("type") for r in server.chat_requests]


def test_json_schema_accepted_gives_a_validated_dict(fake_openai, make_policy):
    fake_openai.script(Reply.say(json.dumps(ANSWER)))

    value = make_policy().complete_json(MESSAGES, SCHEMA, name="place")

    assert value == ANSWER
    (request,) = fake_openai.chat_requests
    assert request.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "place", "schema": SCHEMA, "strict": True},
    }
    assert not request.streamed and request.messages == MESSAGES


def test_a_fenced_answer_is_repaired(fake_openai, make_policy):
    fake_openai.script(Reply.say("```json\n" + json.dumps(ANSWER) + "\n```"))

    assert make_policy().complete_json(MESSAGES, SCHEMA) == ANSWER


def test_a_400_to_json_schema_falls_back_to_json_mode(fake_openai, make_policy, waits):
    fake_openai.script(
        Reply.bad_request("response_format json_schema is not supported"),
        Reply.say(json.dumps(ANSWER)),
    )

    value = make_policy().complete_json(MESSAGES, SCHEMA)

    assert value == ANSWER
    assert formats(fake_openai) == ["json_schema", "json_object"]
    assert waits == []  # a refusal is not retried


def test_refused_everywhere_falls_back_to_instructions(fake_openai, make_policy):
    fake_openai.script(
        Reply.bad_request("no json_schema"),
        Reply.bad_request("no json mode either"),
        Reply.say("Here you go: " + json.dumps(ANSWER)),  # prose around it: not accepted
    )

    with pytest.raises(PolicyError, match="no valid structured output"):
        make_policy().complete_json(MESSAGES, SCHEMA)

    fake_openai.reset()
    fake_openai.script(
        Reply.bad_request("no json_schema"),
        Reply.bad_request("no json mode either"),
        Reply.say(json.dumps(ANSWER)),
    )

    assert make_policy().complete_json(MESSAGES, SCHEMA) == ANSWER
    assert formats(fake_openai) == ["json_schema", "json_object", None]
    last = fake_openai.chat_requests[-1].messages
    assert last[:-1] == MESSAGES and last[-1]["role"] == "user"
    assert json.dumps(SCHEMA, sort_keys=True) in last[-1]["content"]


def test_an_answer_that_misses_the_schema_is_asked_again(fake_openai, make_policy):
    fake_openai.script(
        Reply.say(json.dumps({"city": "Paris", "population": "lots"})),
        Reply.say(json.dumps(ANSWER)),
    )

    assert make_policy().complete_json(MESSAGES, SCHEMA) == ANSWER
    assert formats(fake_openai) == ["json_schema", "json_object"]


def test_invalid_json_everywhere_raises_policy_error(fake_openai, make_policy):
    fake_openai.script(
        Reply.say('{"city": "Paris", "population": '),
        Reply.say("Paris, 2.1 million"),
        Reply.say("[1, 2, 3]"),
    )

    with pytest.raises(PolicyError) as raised:
        make_policy().complete_json(MESSAGES, SCHEMA)

    assert "no valid structured output from the model" in str(raised.value)
    assert "expected a JSON object, got list" in str(raised.value)
    assert formats(fake_openai) == ["json_schema", "json_object", None]


def test_structured_output_retries_transient_errors(fake_openai, make_policy, waits):
    fake_openai.script(Reply.rate_limited("0.2"), Reply.say(json.dumps(ANSWER)))
    seen: list[str] = []

    value = make_policy().complete_json(MESSAGES, SCHEMA, on_status=seen.append)

    assert value == ANSWER and waits == [pytest.approx(0.2)]
    (status,) = seen
    assert status.startswith("model retrying, attempt 2/6 after HTTP 429")
    assert formats(fake_openai) == ["json_schema", "json_schema"]


def test_a_server_error_is_not_mistaken_for_a_refusal(fake_openai, make_policy):
    fake_openai.script(Reply.fail(401, "bad key"))

    with pytest.raises(PolicyError, match="HTTP 401"):
        make_policy().complete_json(MESSAGES, SCHEMA)

    assert formats(fake_openai) == ["json_schema"]
