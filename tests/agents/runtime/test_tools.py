"""Tool registry, argument validation, and errors fed back to the policy as observations."""

import json

import pytest
from jsonschema.exceptions import SchemaError

from agents.runtime import (
    BUILTIN_TOOLS,
    Decision,
    MemoryArtifacts,
    PolicyInput,
    Tool,
    ToolArgumentsError,
    ToolContext,
    ToolRegistry,
)

from .helpers import ECHO, act, call, final, of_type, registry, run, tool_messages


def context() -> ToolContext:
    return ToolContext(artifacts=MemoryArtifacts(), progress=lambda fraction, message="": None)


# --- the registry on its own ----------------------------------------------------------------


def test_names_and_specs_are_sorted_for_a_stable_prompt():
    tools = ToolRegistry([ECHO, *BUILTIN_TOOLS])
    assert tools.names == ["calculate", "echo", "read_artifact"]
    specs = tools.specs()
    assert [spec["function"]["name"] for spec in specs] == tools.names
    assert specs[1] == {
        "type": "function",
        "function": {
            "name": "echo",
            "description": "Echo text back.",
            "parameters": ECHO.parameters,
        },
    }
    assert "echo" in tools
    assert "nope" not in tools


def test_registering_twice_is_refused():
    tools = ToolRegistry([ECHO])
    with pytest.raises(ValueError, match="already registered"):
        tools.register(ECHO)


def test_an_invalid_schema_is_refused_at_registration():
    bad = Tool("bad", "Bad schema.", {"type": "no-such-type"}, lambda arguments, context: 1)
    with pytest.raises(SchemaError):
        ToolRegistry([bad])


def test_validate_unknown_tool_lists_available_ones():
    with pytest.raises(ToolArgumentsError, match=r"unknown tool 'nope'.*calculate, echo"):
        ToolRegistry([ECHO, *BUILTIN_TOOLS]).validate(call("nope"))


def test_validate_names_the_bad_argument():
    tools = ToolRegistry([ECHO])
    with pytest.raises(ToolArgumentsError, match=r"invalid arguments for echo: text: 5 is not"):
        tools.validate(call("echo", text=5))
    with pytest.raises(ToolArgumentsError, match=r"\(root\): 'text' is a required property"):
        tools.validate(call("echo"))
    with pytest.raises(ToolArgumentsError, match="'extra' was unexpected"):
        tools.validate(call("echo", text="a", extra=1))
    assert tools.validate(call("echo", text="a")) is ECHO


def test_execute_serialises_non_string_results_as_sorted_json():
    tool = Tool("data", "Data.", {"type": "object"}, lambda arguments, context: {"b": 2, "a": 1})
    result = ToolRegistry([tool]).execute(call("data"), context())
    assert result.ok
    assert result.content == '{"a": 1, "b": 2}'
    assert result.data == {"b": 2, "a": 1}
    assert result.duration_ms >= 0


def test_execute_passes_strings_through():
    result = ToolRegistry([ECHO]).execute(call("echo", text="hi"), context())
    assert (result.ok, result.content, result.data) == (True, "echo: hi", "echo: hi")


def test_execute_turns_every_failure_into_an_error_result():
    def crash(arguments, context):
        raise ZeroDivisionError("oops")

    tools = ToolRegistry([ECHO, Tool("crash", "Crash.", {"type": "object"}, crash)])
    unknown = tools.execute(call("nope"), context())
    invalid = tools.execute(call("echo"), context())
    crashed = tools.execute(call("crash"), context())
    assert not unknown.ok and unknown.content.startswith("error: unknown tool 'nope'")
    assert not invalid.ok and "'text' is a required property" in invalid.content
    assert not crashed.ok
    assert crashed.content == "error: crash failed: ZeroDivisionError: oops"


# --- errors fed back through the loop -------------------------------------------------------


def last_tool_message(context: PolicyInput) -> dict:
    return [m for m in context.messages if m["role"] == "tool"][-1]


@pytest.mark.parametrize(
    ("bad_call", "explanation"),
    [
        (call("echo", "c1", text=5), "5 is not of type 'string'"),
        (call("echo", "c1"), "'text' is a required property"),
        (call("echo", "c1", text="hi", loud=True), "'loud' was unexpected"),
        (call("shout", "c1", text="hi"), "unknown tool 'shout'"),
    ],
)
def test_a_bad_call_is_explained_and_the_policy_corrects_itself(bad_call, explanation):
    seen = {}

    def correct(context: PolicyInput) -> Decision:
        seen["error"] = last_tool_message(context)
        return act(call("echo", "c2", text="hi"))

    outcome, state, events, _ = run([act(bad_call), correct, final("fixed")])

    results = of_type(events, "tool.result")
    assert [r["ok"] for r in results] == [False, True]
    assert results[0]["id"] == "c1"
    assert explanation in results[0]["content"]
    assert results[0]["content"].startswith("error:")
    # the policy saw the explanation as the observation for its call
    assert seen["error"]["tool_call_id"] == "c1"
    assert explanation in seen["error"]["content"]
    assert tool_messages(state)[0] == seen["error"]
    assert tool_messages(state)[1]["content"] == "echo: hi"
    assert outcome.status == "succeeded"
    assert outcome.message == "fixed"


def test_a_crashing_tool_becomes_an_observation_not_a_crash():
    outcome, state, events, _ = run([act(call("boom", "b1")), final("recovered")])
    (result,) = of_type(events, "tool.result")
    assert result["ok"] is False
    assert result["content"] == "error: boom failed: RuntimeError: kaboom"
    assert tool_messages(state)[0]["content"] == "error: boom failed: RuntimeError: kaboom"
    assert outcome.status == "succeeded"
    assert events[-1][0] == "run.finished"


def test_a_tool_error_is_reported_with_its_message():
    _, state, events, _ = run([act(call("refuse")), final()])
    assert of_type(events, "tool.result")[0]["content"] == "error: not today"
    assert tool_messages(state)[0]["content"] == "error: not today"


def test_calculate_tool_through_the_loop():
    _, state, events, _ = run([act(call("calculate", expression="6 * 7")), final()])
    result = of_type(events, "tool.result")[0]
    assert result["ok"]
    assert json.loads(result["content"]) == {"expression": "6 * 7", "value": 42}
    assert json.loads(tool_messages(state)[0]["content"])["value"] == 42


def test_progress_is_reported_as_run_status():
    _, _, events, _ = run([act(call("progress")), final()])
    statuses = of_type(events, "run.status")
    assert statuses == [
        {"status": "running", "tool": "progress", "progress": 0.5, "message": "half way"}
    ]


def test_tool_context_carries_agent_options():
    seen = {}

    def peek(arguments, context):
        seen.update(context.options)
        return "ok"

    tools = registry(Tool("peek", "Peek.", {"type": "object"}, peek))
    run([act(call("peek")), final()], tools=tools, options={"workspace": "w1"})
    assert seen == {"workspace": "w1"}
