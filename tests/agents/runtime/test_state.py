"""RunState is plain data: checkpoint after every unit, resume in a fresh Agent, same run."""

import json
import re

from agents.runtime import Decision, MemoryArtifacts, PolicyInput, RunState, ToolCall
from agents.runtime.compression import COMPRESSED_MARK

from .helpers import (
    FakeClock,
    act,
    call,
    final,
    make_agent,
    of_type,
    registry,
    start,
    types,
    without_timing,
)


def again(context: PolicyInput) -> Decision:
    return act(call("echo", f"again-{context.step}", text="again"))


def read_back(context: PolicyInput) -> Decision:
    assert context.messages[-1]["content"].startswith("Loop detected:")
    blob = next(m for m in context.messages if m.get("name") == "blob")
    ref = re.search(r"ref='([^']+)'", blob["content"]).group(1)
    return act(call("read_artifact", "read-1", ref=ref, limit=50), message="Reading it back.")


def answer(context: PolicyInput) -> Decision:
    page = json.loads(context.messages[-1]["content"])
    return final(f"First line: {page['text'].splitlines()[0]}")


SCRIPT = [
    act(
        call("echo", "a", text="hello"),
        call("calculate", "b", expression="2 ** 10"),
        call("blob", "c", size=6000),
        message="Starting.",
        tokens=10,
    ),
    again,
    again,
    again,
    read_back,
    answer,
]


def uninterrupted():
    agent = make_agent(SCRIPT, clock=FakeClock())
    state = start()
    outcome = agent.run(state)
    return outcome, state, agent.sink.events


def resumed_after_every_unit():
    artifacts = MemoryArtifacts()  # the host's store outlives the workers
    clock = FakeClock()
    checkpoint = json.dumps(start().to_dict())
    events, checkpoints = [], []
    while True:
        agent = make_agent(SCRIPT, tools=registry(), artifacts=artifacts, clock=clock)
        state = RunState.from_dict(json.loads(checkpoint))
        outcome = agent.step(state)
        events.extend(agent.sink.events)
        checkpoint = json.dumps(state.to_dict())
        checkpoints.append(checkpoint)
        if outcome is not None:
            return outcome, RunState.from_dict(json.loads(checkpoint)), events, checkpoints


def test_resuming_after_every_unit_gives_the_same_run():
    expected_outcome, expected_state, expected_events = uninterrupted()
    outcome, state, events, checkpoints = resumed_after_every_unit()

    assert outcome == expected_outcome
    assert outcome.status == "succeeded"
    assert outcome.message == "First line: x line of data"
    assert without_timing(events) == without_timing(expected_events)
    assert state.to_dict() == json.loads(json.dumps(expected_state.to_dict()))
    # the scenario really exercised what the checkpoint has to carry
    kinds = types(events)
    assert kinds.count("run.started") == 1
    assert "observation.compressed" in kinds
    assert any("loop detected" in p["message"] for p in of_type(events, "run.status"))
    assert len(checkpoints) == state.units == 13  # 6 decisions + 7 calls


def test_pending_calls_survive_the_checkpoint():
    agent = make_agent(SCRIPT)
    state = start()
    agent.step(state)
    restored = RunState.from_dict(json.loads(json.dumps(state.to_dict())))

    assert restored.pending == [
        ToolCall("a", "echo", {"text": "hello"}),
        ToolCall("b", "calculate", {"expression": "2 ** 10"}),
        ToolCall("c", "blob", {"size": 6000}),
    ]
    fresh = make_agent(SCRIPT)
    fresh.step(restored)
    (result,) = of_type(fresh.sink.events, "tool.result")
    assert result["id"] == "a"
    assert result["content"] == "echo: hello"
    assert [c.id for c in restored.pending] == ["b", "c"]
    assert "run.started" not in fresh.sink.types()


def test_a_warning_notice_survives_the_checkpoint():
    agent = make_agent(SCRIPT)
    state = start()
    while not state.notice:
        agent.step(state)
    restored = RunState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.notice == state.notice
    assert restored.recoveries == 1
    assert restored.stuck == state.stuck


def test_round_trip_of_a_mid_run_state_is_lossless():
    agent = make_agent(SCRIPT)
    state = start()
    for _ in range(5):
        agent.step(state)
    data = json.loads(json.dumps(state.to_dict()))
    restored = RunState.from_dict(data)
    assert restored == state
    assert restored.to_dict() == data
    assert any(
        m["content"].startswith(COMPRESSED_MARK) for m in restored.messages[3:] if m["content"]
    )


def test_a_finished_checkpoint_stays_finished():
    agent = make_agent([final("done")])
    state = start()
    outcome = agent.run(state)
    restored = RunState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert restored.finished
    again_agent = make_agent([final("other")])
    assert again_agent.step(restored) == outcome
    assert again_agent.sink.events == []


def test_start_and_defaults():
    state = RunState.start(prompt="hi", system="sys")
    assert state.messages == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "hi"},
    ]
    assert (state.steps, state.units, state.tokens_used, state.pending) == (0, 0, 0, [])
    assert not state.finished
    minimal = RunState.from_dict({"messages": state.messages})
    assert minimal == state
