"""The offline planner computes the arithmetic in a request; arithmetic.evaluate stays safe."""

import json

import pytest

from agents.runtime import OfflinePlanner, RunState, ToolError
from agents.runtime.arithmetic import MAX_EXPRESSION_CHARS, evaluate
from agents.runtime.policies import find_expressions

from .helpers import make_agent, of_type, run, start


def plan(prompt: str):
    return run(None, state=start(prompt=prompt), policy=OfflinePlanner())


def test_computes_every_expression_with_calculate_calls():
    outcome, state, events, _ = plan("what is (17 * 23) + 4 and 2 ** 10?")

    assert outcome.status == "succeeded"
    assert "395" in outcome.message
    assert "1024" in outcome.message
    assert outcome.message == "Results:\n(17 * 23) + 4 = 395\n2 ** 10 = 1024"
    calls = of_type(events, "tool.call")
    assert [(c["name"], c["arguments"]) for c in calls] == [
        ("calculate", {"expression": "(17 * 23) + 4"}),
        ("calculate", {"expression": "2 ** 10"}),
    ]
    assert all(r["ok"] for r in of_type(events, "tool.result"))
    assert state.steps == 3
    assert state.tokens_used > 0
    assert events[0][1]["policy"] == "offline"


def test_without_arithmetic_it_says_so_plainly():
    outcome, state, events, _ = plan("Write me a poem about the sea.")
    assert outcome.status == "succeeded"
    assert "could not find anything I can do" in outcome.message
    assert "Write me a poem about the sea." in outcome.message
    assert "(17 * 23) + 4" in outcome.message  # the help text shows an example
    assert of_type(events, "tool.call") == []
    assert state.steps == 1


def test_division_by_zero_is_reported_not_crashed():
    outcome, _, events, _ = plan("how much is 10 / 0 and 3 + 4")
    assert outcome.status == "succeeded"
    assert "10 / 0: error: division by zero" in outcome.message
    assert "3 + 4 = 7" in outcome.message
    assert [r["ok"] for r in of_type(events, "tool.result")] == [False, True]


def test_planner_results_survive_a_checkpoint():
    checkpoint = json.dumps(start(prompt="compute 6 * 7 then 100 // 3").to_dict())
    while True:
        agent = make_agent(None, policy=OfflinePlanner())
        state = RunState.from_dict(json.loads(checkpoint))
        outcome = agent.step(state)
        checkpoint = json.dumps(state.to_dict())
        if outcome:
            break
    assert outcome.message == "Results:\n6 * 7 = 42\n100 // 3 = 33"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("what is (17 * 23) + 4 and 2 ** 10?", ["(17 * 23) + 4", "2 ** 10"]),
        ("1+1, again 1+1, and 2*3", ["1+1", "2*3"]),
        ("no numbers here", []),
        ("just 42 on its own", []),
        ("(2 + 3) * 4)", ["(2 + 3) * 4"]),
        ("3 ^ 2 and 8 ÷ 2", ["3 ^ 2", "8 ÷ 2"]),
    ],
)
def test_find_expressions(text, expected):
    assert find_expressions(text) == expected


# --- arithmetic.evaluate --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("(17 * 23) + 4", 395),
        ("2 ** 10", 1024),
        ("2 ^ 10", 1024),
        ("7 // 2", 3),
        ("7 % 4", 3),
        ("-3 + +5", 2),
        ("6 / 3", 2),
        ("1 / 4", 0.25),
        ("3 \u00d7 4 \u00f7 2", 6),  # multiplication and division signs
        ("  1.5 * 2  ", 3),
    ],
)
def test_evaluate(expression, value):
    result = evaluate(expression)
    assert result == value
    assert type(result) is type(value)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os')", "unsupported element"),
        ("__import__('os').system('echo hi')", "unsupported element"),
        ("x + 1", "unsupported element"),
        ("(1).real", "unsupported element"),
        ("abs(-1)", "unsupported element"),
        ("'a' * 3", "unsupported element"),
        ("True + 1", "unsupported element"),
        ("[1, 2]", "unsupported element"),
        ("1 if 1 else 2", "unsupported element"),
        ("2 ** 1000", "exponent too large"),
        ("9 ** 9 ** 9", "exponent too large"),
        ("10 ** 99 * 10 ** 99", "too large"),
        ("1e300 * 1e300", "too large"),
        ("1e100 ** 100", "too large"),
        ("1e99 * 10 ** 99", "too large"),
        ("(-8) ** 0.5", "not a finite real number"),
        ("1 / 0", "division by zero"),
        ("5 % 0", "division by zero"),
        ("", "empty"),
        ("   ", "empty"),
        ("1 +", "not an arithmetic expression"),
        ("1" + " + 1" * MAX_EXPRESSION_CHARS, "longer than"),
    ],
)
def test_evaluate_refuses(expression, message):
    with pytest.raises(ToolError, match=message):
        evaluate(expression)


@pytest.mark.parametrize("literal", ["1e999", "-1e999", "1" * 200])
def test_huge_literals_are_refused_too(literal):
    with pytest.raises(ToolError, match=r"not a finite real number|too large"):
        evaluate(literal)


def test_the_request_is_the_run_s_own_message_not_the_workspace_context():
    from agents.runtime import first_user_text
    from agents.runtime.protocols import PolicyInput

    messages = [
        {"role": "system", "content": "be careful"},
        {"role": "user", "name": "context-turn", "content": "an earlier request"},
        {"role": "assistant", "name": "context-turn", "content": "its answer"},
        {"role": "user", "name": "context-state", "content": '{"objects": []}'},
        {"role": "user", "content": "what is 2+2?"},
    ]
    assert first_user_text(PolicyInput(messages=messages, tools=[], step=1)) == "what is 2+2?"
