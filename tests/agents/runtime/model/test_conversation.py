"""The model policy through the real agent loop, against a fake OpenAI-compatible server.

Streamed replies are split at random byte offsets, so tool calls and text are reassembled from
pieces; parallel calls interleave their argument deltas, so they must be accumulated by index.
Tests run in both tool modes: native `tools`, and the prompt-based `<tool_call>` fallback.
"""

from __future__ import annotations

import json

import pytest

from agents.runtime import events
from tests.agents.runtime.helpers import of_type, run, tool_messages, types
from tests.fakes.openai_server import Call, Reply


def test_a_streamed_multi_step_tool_conversation_completes(fake_openai, make_policy, tool_mode):
    fake_openai.script(
        Reply.call("calculate", '{"expression": "17*23"}', text="Let me compute.", pieces=29),
        Reply.calls_of(
            Call("calculate", '{"expression": "2 ** 10"}'),
            Call("echo", '{"text": "h\u00e9llo w\u00f6rld"}'),
            interleave=True,
            pieces=41,
            seed=7,
            args_piece=3,
        ),
        Reply.say("17*23 = 391 and 2 ** 10 = 1024.", pieces=13, seed=3),
    )
    policy = make_policy(tool_mode=tool_mode)

    outcome, state, sink, _ = run(None, policy=policy)

    assert outcome.status == "succeeded", outcome.message
    assert outcome.result == "17*23 = 391 and 2 ** 10 = 1024."
    calls = of_type(sink, events.TOOL_CALL)
    assert [(c["name"], c["arguments"]) for c in calls] == [
        ("calculate", {"expression": "17*23"}),
        ("calculate", {"expression": "2 ** 10"}),
        ("echo", {"text": "h\u00e9llo w\u00f6rld"}),
    ]
    assert [c["step"] for c in calls] == [1, 2, 2]
    assert [m["content"] for m in tool_messages(state)] == [
        '{"expression": "17*23", "value": 391}',
        '{"expression": "2 ** 10", "value": 1024}',
        "echo: h\u00e9llo w\u00f6rld",
    ]
    assert all(result["ok"] for result in of_type(sink, events.TOOL_RESULT))
    # the model saw its own calls and every result, matched by call id
    requests = fake_openai.chat_requests
    assert len(requests) == 3 and fake_openai.pending == 0
    if tool_mode == "native":
        last = requests[-1].messages
        asked = [call["id"] for m in last if m["role"] == "assistant" for call in m["tool_calls"]]
        answered = [m["tool_call_id"] for m in last if m["role"] == "tool"]
        assert asked == answered and len(set(asked)) == 3
    else:
        last = requests[-1].messages
        assert sum("<tool_response" in m["content"] for m in last if m["role"] == "user") == 3
        assert all("<tool_call>" in m["content"] for m in last if m["role"] == "assistant")
    types_seen = types(sink)
    assert types_seen[0] == events.RUN_STARTED and types_seen[-1] == events.RUN_FINISHED
    assert types_seen.count(events.MODEL_MESSAGE) == 3


@pytest.mark.parametrize("seed", range(5))
def test_tool_calls_survive_any_split_of_the_stream(fake_openai, make_policy, tool_mode, seed):
    arguments = {"expression": "(1 + 2) * 3", "note": "\u00fcn\u00efc\u00f8de \u2713"}
    fake_openai.script(
        Reply.calls_of(
            Call("calculate", json.dumps(arguments)),
            Call("echo", {"text": "a" * 50}),
            Call("count", "{}"),
            interleave=True,
            pieces=120,
            seed=seed,
            args_piece=1,
            text_piece=1,
        ),
        Reply.say("done"),
    )

    outcome, _, sink, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "succeeded"
    calls = of_type(sink, events.TOOL_CALL)
    assert [(c["name"], c["arguments"]) for c in calls] == [
        ("calculate", arguments),
        ("echo", {"text": "a" * 50}),
        ("count", {}),
    ]
    # calculate refuses the extra property: the model sees a schema error, not a crash
    results = of_type(sink, events.TOOL_RESULT)
    assert [r["ok"] for r in results] == [False, True, True]


def test_text_deltas_are_batched_and_the_message_carries_metrics(fake_openai, make_policy):
    text = " ".join(f"word{index}" for index in range(60))
    usage = {"prompt_tokens": 1234, "completion_tokens": 56, "cached_tokens": 1000}
    fake_openai.script(
        Reply.say(text, text_piece=3, chunk_delay=0.002, first_byte_delay=0.03, usage=usage)
    )
    policy = make_policy(delta_interval=0.03)

    outcome, _, sink, _ = run(None, policy=policy)

    assert outcome.status == "succeeded" and outcome.result == text
    deltas = [payload["text"] for payload in of_type(sink, events.MODEL_DELTA)]
    content_chunks = len(range(0, len(text), 3))
    assert 1 < len(deltas) < content_chunks
    assert "".join(deltas) == text
    # every delta comes before the message that completes it
    kinds = types(sink)
    assert kinds.index(events.MODEL_MESSAGE) > max(
        i for i, kind in enumerate(kinds) if kind == events.MODEL_DELTA
    )
    (message,) = of_type(sink, events.MODEL_MESSAGE)
    assert message["text"] == text and message["final"] is True
    metrics = message["metrics"]
    assert metrics["ttft_ms"] >= 30
    assert metrics["tokens_per_s"] > 0
    assert metrics["prompt_tokens"] == 1234
    assert metrics["completion_tokens"] == 56
    assert metrics["cached_tokens"] == 1000
    assert metrics["finish_reason"] == "stop"
    assert metrics["duration_ms"] >= metrics["ttft_ms"]
    assert message["usage"] == {"prompt_tokens": 1234, "completion_tokens": 56}


def test_the_server_reports_cached_prompt_tokens_of_a_shared_prefix(fake_openai, make_policy):
    fake_openai.script(Reply.call("calculate", {"expression": "1+1"}), Reply.say("2"))

    _, _, sink, _ = run(None, policy=make_policy())

    first, second = (m["metrics"] for m in of_type(sink, events.MODEL_MESSAGE))
    assert first["cached_tokens"] == 0
    assert 0 < second["cached_tokens"] < second["prompt_tokens"]


def test_a_model_that_never_calls_a_tool_gives_the_final_answer(
    fake_openai, make_policy, tool_mode
):
    fake_openai.script(Reply.say("I can answer that without tools: 4.", pieces=5))

    outcome, state, sink, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "succeeded"
    assert outcome.result == "I can answer that without tools: 4."
    assert len(fake_openai.chat_requests) == 1
    assert of_type(sink, events.TOOL_CALL) == [] and tool_messages(state) == []
    assert state.messages[-1] == {"role": "assistant", "content": outcome.result}


def test_the_prompt_fallback_sends_no_tools_and_lists_them_in_the_system_prompt(
    fake_openai, make_policy
):
    fake_openai.script(Reply.call("calculate", {"expression": "6*7"}), Reply.say("42"))

    outcome, _, _, agent = run(None, policy=make_policy(tool_mode="prompt"))

    assert outcome.status == "succeeded"
    for request in fake_openai.chat_requests:
        assert "tools" not in request.body and "tool_choice" not in request.body
        system = request.messages[0]
        assert system["role"] == "system" and "<tool_call>" in system["content"]
        for name in agent.tools.names:
            assert f'"name": "{name}"' in system["content"]
        assert all(m["role"] in {"system", "user", "assistant"} for m in request.messages)
        assert all(isinstance(m["content"], str) for m in request.messages)


def test_native_requests_carry_the_tools_sorted_and_stream_usage(fake_openai, make_policy):
    fake_openai.script(Reply.say("ok"))

    _, _, _, agent = run(None, policy=make_policy())

    (request,) = fake_openai.chat_requests
    body = request.body
    assert [tool["function"]["name"] for tool in body["tools"]] == agent.tools.names
    assert body["tool_choice"] == "auto"
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["model"] == fake_openai.model and body["temperature"] == 0.0


# --- malformed tool calls ------------------------------------------------------------------------


def test_malformed_arguments_become_an_observation_and_the_model_corrects_itself(
    fake_openai, make_policy, tool_mode
):
    fake_openai.script(
        Reply.call("calculate", '{"expression": "6*7"', pieces=7),
        Reply.call("calculate", '{"expression": "6*7"}'),
        Reply.say("6*7 = 42"),
    )

    outcome, state, sink, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "succeeded" and outcome.result == "6*7 = 42"
    first, second = tool_messages(state)
    assert first["content"].startswith("error: could not read the arguments for calculate: ")
    assert "not valid JSON" in first["content"]
    assert second["content"] == '{"expression": "6*7", "value": 42}'
    assert [r["ok"] for r in of_type(sink, events.TOOL_RESULT)] == [False, True]
    # the second request shows the model the error it made
    seen = json.dumps(fake_openai.chat_requests[1].messages)
    assert "could not read the arguments" in seen
    unreadable = of_type(sink, events.TOOL_CALL)[0]
    assert unreadable["name"] == "calculate" and unreadable["arguments"] == {}
    assert unreadable["error"].startswith("not valid JSON")


def test_arguments_that_are_not_an_object_are_malformed_too(fake_openai, make_policy):
    fake_openai.script(Reply.call("calculate", '["6*7"]'), Reply.say("sorry"))

    outcome, state, _, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded"
    (observation,) = tool_messages(state)
    assert "expected a JSON object, got list" in observation["content"]


def test_three_malformed_calls_in_a_row_fail_the_run(fake_openai, make_policy, tool_mode):
    fake_openai.script(
        Reply.call("calculate", '{"expression": '),
        Reply.call("calculate", '{"expression": "1+1}'),
        Reply.call("calculate", "expression=1+1"),
        Reply.say("never asked for"),
    )

    outcome, _, sink, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert "unreadable tool-call arguments 3 times in a row" in outcome.message
    assert len(fake_openai.chat_requests) == 3 and fake_openai.pending == 1
    (failed,) = of_type(sink, events.RUN_FAILED)
    assert failed["reason"] == "policy"


def test_a_good_call_between_malformed_ones_resets_the_count(fake_openai, make_policy):
    fake_openai.script(
        Reply.call("calculate", "{"),
        Reply.call("calculate", "{'expression': '1'}"),
        Reply.call("calculate", {"expression": "1+1"}),
        Reply.call("calculate", "{]"),
        Reply.call("calculate", "{["),
        Reply.say("2"),
    )

    outcome, _, _, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded" and len(fake_openai.chat_requests) == 6


# --- connections ---------------------------------------------------------------------------------


def test_consecutive_calls_reuse_one_connection(fake_openai, make_policy, tool_mode):
    fake_openai.script(
        Reply.call("calculate", {"expression": "1+1"}, pieces=9),
        Reply.call("calculate", {"expression": "2+2"}),
        Reply.say("2 and 4", pieces=3),
    )

    outcome, _, _, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "succeeded"
    assert fake_openai.connections == 1


def test_a_server_without_a_usage_chunk_still_works(fake_openai, make_policy):
    fake_openai.script(Reply.call("count", "{}", usage=False), Reply.say("counted", usage=False))

    outcome, _, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded" and outcome.result == "counted"
    metrics = of_type(sink, events.MODEL_MESSAGE)[-1]["metrics"]
    assert "prompt_tokens" not in metrics and metrics["completion_tokens"] >= 1


def test_an_answer_cut_at_the_token_limit_is_not_a_success(fake_openai, make_policy):
    fake_openai.script(Reply.say("The sum is 39 and the other one", finish_reason="length"))

    outcome, _, _, _ = run(None, policy=make_policy())

    assert outcome.status == "failed" and outcome.reason == "truncated"
    assert "cut off at its token limit" in outcome.message
    assert "The sum is 39 and the other one" in outcome.message


def test_tool_calls_cut_at_the_token_limit_are_not_run(fake_openai, make_policy):
    fake_openai.script(
        Reply.call("calculate", {"expression": "17 * 23"}, finish_reason="length"),
        Reply.say("391"),
    )

    outcome, _, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "failed" and outcome.reason == "truncated"
    assert "its tool calls were not run" in outcome.message
    assert of_type(sink, events.TOOL_CALL) == []


def test_a_failure_of_the_callers_delta_hook_is_not_a_model_failure(fake_openai, make_policy):
    from agents.runtime.protocols import PolicyInput

    class DatabaseHiccup(Exception):
        pass

    def record(text: str) -> None:
        raise DatabaseHiccup("database is locked")

    fake_openai.script(Reply.say("a long answer streamed in many pieces " * 5))
    policy = make_policy()
    context = PolicyInput(
        messages=[{"role": "user", "content": "hi"}], tools=[], step=1, on_delta=record
    )

    with pytest.raises(DatabaseHiccup, match="database is locked"):
        policy.decide(context)
    assert len(fake_openai.requests) == 1, "the model call is not retried for the caller's error"


def test_a_cancel_stops_a_long_streaming_answer_within_a_second(fake_openai, make_policy):
    import time

    from agents.runtime.errors import Cancelled
    from agents.runtime.protocols import PolicyInput

    fake_openai.script(Reply.say("word " * 400, chunk_delay=0.02))  # about 2 s of streaming
    started = time.monotonic()
    context = PolicyInput(
        messages=[{"role": "user", "content": "write a lot"}],
        tools=[],
        step=1,
        cancelled=lambda: time.monotonic() - started > 0.3,
    )

    with pytest.raises(Cancelled):
        make_policy().decide(context)
    assert time.monotonic() - started < 1.2


def test_a_cancelled_run_ends_cancelled_even_mid_answer(fake_openai, make_policy):
    import time

    fake_openai.script(Reply.say("word " * 400, chunk_delay=0.02))
    started = time.monotonic()

    outcome, _, _, _ = run(
        None, policy=make_policy(), cancelled=lambda: time.monotonic() - started > 0.3
    )

    assert outcome.status == "cancelled"
