"""Transient model-server failures are retried visibly; permanent ones fail the run clearly.

`sleep` is recorded, not slept, so the waits the policy chose can be checked exactly.
"""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from agents.runtime import PolicyError, PolicyInput, events
from tests.agents.runtime.helpers import of_type, run, tool_messages
from tests.fakes.openai_server import Reply


def statuses(sink):
    return [payload["message"] for payload in of_type(sink, events.RUN_STATUS)]


def deltas_after_last_retry(sink):
    """The text the browser keeps: deltas since the last `retrying` status (see timeline.js)."""
    kept: list[str] = []
    for kind, payload in sink:
        if kind == events.RUN_STATUS and "retrying" in payload.get("message", ""):
            kept = []
        elif kind == events.MODEL_DELTA:
            kept.append(payload["text"])
    return "".join(kept)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "0.25"}, 0.25),
        ({"Retry-After": "1"}, 1.0),
        ({"retry-after-ms": "40"}, 0.04),
        ({"retry-after-ms": "40", "Retry-After": "1"}, 0.04),
        ({"Retry-After": "120"}, 1.0),  # capped at backoff_max
    ],
)
def test_429_waits_as_long_as_the_server_asks(fake_openai, make_policy, waits, headers, expected):
    fake_openai.script(Reply.fail(429, "slow down", headers), Reply.say("fine"))

    outcome, _, sink, _ = run(None, policy=make_policy(max_retries=5, backoff_max=1.0))

    assert outcome.status == "succeeded" and outcome.result == "fine"
    assert waits == [pytest.approx(expected)]
    (status,) = statuses(sink)
    assert status.startswith("model retrying, attempt 2/6 after HTTP 429")
    assert f"waiting {expected:.1f} s" in status
    assert len(fake_openai.chat_requests) == 2


def test_retry_after_as_an_http_date(fake_openai, make_policy, waits):
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=3), usegmt=True)
    fake_openai.script(Reply.fail(429, "later", {"Retry-After": when}), Reply.say("ok"))

    outcome, _, _, _ = run(None, policy=make_policy(backoff_max=10.0))

    assert outcome.status == "succeeded"
    (wait,) = waits
    assert 1.5 < wait <= 3.0


def test_a_429_then_success_in_a_tool_conversation(fake_openai, make_policy, waits):
    fake_openai.script(
        Reply.call("calculate", {"expression": "6*7"}),
        Reply.rate_limited("0.05"),
        Reply.rate_limited("0.05"),
        Reply.say("42"),
    )

    outcome, state, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded" and outcome.result == "42"
    assert waits == [pytest.approx(0.05)] * 2
    assert [s.split(" after ")[0] for s in statuses(sink)] == [
        "model retrying, attempt 2/6",
        "model retrying, attempt 3/6",
    ]
    assert len(tool_messages(state)) == 1
    message = of_type(sink, events.MODEL_MESSAGE)[-1]
    assert message["metrics"]["retries"] == 2


@pytest.mark.parametrize("status", [408, 409, 500, 502, 503, 504])
def test_transient_statuses_are_retried_with_jittered_backoff(
    fake_openai, make_policy, waits, status
):
    fake_openai.script(Reply.fail(status), Reply.fail(status), Reply.say("back"))

    outcome, _, sink, _ = run(None, policy=make_policy(backoff_base=0.2, backoff_max=5.0))

    assert outcome.status == "succeeded" and outcome.result == "back"
    first, second = waits
    assert 0 <= first <= 0.2 and 0 <= second <= 0.4  # full jitter, doubling
    assert all(f"after HTTP {status}" in message for message in statuses(sink))


def test_a_connection_dropped_mid_stream_is_retried(fake_openai, make_policy, waits):
    text = "The answer, streamed in small pieces, is forty-two."
    fake_openai.script(Reply.drop(text, after=0.5), Reply.say(text, pieces=9))

    outcome, _, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded" and outcome.result == text
    (status,) = statuses(sink)
    assert status.startswith("model retrying, attempt 2/6 after APIConnectionError")
    assert deltas_after_last_retry(sink) == text
    assert len(waits) == 1 and len(fake_openai.chat_requests) == 2


def test_a_drop_in_the_middle_of_a_tool_call_runs_the_call_once(fake_openai, make_policy):
    reply = Reply.call("count", "{}", text="Counting.", pieces=20)
    fake_openai.script(
        Reply(text=reply.text, calls=reply.calls, pieces=20, drop_after=0.8),
        reply,
        Reply.say("counted"),
    )

    outcome, state, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded"
    assert [m["content"] for m in tool_messages(state)] == ['{"count": 1}']
    assert len(of_type(sink, events.TOOL_CALL)) == 1


def test_a_stream_without_finish_reason_is_retried_from_scratch(fake_openai, make_policy):
    fake_openai.script(Reply.cut("I was about to"), Reply.say("A whole answer."))

    outcome, state, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "succeeded" and outcome.result == "A whole answer."
    (status,) = statuses(sink)
    assert "attempt 2/6 after stream cut before the end" in status
    assert state.messages[-1]["content"] == "A whole answer."
    assert deltas_after_last_retry(sink) == "A whole answer."


def test_a_read_timeout_is_retried(fake_openai, make_policy):
    fake_openai.script(Reply.say("too late", first_byte_delay=1.0), Reply.say("in time"))

    outcome, _, sink, _ = run(None, policy=make_policy(read_timeout=0.3))

    assert outcome.status == "succeeded" and outcome.result == "in time"
    (status,) = statuses(sink)
    assert "after timeout" in status


def test_retries_exhausted_fail_the_run_naming_the_status(fake_openai, make_policy, waits):
    fake_openai.script(*[Reply.unavailable()] * 3, Reply.say("never reached"))

    outcome, _, sink, _ = run(None, policy=make_policy(max_retries=2))

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert outcome.message.startswith("the policy failed: model server answered HTTP 503")
    assert "after 3 attempt(s)" in outcome.message
    assert "the model is overloaded" in outcome.message
    assert len(fake_openai.chat_requests) == 3 and len(waits) == 2
    assert [s.split(" after ")[0] for s in statuses(sink)] == [
        "model retrying, attempt 2/3",
        "model retrying, attempt 3/3",
    ]
    (failed,) = of_type(sink, events.RUN_FAILED)
    assert failed["status"] == "failed" and failed["reason"] == "policy"
    assert "HTTP 503" in failed["message"]


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (401, "Incorrect API key provided"),
        (403, "not allowed"),
        (404, "The model `fake-model` does not exist"),
        (400, "messages: field required"),
        (422, "unprocessable"),
    ],
)
def test_permanent_errors_are_not_retried(fake_openai, make_policy, waits, status, message):
    fake_openai.script(Reply.fail(status, message), Reply.say("never reached"))

    outcome, _, sink, _ = run(None, policy=make_policy())

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert f"model server answered HTTP {status} after 1 attempt(s)" in outcome.message
    assert message in outcome.message
    assert waits == [] and statuses(sink) == []
    assert len(fake_openai.chat_requests) == 1


def test_an_unreachable_server_fails_clearly(make_policy, waits):
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    policy = make_policy(base_url=f"http://127.0.0.1:{port}/v1", max_retries=1)

    outcome, _, sink, _ = run(None, policy=policy)

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert "model server unreachable after 2 attempt(s)" in outcome.message
    assert len(statuses(sink)) == 1 and len(waits) == 1


def test_decide_raises_policy_error_with_the_cause(fake_openai, make_policy):
    fake_openai.script(Reply.fail(401, "bad key"))
    context = PolicyInput(messages=[{"role": "user", "content": "hi"}], tools=[], step=1)

    with pytest.raises(PolicyError, match="HTTP 401") as raised:
        make_policy().decide(context)

    assert type(raised.value.__cause__).__name__ == "AuthenticationError"


def test_an_error_sent_inside_the_stream_is_reported_as_the_servers_error(fake_openai, make_policy):
    fake_openai.script(Reply.say("partial answer", stream_error="the engine died"))

    outcome, _, _, _ = run(None, policy=make_policy())

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert "model server sent an error after 1 attempt(s): the engine died" in outcome.message
    assert "unreachable" not in outcome.message


def test_streams_cut_short_every_time_fail_with_a_clear_message(fake_openai, make_policy):
    fake_openai.script(*[Reply.cut()] * 3)

    outcome, _, _, _ = run(None, policy=make_policy(max_retries=2))

    assert outcome.status == "failed" and outcome.reason == "policy"
    assert "cut its answer short 3 time(s) in a row" in outcome.message
    assert "without a finish_reason" in outcome.message
    assert "unreachable" not in outcome.message
