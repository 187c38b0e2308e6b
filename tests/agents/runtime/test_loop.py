"""The agent loop: event contract, final answers, cancel, policy failures, streaming."""

import json

import pytest

from agents.runtime import Decision, ListSink, Outcome, PolicyError, PolicyInput, Usage
from agents.runtime.events import ALL

from .helpers import PROMPT, SYSTEM, act, call, final, make_agent, of_type, run, start, types

TERMINAL = {"run.finished", "run.failed"}


def test_a_final_answer_succeeds():
    outcome, state, events, _ = run([final("The answer is 42.")])
    assert outcome.status == "succeeded"
    assert outcome.message == outcome.result == "The answer is 42."
    assert state.finished and state.outcome == outcome
    assert state.steps == 1
    assert types(events) == ["run.started", "model.message", "run.finished"]
    message = events[1][1]
    assert message["text"] == "The answer is 42."
    assert message["final"] is True
    assert message["step"] == 1
    finished = events[2][1]
    assert finished["status"] == "succeeded"
    assert finished["message"] == "The answer is 42."
    assert finished["steps"] == 1


def test_a_final_answer_that_admits_failure_ends_the_run_as_failed():
    answer = Decision(
        message="I built nothing: I did not understand 'florp'.",
        status="failed",
        reason="nothing_built",
        result={"built": []},
    )
    outcome, state, events, _ = run([answer])
    assert (outcome.status, outcome.reason) == ("failed", "nothing_built")
    assert outcome.message == "I built nothing: I did not understand 'florp'."
    assert outcome.result == {"built": []}
    assert types(events) == ["run.started", "model.message", "run.failed"]
    message, failed = events[1][1], events[2][1]
    assert (message["final"], message["status"], message["reason"]) == (
        True,
        "failed",
        "nothing_built",
    )
    assert failed["status"] == "failed" and failed["reason"] == "nothing_built"
    assert failed["message"] == answer.message and state.outcome == outcome


def test_event_contract_for_a_run_with_tools():
    script = [
        act(
            call("echo", "a1", text="one"), call("calculate", "a2", expression="1+1"), message="Go"
        ),
        act(call("echo", "b1", text="two")),
        final("done"),
    ]
    outcome, _, events, _ = run(script)
    kinds = types(events)

    assert kinds[0] == "run.started"
    assert sum(kind in TERMINAL for kind in kinds) == 1
    assert kinds[-1] == "run.finished"
    assert set(kinds) <= set(ALL)
    calls = {p["id"]: (n, p) for n, (k, p) in enumerate(events) if k == "tool.call"}
    results = {p["id"]: (n, p) for n, (k, p) in enumerate(events) if k == "tool.result"}
    assert set(calls) == set(results) == {"a1", "a2", "b1"}
    for call_id, (at, payload) in calls.items():
        result_at, result = results[call_id]
        assert at < result_at
        assert result["name"] == payload["name"]
        assert result["step"] == payload["step"]
    assert calls["a1"][1]["arguments"] == {"text": "one"}
    assert calls["a2"][1]["arguments"] == {"expression": "1+1"}
    assert [p["step"] for _, p in sorted(calls.values(), key=lambda x: x[0])] == [1, 1, 2]
    # results come in the order the calls were asked for
    assert [p["id"] for p in of_type(events, "tool.result")] == ["a1", "a2", "b1"]
    # a message is reported when there is one, and always for the final answer
    assert [(m["text"], m["final"]) for m in of_type(events, "model.message")] == [
        ("Go", False),
        ("done", True),
    ]
    assert outcome.status == "succeeded"


def test_messages_follow_the_chat_completions_shape():
    script = [act(call("echo", "a1", text="one"), message="Let me echo."), final("done")]
    _, state, _, _ = run(script)
    assert state.messages == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": PROMPT},
        {
            "role": "assistant",
            "content": "Let me echo.",
            "tool_calls": [
                {
                    "id": "a1",
                    "type": "function",
                    "function": {"name": "echo", "arguments": json.dumps({"text": "one"})},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "a1", "name": "echo", "content": "echo: one"},
        {"role": "assistant", "content": "done"},
    ]


def test_the_policy_sees_tools_step_numbers_and_earlier_results():
    seen = []

    def look(context: PolicyInput) -> Decision:
        seen.append((context.step, context.tools, list(context.messages)))
        return act(call("echo", "e1", text="hi")) if context.step == 1 else final()

    run([look, look])
    assert [step for step, _, _ in seen] == [1, 2]
    assert "echo" in [t["function"]["name"] for t in seen[0][1]]
    assert seen[1][2][-1]["content"] == "echo: hi"


def test_each_unit_is_one_decision_or_one_call():
    agent = make_agent([act(call("echo", text="1"), call("echo", text="2")), final()])
    state = start()
    assert agent.step(state) is None
    assert state.units == 1 and state.steps == 1 and len(state.pending) == 2
    assert agent.step(state) is None
    assert state.units == 2 and len(state.pending) == 1
    assert agent.step(state) is None
    assert state.pending == []
    outcome = agent.step(state)
    assert outcome is not None and outcome.status == "succeeded"
    assert state.units == 4 and state.steps == 2


def test_stepping_a_finished_run_changes_nothing():
    agent = make_agent([final("done")])
    state = start()
    outcome = agent.run(state)
    count, units = len(agent.sink.events), state.units
    assert agent.step(state) == outcome
    assert agent.run(state) == outcome
    assert len(agent.sink.events) == count
    assert state.units == units


def test_cancel_stops_before_the_next_unit():
    flag = {"cancel": False}

    def then_cancel(context: PolicyInput) -> Decision:
        flag["cancel"] = True
        return act(call("echo", "e1", text="never runs"))

    outcome, state, events, _ = run([then_cancel, final("never")], cancelled=lambda: flag["cancel"])

    assert outcome.status == "cancelled"
    assert outcome.reason == "cancelled"
    assert events[-1][0] == "run.finished"
    assert events[-1][1]["status"] == "cancelled"
    assert of_type(events, "tool.result") == []  # the pending call was not run
    assert state.pending == []
    assert state.steps == 1
    assert sum(kind in TERMINAL for kind in types(events)) == 1


def test_cancel_before_the_first_decision():
    outcome, state, events, _ = run([final("never")], cancelled=lambda: True)
    assert outcome.status == "cancelled"
    assert state.steps == 0
    assert types(events) == ["run.started", "run.finished"]


def test_running_out_of_script_is_a_policy_failure():
    outcome, _, events, _ = run([act(call("echo", text="x"))])
    assert outcome.status == "failed"
    assert outcome.reason == "policy"
    assert "the script has no step 2" in outcome.message
    assert events[-1][0] == "run.failed"


def test_a_policy_error_fails_the_run_cleanly():
    def broken(context):
        raise PolicyError("model server unreachable")

    outcome, state, events, _ = run([broken])
    assert outcome.status == "failed"
    assert outcome.reason == "policy"
    assert outcome.message == "the policy failed: model server unreachable"
    assert types(events) == ["run.started", "run.failed"]
    assert state.steps == 0


def test_streaming_deltas_are_forwarded():
    def stream(context: PolicyInput) -> Decision:
        for piece in ["The ", "answer"]:
            context.on_delta(piece)
        return final("The answer")

    _, _, events, _ = run([stream])
    assert [p["text"] for p in of_type(events, "model.delta")] == ["The ", "answer"]
    assert types(events)[-2:] == ["model.message", "run.finished"]


def test_usage_and_metrics_are_reported_on_messages():
    decision = Decision(
        message="done", usage=Usage(prompt_tokens=12, completion_tokens=3), metrics={"ttft": 0.5}
    )
    _, state, events, _ = run([decision])
    (message,) = of_type(events, "model.message")
    assert message["usage"] == {"prompt_tokens": 12, "completion_tokens": 3}
    assert message["metrics"] == {"ttft": 0.5}
    assert state.tokens_used == 15
    assert events[-1][1]["tokens_used"] == 15


def test_an_empty_final_answer_still_succeeds_and_is_reported():
    outcome, state, events, _ = run([Decision()])
    assert outcome.status == "succeeded"
    assert of_type(events, "model.message")[0]["text"] == ""
    assert state.messages[-1] == {"role": "assistant", "content": None}


def test_list_sink_types():
    sink = ListSink()
    sink.emit("a", {})
    sink.emit("b", {"x": 1})
    assert sink.types() == ["a", "b"]
    assert sink.events == [("a", {}), ("b", {"x": 1})]


@pytest.mark.parametrize("status", ["succeeded", "failed", "cancelled", "stuck"])
def test_outcome_round_trips(status):
    outcome = Outcome(status=status, message="m", reason="r", result={"v": 1})
    assert Outcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome
