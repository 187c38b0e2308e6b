"""Consecutive requests of a run share a byte-identical prefix (the server's prefix cache hits).

The history is append-only: request n+1 starts with request n's messages, byte for byte, and the
tool list (or, in prompt mode, the system prompt that lists the tools) never changes. Only a
compression block rewrites old messages, and then the new history is stable again.
"""

from __future__ import annotations

import json
from itertools import pairwise

from agents.runtime import Budget, PolicyInput, events
from tests.agents.runtime.helpers import run
from tests.fakes.openai_server import Reply, Request


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True)


def messages_bytes(request: Request) -> tuple[int, int]:
    """(offset, length) of the messages array in the raw request, without its closing bracket."""
    serialized = json.dumps(request.messages, ensure_ascii=False, separators=(",", ":"))
    needle = serialized[:-1].encode()
    offset = request.raw.find(needle)
    assert offset >= 0, "the messages are serialized as compact JSON"
    return offset, len(needle)


def assert_prefix_kept(previous: Request, current: Request) -> None:
    count = len(previous.messages)
    assert canonical(current.messages[:count]) == canonical(previous.messages)
    assert canonical(current.tools) == canonical(previous.tools)
    # and in the raw bytes: everything up to the end of the previous messages is identical
    offset, length = messages_bytes(previous)
    assert current.raw[: offset + length] == previous.raw[: offset + length]
    assert len(current.messages) > count


def first_difference(previous: Request, current: Request) -> int:
    for index, (old, new) in enumerate(zip(previous.messages, current.messages, strict=False)):
        if canonical(old) != canonical(new):
            return index
    return len(previous.messages)


def test_consecutive_requests_share_their_prefix(fake_openai, make_policy, tool_mode):
    fake_openai.script(
        Reply.call("calculate", {"expression": "1+1"}, text="First."),
        Reply.calls_of(("calculate", {"expression": "2*3"}), ("echo", {"text": "\u00e9t\u00e9"})),
        Reply.call("calculate", '{"expression": "7"', text="Oops."),  # malformed: still stable
        Reply.call("count", "{}"),
        Reply.say("All done."),
    )

    outcome, _, _, _ = run(None, policy=make_policy(tool_mode=tool_mode))

    assert outcome.status == "succeeded"
    requests = fake_openai.chat_requests
    assert len(requests) == 5
    for previous, current in pairwise(requests):
        assert_prefix_kept(previous, current)
    if tool_mode == "prompt":
        assert len({canonical(r.messages[0]) for r in requests}) == 1
        assert all("tools" not in r.body for r in requests)
    else:
        assert len({canonical(r.tools) for r in requests}) == 1


def test_the_prefix_is_stable_around_compression_blocks(fake_openai, make_policy, tool_mode):
    steps = 30
    fake_openai.script(
        *[Reply.call("blob", {"size": 1500, "tag": f"step{index}"}) for index in range(steps)],
        Reply.say("Read everything."),
    )

    outcome, _, sink, _ = run(
        None,
        policy=make_policy(tool_mode=tool_mode),
        compressor={"token_budget": 6000},
        budget=Budget(max_steps=50),
    )

    assert outcome.status == "succeeded"
    requests = fake_openai.chat_requests
    assert len(requests) == steps + 1
    # which requests came right after a compression block
    decided, compressed_before = 0, set()
    for kind, payload in sink:
        if kind == events.MODEL_MESSAGE:
            decided += 1
        elif kind == events.OBSERVATION_COMPRESSED and payload["trigger"] == "budget":
            compressed_before.add(decided)
    assert len(compressed_before) >= 2, "the budget is small enough for compression to kick in"
    gaps = [later - earlier for earlier, later in pairwise(sorted(compressed_before))]
    assert min(gaps) >= 3, "compression rewrites the history in blocks, not at every step"
    for index, (previous, current) in enumerate(pairwise(requests), start=1):
        if index in compressed_before:
            changed = first_difference(previous, current)
            assert changed >= 2, "the system prompt and the task are never rewritten"
            assert canonical(current.tools) == canonical(previous.tools)
            assert "[compressed]" in current.messages[changed]["content"]
        else:
            assert_prefix_kept(previous, current)
    # the context stayed within its budget (~4 characters a token, plus the request's framing)
    assert max(len(r.raw) for r in requests) < 4 * 6000 * 1.2


def jsonb_order(value):
    """What PostgreSQL's jsonb does to a checkpoint: keys come back shortest first."""
    if isinstance(value, dict):
        return {key: jsonb_order(value[key]) for key in sorted(value, key=lambda k: (len(k), k))}
    if isinstance(value, list):
        return [jsonb_order(item) for item in value]
    return value


def test_the_request_bytes_do_not_depend_on_how_the_checkpoint_ordered_keys(
    fake_openai, make_policy, tool_mode
):
    """A worker that resumes a run from a jsonb checkpoint sends the same bytes as the one that
    built the messages in memory, so the prefix survives slice boundaries."""
    fake_openai.script(
        Reply.calls_of(("calculate", {"expression": "2*3"}), ("echo", {"text": "hi"})),
        Reply.say("done"),
    )
    policy = make_policy(tool_mode=tool_mode)
    outcome, state, _, agent = run(None, policy=policy)
    assert outcome.status == "succeeded"
    context = PolicyInput(messages=state.messages, tools=agent.tools.specs(), step=3)
    resumed = PolicyInput(messages=jsonb_order(state.messages), tools=context.tools, step=3)
    assert canonical(resumed.messages) == canonical(context.messages)

    sent = json.dumps(policy.request_body(context), ensure_ascii=False, separators=(",", ":"))
    again = json.dumps(policy.request_body(resumed), ensure_ascii=False, separators=(",", ":"))

    assert sent == again
