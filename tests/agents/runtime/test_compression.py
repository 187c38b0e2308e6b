"""Big observations go whole to the artifact store; the context keeps a summary and a budget."""

import json
import re

import pytest

from agents.runtime import Compressor, Decision, MemoryArtifacts, PolicyInput
from agents.runtime.builtin_tools import READ_LIMIT
from agents.runtime.compression import COMPRESSED_MARK, estimate_tokens
from agents.runtime.tools import ToolContext

from .helpers import (
    PROMPT,
    SYSTEM,
    act,
    call,
    final,
    of_type,
    registry,
    run,
    start,
    tool_messages,
)

REF = re.compile(r"ref='([^']+)'")


def big_text(size: int) -> str:
    return "".join(f"row {n:05d}: value {n * 7}\n" for n in range(size // 20 + 1))[:size]


# --- Compressor on its own ------------------------------------------------------------------


def test_compress_result_stores_the_whole_text_and_returns_a_summary():
    artifacts = MemoryArtifacts()
    text = big_text(10_000)
    summary, compression = Compressor(artifacts, preview_chars=50).compress_result(
        tool="blob", call_id="c1", content=text
    )
    assert artifacts.read(compression.artifact) == text
    assert summary.startswith(COMPRESSED_MARK)
    assert "10000 characters" in summary
    assert text[:50] in summary
    assert text[50:100] not in summary
    assert f"ref={compression.artifact!r}" in summary
    assert compression.to_payload() == {
        "tool_call_id": "c1",
        "tool": "blob",
        "original_chars": 10_000,
        "kept_chars": len(summary),
        "artifact": compression.artifact,
        "trigger": "size",
    }


def test_fit_budget_does_nothing_under_budget():
    messages = [{"role": "tool", "tool_call_id": "t", "name": "x", "content": "y" * 1000}]
    before = json.dumps(messages)
    assert Compressor(MemoryArtifacts(), token_budget=10_000).fit_budget(messages) == []
    assert json.dumps(messages) == before


def conversation(observations: int, size: int) -> list[dict]:
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": PROMPT}]
    for n in range(observations):
        call_id = f"c{n}"
        messages.append({"role": "assistant", "content": None, "tool_calls": [{"id": call_id}]})
        messages.append(
            {"role": "tool", "tool_call_id": call_id, "name": "blob", "content": big_text(size)}
        )
    return messages


def test_fit_budget_compresses_the_oldest_observations_in_one_block():
    artifacts = MemoryArtifacts()
    messages = conversation(observations=12, size=1500)
    originals = [dict(m) for m in messages]
    compressor = Compressor(artifacts, token_budget=2500)
    assert estimate_tokens(messages) > 2500

    done = compressor.fit_budget(messages)

    assert len(done) > 1  # a block, not one message per call
    assert estimate_tokens(messages) <= compressor.token_budget * 3 // 4
    assert [c.tool_call_id for c in done] == [f"c{n}" for n in range(len(done))]
    assert all(c.trigger == "budget" for c in done)
    for compression in done:
        assert artifacts.read(compression.artifact) == big_text(1500)
    # older observations are summaries, the newest ones are untouched
    tools = [m for m in messages if m["role"] == "tool"]
    assert all(m["content"].startswith(COMPRESSED_MARK) for m in tools[: len(done)])
    assert all(m["content"] == big_text(1500) for m in tools[len(done) :])
    # everything but those observations is byte-identical
    for before, after in zip(originals, messages, strict=True):
        if after["role"] != "tool" or not after["content"].startswith(COMPRESSED_MARK):
            assert json.dumps(before) == json.dumps(after)
    # calling again while within budget rewrites nothing
    assert compressor.fit_budget(messages) == []


def test_fit_budget_skips_small_and_non_tool_messages():
    messages = [
        {"role": "system", "content": "s" * 5000},
        {"role": "user", "content": "u" * 5000},
        {"role": "tool", "tool_call_id": "small", "name": "x", "content": "t" * 399},
    ]
    before = json.dumps(messages)
    assert Compressor(MemoryArtifacts(), token_budget=100).fit_budget(messages) == []
    assert json.dumps(messages) == before


# --- read_artifact --------------------------------------------------------------------------


def read(artifacts, **arguments):
    context = ToolContext(artifacts=artifacts, progress=lambda fraction, message="": None)
    return registry().execute(call("read_artifact", **arguments), context)


def test_read_artifact_reads_slices_with_next_offset():
    artifacts = MemoryArtifacts()
    text = big_text(250)
    ref = artifacts.put(name="t.txt", content=text)

    first = read(artifacts, ref=ref, limit=100).data
    assert first == {
        "ref": ref,
        "offset": 0,
        "text": text[:100],
        "total_chars": 250,
        "next_offset": 100,
    }
    second = read(artifacts, ref=ref, offset=100, limit=100).data
    third = read(artifacts, ref=ref, offset=200, limit=100).data
    assert second["next_offset"] == 200
    assert third["text"] == text[200:]
    assert third["next_offset"] is None
    assert first["text"] + second["text"] + third["text"] == text
    past_the_end = read(artifacts, ref=ref, offset=1000).data
    assert past_the_end["text"] == "" and past_the_end["next_offset"] is None


def test_read_artifact_default_limit_and_unknown_ref():
    artifacts = MemoryArtifacts()
    ref = artifacts.put(name="t.txt", content="z" * (READ_LIMIT + 10))
    assert len(read(artifacts, ref=ref).data["text"]) == READ_LIMIT
    missing = read(artifacts, ref="mem-99-nothing")
    assert not missing.ok
    assert missing.content == "error: no artifact 'mem-99-nothing' in this run"
    too_much = read(artifacts, ref=ref, limit=READ_LIMIT + 1)
    assert not too_much.ok and "limit" in too_much.content


# --- through the loop -----------------------------------------------------------------------


def test_a_large_result_is_stored_whole_and_read_back_in_slices():
    text_size = 10_000
    pages = []

    def read_page(context: PolicyInput) -> Decision:
        last = tool_messages_of(context)[-1]
        if last["name"] == "blob":
            ref, offset = REF.search(last["content"]).group(1), 0
        else:
            page = json.loads(last["content"])
            pages.append(page["text"])
            ref, offset = page["ref"], page["next_offset"]
            if offset is None or len(pages) == 3:
                return final("read enough")
        return act(call("read_artifact", f"r{context.step}", ref=ref, offset=offset, limit=1000))

    outcome, state, events, agent = run([act(call("blob", "b1", size=text_size)), *[read_page] * 5])

    original = blob_of(text_size, "x")
    (compressed,) = of_type(events, "observation.compressed")
    assert compressed["tool_call_id"] == "b1"
    assert compressed["trigger"] == "size"
    assert compressed["original_chars"] == text_size
    assert agent.artifacts.read(compressed["artifact"]) == original
    blob_message = tool_messages(state)[0]
    assert blob_message["content"].startswith(COMPRESSED_MARK)
    assert compressed["artifact"] in blob_message["content"]
    assert len(blob_message["content"]) < agent.compressor.observation_cap
    blob_result = of_type(events, "tool.result")[0]
    assert blob_result["artifact"] == compressed["artifact"]
    assert blob_result["chars"] == text_size
    assert blob_result["truncated"] is True
    assert blob_result["content"] == original[:2000]
    assert "".join(pages) == original[:3000]
    assert outcome.status == "succeeded"


def tool_messages_of(context: PolicyInput) -> list[dict]:
    return [m for m in context.messages if m["role"] == "tool"]


def test_results_at_the_cap_are_kept_whole():
    _, state, events, _ = run(
        [act(call("blob", size=300)), final()], compressor={"observation_cap": 300}
    )
    assert of_type(events, "observation.compressed") == []
    assert tool_messages(state)[0]["content"] == blob_of(300, "x")


@pytest.mark.parametrize("observation_cap", [4000, 1000])
def test_read_artifact_pages_are_not_compressed_again(observation_cap):
    """Reading back a compressed observation must show its text, not yet another summary."""
    accented = "Zürich café — naïve résumé, €12 ± 3 µs. " * 400

    def read_back(context: PolicyInput) -> Decision:
        ref = REF.search(tool_messages_of(context)[-1]["content"]).group(1)
        return act(call("read_artifact", "r1", ref=ref))

    outcome, state, _, _ = run(
        [act(call("echo", "e1", text=accented)), read_back, final()],
        compressor={"observation_cap": observation_cap},
    )
    page = tool_messages(state)[1]["content"]
    assert not page.startswith(COMPRESSED_MARK)
    assert json.loads(page)["text"] == ("echo: " + accented)[:READ_LIMIT]
    assert outcome.status == "succeeded"


def test_context_budget_compresses_medium_results_in_blocks_and_keeps_the_prefix():
    budget = 3000
    seen = []

    def gather(context: PolicyInput) -> Decision:
        seen.append((estimate_tokens(context.messages), json.dumps(context.messages[:2])))
        if context.step > 15:
            return final("gathered")
        return act(call("blob", f"b{context.step}", size=1500, tag=f"t{context.step}"))

    outcome, state, events, agent = run([gather] * 16, compressor={"token_budget": budget})
    prefix = json.dumps(start().messages)

    compressions = of_type(events, "observation.compressed")
    assert len(compressions) >= 5
    assert all(c["trigger"] == "budget" for c in compressions)
    # compressed in blocks: fewer rewrites of the history than compressed observations
    rewrites = [
        n
        for n, (kind, _) in enumerate(events)
        if kind == "observation.compressed" and events[n - 1][0] != "observation.compressed"
    ]
    assert len(rewrites) < len(compressions)
    # every request fit the budget and kept the system prompt and first user message intact
    for tokens, first_two in seen:
        assert tokens <= budget
        assert first_two == prefix
    assert json.dumps(state.messages[:2]) == prefix
    # the compressed observations are still whole in the store
    for compression in compressions:
        n = int(compression["tool_call_id"][1:])
        assert agent.artifacts.read(compression["artifact"]) == blob_of(1500, f"t{n}")
    assert outcome.status == "succeeded"


def blob_of(size: int, tag: str) -> str:
    line = f"{tag} line of data\n"
    return (line * (size // len(line) + 1))[:size]


def test_estimate_tokens_grows_with_content():
    small = [{"role": "user", "content": "hi"}]
    large = [{"role": "user", "content": "hi" * 1000}]
    assert 0 < estimate_tokens(small) < estimate_tokens(large)
    assert estimate_tokens([]) == 1


def test_memory_artifacts_refs_are_unique_and_unknown_refs_raise_key_error():
    artifacts = MemoryArtifacts()
    first = artifacts.put(name="a.txt", content="one")
    second = artifacts.put(name="a.txt", content="two")
    assert first != second
    assert (artifacts.read(first), artifacts.read(second)) == ("one", "two")
    with pytest.raises(KeyError):
        artifacts.read("missing")
