"""A long run outgrows even compressed observations: old turns are condensed into one summary."""

import itertools
import json
import re

import pytest

from agents.runtime import Budget, Decision, MemoryArtifacts, PolicyInput, RunState
from agents.runtime.compression import COMPRESSED_MARK, Compressor, estimate_tokens
from agents.runtime.condense import CONDENSED_MARK, condense, fit_context, is_summary

from .helpers import PROMPT, SYSTEM, act, call, final, make_agent, of_type, run, start

REF = re.compile(r"ref='([^']+)'")
CONTEXT = [
    {"role": "user", "name": "context-turn", "content": "An earlier request."},
    {"role": "assistant", "name": "context-turn", "content": "Its answer."},
]


def blob_of(size: int, tag: str) -> str:
    line = f"{tag} line of data\n"
    return (line * (size // len(line) + 1))[:size]


def check_messages(messages: list[dict], head: list[dict]) -> None:
    """What a chat API accepts: the head first, every tool result right after its call, at most
    one summary (just past the head), no call left without its result."""
    assert messages[: len(head)] == head
    summaries = [n for n, message in enumerate(messages) if is_summary(message)]
    assert summaries in ([], [len(head)])
    open_calls: set[str] = set()
    for previous, message in itertools.pairwise(messages):
        if message["role"] == "tool":
            assert previous["role"] in ("assistant", "tool")
            assert message["tool_call_id"] in open_calls
            open_calls.remove(message["tool_call_id"])
        else:
            assert not open_calls, f"calls without results: {open_calls}"
            if message["role"] == "assistant":
                open_calls = {c["id"] for c in message.get("tool_calls") or []}
    assert not open_calls


def long_script(steps: int, seen: list[int], head: list[dict], summaries: list[str]):
    """`steps` steps of one tool call with a 1-3 KB result each (every 50th refused), then done."""

    def step(context: PolicyInput) -> Decision:
        seen.append(estimate_tokens(context.messages))
        check_messages(context.messages, head)
        if len(context.messages) > len(head) and is_summary(context.messages[len(head)]):
            summaries.append(context.messages[len(head)]["content"])
        if context.step > steps:
            return final("done")
        if context.step % 50 == 0:
            return act(call("refuse", f"r{context.step}"), message=f"Trying step {context.step}.")
        size = 1000 + (context.step * 37) % 2000
        blob = call("blob", f"b{context.step}", size=size, tag=f"t{context.step}")
        return act(blob, message=f"Reading part {context.step}.")

    return [step] * (steps + 1)


@pytest.fixture(scope="module")
def long_run():
    seen: list[int] = []
    summaries: list[str] = []
    head = start().messages
    script = long_script(500, seen, head, summaries)
    outcome, state, events, agent = run(script, budget=Budget(max_steps=600))
    return outcome, state, events, agent, seen, summaries


def test_a_500_step_run_stays_under_a_32k_token_context(long_run):
    outcome, state, _, _, seen, _ = long_run
    assert outcome.status == "succeeded" and state.steps == 501
    assert len(seen) == 501
    assert max(seen) < 32_000
    assert max(seen) <= Compressor(MemoryArtifacts()).token_budget
    check_messages(state.messages, start().messages)
    assert len(state.messages) < 400  # 500 steps would be over 1000 messages


def test_condensed_events_and_artifacts_hold_the_removed_messages(long_run):
    _, state, events, agent, _, _ = long_run
    condensed = of_type(events, "context.condensed")
    assert len(condensed) >= 3
    first = condensed[0]
    assert first["first_step"] == 1 and first["steps_condensed"] == first["last_step"]
    for previous, payload in itertools.pairwise(condensed):
        assert payload["first_step"] == previous["last_step"] + 1
    for payload in condensed:
        assert payload["tokens_after"] < payload["tokens_before"]
        assert payload["tokens_after"] <= 24_000 // 2 + 500
        assert payload["tool_calls"] == payload["steps_condensed"]
    # the first artifact holds the first turns whole: the early call and its result
    removed = json.loads(agent.artifacts.read(first["artifact"]))
    assert len(removed) == first["messages_condensed"]
    call_message = next(m for m in removed if m["role"] == "assistant")
    assert call_message["tool_calls"][0]["id"] == "b1"
    assert json.loads(call_message["tool_calls"][0]["function"]["arguments"])["tag"] == "t1"
    result = next(m for m in removed if m.get("tool_call_id") == "b1")
    content = result["content"]
    if content.startswith(COMPRESSED_MARK):
        content = agent.artifacts.read(REF.search(content).group(1))
    assert content == blob_of(1037, "t1")
    # later transcripts start with the summary they replaced (folded, not nested)
    later = json.loads(agent.artifacts.read(condensed[1]["artifact"]))
    assert later[0]["content"].startswith(CONDENSED_MARK)
    assert len(later) == condensed[1]["messages_condensed"] + 1
    # the summary in the context counts every condensed message and step
    summary = state.messages[2]["content"]
    total = sum(payload["messages_condensed"] for payload in condensed)
    assert f"{total} earlier messages of {condensed[-1]['last_step']} steps" in summary
    assert condensed[-1]["artifact"] in summary


def test_the_summary_names_tool_calls_and_stays_bounded(long_run):
    _, _, events, _, _, summaries = long_run
    first = summaries[0]
    assert first.startswith(CONDENSED_MARK)
    last_step = of_type(events, "context.condensed")[0]["last_step"]
    tag, size = f"t{last_step}", 1000 + last_step * 37 % 2000
    assert f'- step {last_step} blob(size={size}, tag="{tag}") -> ok: {tag}' in first
    assert f"- step {last_step} said: Reading part {last_step}." in first
    assert "- step 100 refuse() -> error: not today" in first
    assert "read_artifact" in first
    assert REF.search(first).group(1) == of_type(events, "context.condensed")[0]["artifact"]
    # folded into one summary each time; old lines dropped (counted), never an unbounded list
    assert all(len(summary) <= 24_000 // 2 for summary in summaries)
    assert all(summary.count(CONDENSED_MARK) == 1 for summary in summaries)
    assert re.search(r"- \(\d+ earlier lines omitted", summaries[-1])


def test_the_policy_can_read_a_condensed_transcript_back():
    pages = []

    def work(context: PolicyInput) -> Decision:
        last = context.messages[-1]
        if last.get("name") == "read_artifact":
            pages.append(json.loads(last["content"])["text"])
            return final("read it")
        if len(context.messages) > 2 and is_summary(context.messages[2]):
            ref = REF.search(context.messages[2]["content"]).group(1)  # the first transcript
            return act(call("read_artifact", "read", ref=ref, limit=1200))
        return act(call("blob", f"b{context.step}", size=1500, tag=f"t{context.step}"))

    outcome, _, events, _ = run(
        [work] * 40, compressor={"token_budget": 3000}, budget=Budget(max_steps=100)
    )
    assert outcome.status == "succeeded"
    assert len(of_type(events, "context.condensed")) == 1
    assert pages[0].startswith('[\n{"role": "assistant"')
    assert '"id": "b1"' in pages[0] and '"tool_call_id": "b1"' in pages[0]


def test_a_short_run_is_never_condensed():
    outcome, state, events, _ = run(
        [act(call("blob", f"b{n}", size=2000)) for n in range(5)] + [final()]
    )
    assert outcome.status == "succeeded"
    assert of_type(events, "context.condensed") == []
    assert not any(is_summary(message) for message in state.messages)
    assert state.changed_from is None


def test_workspace_context_and_the_request_stay_at_the_head():
    state = start()
    state.messages[1:1] = [dict(message) for message in CONTEXT]
    head = [dict(message) for message in state.messages]
    seen: list[int] = []
    summaries: list[str] = []
    script = long_script(60, seen, head, summaries)
    outcome, state, events, _ = run(
        script, state=state, compressor={"token_budget": 4000}, budget=Budget(max_steps=100)
    )
    assert outcome.status == "succeeded"
    assert of_type(events, "context.condensed") and summaries
    assert max(seen) <= 4000
    assert state.messages[: len(head)] == head
    assert is_summary(state.messages[len(head)])


# --- changed_from -----------------------------------------------------------------------------


def test_changed_from_is_none_after_appends_only():
    agent = make_agent([act(call("echo", "e1", text="hi")), final()])
    state = start()
    state.mark_saved()
    agent.step(state)  # decide: appends the assistant message
    assert state.changed_from is None
    agent.step(state)  # act: appends the tool result
    assert state.changed_from is None
    assert "changed_from" not in state.to_dict()
    assert RunState.from_dict(state.to_dict()).changed_from is None


def conversation(steps: int, size: int) -> list[dict]:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": PROMPT}]
    for n in range(steps):
        arguments = json.dumps({"size": size})
        function = {"name": "blob", "arguments": arguments}
        tool_call = {"id": f"c{n}", "type": "function", "function": function}
        messages.append({"role": "assistant", "content": f"step {n}", "tool_calls": [tool_call]})
        messages.append(
            {"role": "tool", "tool_call_id": f"c{n}", "name": "blob", "content": "x" * size}
        )
    return messages


def test_changed_from_marks_the_first_compressed_observation():
    state = RunState(messages=conversation(12, 1500))
    agent = make_agent([final()], compressor={"token_budget": 4000})
    state.mark_saved()
    agent.step(state)
    assert of_type(agent.sink.events, "observation.compressed")
    assert of_type(agent.sink.events, "context.condensed") == []
    assert state.changed_from == 3  # the first tool message
    state.mark_saved()
    assert state.changed_from is None


def test_changed_from_marks_the_condensed_turns():
    state = RunState(messages=conversation(60, 500))
    state.changed_from = 50
    agent = make_agent([final()], compressor={"token_budget": 4000})
    agent.step(state)
    (condensed,) = of_type(agent.sink.events, "context.condensed")
    assert state.changed_from == 2  # the summary replaced everything from just past the request
    assert is_summary(state.messages[2])
    assert condensed["tokens_after"] == estimate_tokens(state.messages[:-1])


# --- condense on its own ----------------------------------------------------------------------


def test_condense_keeps_the_latest_group_whole_and_starts_the_tail_at_a_turn():
    messages = conversation(6, 3000)
    messages.insert(10, {"role": "user", "content": "Loop detected: change course."})
    artifacts = MemoryArtifacts()
    done = condense(messages, artifacts, target_tokens=100)
    assert done is not None
    assert messages[3:] == conversation(6, 3000)[-2:]  # only the latest call and its result
    assert done.first_step == 1 and done.last_step == 5 and done.messages_condensed == 11
    removed = json.loads(artifacts.read(done.artifact))
    assert removed[8] == {"role": "user", "content": "Loop detected: change course."}
    assert "- step 5 blob(size=3000) -> ok: xxx" in messages[2]["content"]
    # nothing more to condense: the latest group is all that is left past the summary
    assert condense(messages, artifacts, target_tokens=100) is None


def test_condense_does_nothing_without_turns_to_remove():
    artifacts = MemoryArtifacts()
    assert condense(conversation(1, 5000), artifacts, target_tokens=10) is None
    assert condense([{"role": "system", "content": "s"}], artifacts, target_tokens=10) is None
    assert artifacts.items == {}


def test_fit_context_within_budget_changes_nothing():
    messages = conversation(3, 100)
    before = json.dumps(messages)
    fitting = fit_context(Compressor(MemoryArtifacts()), messages)
    assert (fitting.compressions, fitting.condensation, fitting.changed_from) == ([], None, None)
    assert json.dumps(messages) == before
