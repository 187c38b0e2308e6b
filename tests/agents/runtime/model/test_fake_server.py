"""The fake OpenAI-compatible server itself: what it sends is what real servers send."""

from __future__ import annotations

import json

import httpx2
import openai
import pytest

from tests.fakes.openai_server import Call, Reply, split_bytes


def client(server) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="test", max_retries=0)


def test_it_lists_its_model(fake_openai):
    models = client(fake_openai).models.list()

    assert [model.id for model in models] == [fake_openai.model]
    assert fake_openai.requests[0].method == "GET"


def test_a_non_streamed_completion_has_calls_and_usage(fake_openai):
    fake_openai.script(Reply.calls_of(Call("calculate", '{"expression": "1+1"}', id="call_a")))

    completion = client(fake_openai).chat.completions.create(
        model=fake_openai.model,
        messages=[{"role": "user", "content": "1+1?"}],
        tools=[{"type": "function", "function": {"name": "calculate", "parameters": {}}}],
    )

    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    calls = choice.message.tool_calls or []
    assert len(calls) == 1
    call = calls[0]
    assert (call.id, call.function.name) == ("call_a", "calculate")
    assert call.function.arguments == '{"expression": "1+1"}'
    assert completion.usage.prompt_tokens > 0
    assert completion.usage.prompt_tokens_details.cached_tokens == 0


@pytest.mark.parametrize("pieces", [None, 2, 50, 400])
def test_a_split_stream_carries_the_same_bytes(fake_openai, pieces):
    usage = {"cached_tokens": 0}  # else the second request has the first's prefix cached
    reply = Reply.say("h\u00e9llo " * 20, pieces=pieces, seed=5, usage=usage)
    fake_openai.script(reply, Reply.say("h\u00e9llo " * 20, usage=usage))
    body = {
        "model": fake_openai.model,
        "messages": [{"role": "user", "content": "hi"}],
        "stream": True,
        "stream_options": {"include_usage": True},
    }
    url = f"{fake_openai.base_url}/chat/completions"

    with httpx2.Client() as http:
        first = http.post(url, json=body).content
        second = http.post(url, json=body).content

    assert first.replace(b"chatcmpl-1", b"chatcmpl-2") == second
    assert first.endswith(b"data: [DONE]\n\n")
    events = [json.loads(line[6:]) for line in first.split(b"\n\n") if line.startswith(b"data: {")]
    assert "".join(e["choices"][0]["delta"].get("content", "") for e in events if e["choices"]) == (
        "h\u00e9llo " * 20
    )
    assert events[-1]["choices"] == [] and events[-1]["usage"]["completion_tokens"] > 0


def test_split_bytes_cuts_anywhere_and_loses_nothing():
    data = bytes(range(256)) * 4

    pieces = split_bytes(data, 37, seed=1)

    assert len(pieces) == 37 and b"".join(pieces) == data
    assert split_bytes(data, 37, seed=1) == pieces != split_bytes(data, 37, seed=2)


def test_a_dropped_stream_is_an_incomplete_body(fake_openai):
    fake_openai.script(Reply.drop("x" * 400, after=100))
    body = {"model": "m", "messages": [], "stream": True}

    with httpx2.Client() as http, pytest.raises(httpx2.RemoteProtocolError):
        http.post(f"{fake_openai.base_url}/chat/completions", json=body)


def test_errors_carry_their_status_headers_and_message(fake_openai):
    fake_openai.script(Reply.rate_limited("7"))

    with pytest.raises(openai.RateLimitError) as raised:
        client(fake_openai).chat.completions.create(model="m", messages=[])

    assert raised.value.response.headers["retry-after"] == "7"
    assert raised.value.message.endswith("rate limit reached, slow down")


def test_an_unscripted_request_is_answered_418_and_recorded(fake_openai):
    with pytest.raises(openai.APIStatusError) as raised:
        client(fake_openai).chat.completions.create(model="m", messages=[])

    assert raised.value.status_code == 418 and "nothing scripted" in raised.value.message
    (request,) = fake_openai.chat_requests
    assert request.body == {"model": "m", "messages": []}
    assert json.loads(request.raw) == request.body


def test_a_responder_sees_each_request(fake_openai):
    fake_openai.responder = lambda request: Reply.say(f"you said {request.messages[-1]['content']}")

    completion = client(fake_openai).chat.completions.create(
        model="m", messages=[{"role": "user", "content": "hi"}]
    )

    assert completion.choices[0].message.content == "you said hi"
