"""The model client against a fake OpenAI-compatible server: prefix reuse, context size, overhead.

Part 1, a long scripted run: the fake model (tests/fakes/openai_server.py, real HTTP on 127.0.0.1)
calls a tool at every step (`read_page`, --output-chars characters of text each) for --steps
steps, then answers. The run goes through the real `Agent` loop with `ModelPolicy` (native tool
calls, streamed) and a small `Compressor` token budget (--budget), so compression blocks kick in.
It prints

* prompt tokens per request (as the server counts them, and the runtime's estimate that the
  budget bounds): min / median / max;
* the share of each request that repeats the previous request's prefix: bytes of the common prefix
  of the two serialized message lists / bytes of the current one, mean, median and min; also over
  tools + messages (the order in which a server lays out its prompt) and over the raw HTTP body.
  Below 100% are the new step itself, and the few requests right after a compression block, which
  rewrites old observations (the first block rewrites the very first one: that is the minimum).

Part 2, the client's own overhead per model call, with the server answering at once: the median
time of `ModelPolicy.decide` against a bare keep-alive HTTP request (`httpx2`, the SDK's
transport) that posts the same body, reads the same SSE answer and parses its JSON, interleaved
in one process, for a short and a long context (--history steps). Wall time and the calling
thread's CPU time are both shown: on a busy machine the CPU time is the steadier figure.

    uv run python bench/model_client.py
    uv run python bench/model_client.py --steps 100 --budget 12000 --output-chars 1200 --calls 100
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import httpx2  # noqa: E402

from agents.runtime import (  # noqa: E402
    BUILTIN_TOOLS,
    Agent,
    Budget,
    Compressor,
    ListSink,
    MemoryArtifacts,
    PolicyInput,
    RunState,
    Tool,
    ToolRegistry,
    events,
)
from agents.runtime.compression import estimate_tokens  # noqa: E402
from agents.runtime.model import ModelPolicy  # noqa: E402
from tests.fakes.openai_server import FakeOpenAI, Reply, Request  # noqa: E402

PREFIX_GOAL = 0.90
OVERHEAD_GOAL_MS = 2.0
SYSTEM = "You are a research assistant. Read the pages you are asked about with read_page."
WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]


# --- part 1: a long scripted run ---------------------------------------------------------------


def page_tool(chars: int) -> Tool:
    def read_page(arguments: dict[str, Any], context: Any) -> str:
        rng = random.Random(arguments["page"])
        text = " ".join(rng.choice(WORDS) for _ in range(chars // 4))
        return f"page {arguments['page']}: {text}"[:chars]

    return Tool(
        "read_page",
        "Read one page of the document.",
        {
            "type": "object",
            "properties": {"page": {"type": "integer", "minimum": 1}},
            "required": ["page"],
            "additionalProperties": False,
        },
        read_page,
    )


def scripted_model(steps: int):
    """Calls read_page once a step (stateless: it counts the results it has seen), then answers."""

    def respond(request: Request) -> Reply:
        done = sum(1 for message in request.messages if message.get("role") == "tool")
        if done < steps:
            page = done + 1
            return Reply.call("read_page", {"page": page}, text=f"Reading page {page}.")
        return Reply.say(f"I read {done} pages.")

    return respond


def common_prefix(a: bytes, b: bytes) -> int:
    limit = min(len(a), len(b))
    for index in range(limit):
        if a[index] != b[index]:
            return index
    return limit


def compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def rendered(request: Request) -> bytes:
    """The request the way a server lays out its prompt: the tools first, then the messages."""
    return compact(request.tools) + compact(request.messages)


def stats(values: Sequence[float]) -> str:
    return (
        f"min {min(values):,.0f}  median {statistics.median(values):,.0f}  max {max(values):,.0f}"
    )


def long_run(steps: int, budget: int, output_chars: int) -> dict[str, Any]:
    with FakeOpenAI(responder=scripted_model(steps)) as server:
        artifacts = MemoryArtifacts()
        sink = ListSink()
        agent = Agent(
            policy=ModelPolicy(server.config(read_timeout=30.0)),
            tools=ToolRegistry([*BUILTIN_TOOLS, page_tool(output_chars)]),
            sink=sink,
            artifacts=artifacts,
            budget=Budget(max_steps=steps + 10, max_tokens=10**9, max_seconds=3600),
            compressor=Compressor(artifacts, token_budget=budget),
        )
        started = time.perf_counter()
        outcome = agent.run(RunState.start(prompt="Read the whole document.", system=SYSTEM))
        elapsed = time.perf_counter() - started
        requests = server.chat_requests
    assert outcome.status == "succeeded", outcome.message
    server_tokens = [
        payload["usage"]["prompt_tokens"]
        for kind, payload in sink.events
        if kind == events.MODEL_MESSAGE
    ]
    estimated = [estimate_tokens(request.messages) for request in requests]
    message_shares, prompt_shares, raw_shares = [], [], []
    for previous, current in itertools.pairwise(requests):
        before, now = compact(previous.messages), compact(current.messages)
        message_shares.append(common_prefix(before, now) / len(now))
        before, now = rendered(previous), rendered(current)
        prompt_shares.append(common_prefix(before, now) / len(now))
        raw_shares.append(common_prefix(previous.raw, current.raw) / len(current.raw))
    compressions, blocks, decided = 0, set(), 0
    for kind, payload in sink.events:
        if kind == events.MODEL_MESSAGE:
            decided += 1
        elif kind == events.OBSERVATION_COMPRESSED and payload["trigger"] == "budget":
            compressions += 1
            blocks.add(decided)
    return {
        "requests": len(requests),
        "elapsed_s": elapsed,
        "server_tokens": server_tokens,
        "estimated": estimated,
        "message_shares": message_shares,
        "prompt_shares": prompt_shares,
        "raw_shares": raw_shares,
        "compressions": compressions,
        "blocks": len(blocks),
    }


# --- part 2: the client's own overhead ----------------------------------------------------------


def conversation(history: int) -> list[dict[str, Any]]:
    """A system prompt, a task and `history` finished calculate steps."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "What is 6 * 7?"},
    ]
    for index in range(history):
        call = {
            "id": f"call_{index}",
            "type": "function",
            "function": {"name": "calculate", "arguments": '{"expression": "6*7"}'},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call["id"],
                "name": "calculate",
                "content": '{"expression": "6*7", "value": 42}',
            }
        )
    return messages


def overhead(calls: int, history: int) -> dict[str, Any]:
    """decide() against a bare request of the same body, interleaved, with an instant server."""
    tools = ToolRegistry(BUILTIN_TOOLS)
    reply = Reply.call("calculate", {"expression": "6*7"}, text="Computing 6*7.")
    with FakeOpenAI(responder=lambda request: reply) as server:
        policy = ModelPolicy(server.config())
        context = PolicyInput(messages=conversation(history), tools=tools.specs(), step=1)
        body = policy.request_body(context)
        url = f"{server.base_url}/chat/completions"
        headers = {"Content-Type": "application/json", "Authorization": "Bearer EMPTY"}
        raw_client = httpx2.Client(timeout=30.0)

        def bare() -> None:
            """The floor: serialize, post, read the SSE lines and parse each JSON chunk."""
            content = compact(body)
            with raw_client.stream("POST", url, content=content, headers=headers) as response:
                for line in response.iter_lines():
                    if line.startswith("data: {"):
                        json.loads(line[6:])

        for _ in range(20):  # warm up both paths (imports, connection pools)
            policy.decide(context)
            bare()
        server.requests.clear()
        connections = server.connections
        decide_ms, bare_ms, decide_cpu, bare_cpu = [], [], [], []
        for _ in range(calls):
            started, cpu = time.perf_counter(), time.thread_time()
            policy.decide(context)
            decide_ms.append((time.perf_counter() - started) * 1000)
            decide_cpu.append((time.thread_time() - cpu) * 1000)
            started, cpu = time.perf_counter(), time.thread_time()
            bare()
            bare_ms.append((time.perf_counter() - started) * 1000)
            bare_cpu.append((time.thread_time() - cpu) * 1000)
        served = [request.server_ms for request in server.chat_requests]
        connections = server.connections - connections
        raw_client.close()
    paired = [d - b for d, b in zip(decide_ms, bare_ms, strict=True)]
    paired_cpu = [d - b for d, b in zip(decide_cpu, bare_cpu, strict=True)]
    return {
        "calls": calls,
        "messages": len(context.messages),
        "body_bytes": len(compact(body)),
        "decide_ms": statistics.median(decide_ms),
        "bare_ms": statistics.median(bare_ms),
        "server_ms": statistics.median(served),
        "paired_ms": statistics.median(paired),
        "decide_cpu_ms": statistics.median(decide_cpu),
        "bare_cpu_ms": statistics.median(bare_cpu),
        "paired_cpu_ms": statistics.median(paired_cpu),
        "connections": connections,
    }


# --- report ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--budget", type=int, default=16000, help="Compressor token_budget")
    parser.add_argument("--output-chars", type=int, default=1000, help="size of each tool result")
    parser.add_argument("--calls", type=int, default=300, help="model calls for the overhead")
    parser.add_argument(
        "--history", type=int, nargs="+", default=[10, 100], help="tool steps in that context"
    )
    args = parser.parse_args(argv)

    print(
        "$ uv run python bench/model_client.py "
        + shlex.join(sys.argv[1:] if argv is None else argv)
    )
    run = long_run(args.steps, args.budget, args.output_chars)
    print(
        f"\n1. scripted run: {args.steps} tool steps + final answer = {run['requests']} requests "
        f"in {run['elapsed_s']:.1f} s; tool results of {args.output_chars} chars; "
        f"Compressor token_budget {args.budget}"
    )
    print(f"   prompt tokens per request, server count:   {stats(run['server_tokens'])}")
    print(f"   prompt tokens per request, runtime estimate: {stats(run['estimated'])}")
    bounded = max(run["estimated"]) <= args.budget
    print(
        f"   context bounded by the budget: {'yes' if bounded else 'NO'} "
        f"({run['compressions']} observations compressed in {run['blocks']} blocks)"
    )
    print("   share of each request repeating the previous request's prefix (requests 2..n):")
    views = [
        ("serialized messages", run["message_shares"]),
        ("tools + messages, as a server lays out the prompt", run["prompt_shares"]),
        ("raw HTTP body (tools after the messages)", run["raw_shares"]),
    ]
    for label, shares in views:
        print(
            f"     {label + ':':52} mean {statistics.mean(shares):6.1%}  "
            f"median {statistics.median(shares):6.1%}  min {min(shares):6.1%}"
        )
    mean = statistics.mean(run["message_shares"])
    print(
        f"   goal: mean >= {PREFIX_GOAL:.0%} (serialized messages): "
        f"{'met' if mean >= PREFIX_GOAL else 'NOT met'}; the minimum is the first compression "
        "block, which rewrites the oldest observation, near the start of the history"
    )

    print(
        f"\n2. client overhead per model call, fake server answering at once; {args.calls} calls "
        "each, decide() and a bare httpx2 request of the same body interleaved"
    )
    print(
        "   wall ms: decide, bare, server; client-thread CPU ms: decide, bare;"
        " overhead = decide - bare (median of pairs)"
    )
    worst = 0.0
    for history in args.history:
        cost = overhead(args.calls, history)
        worst = max(worst, cost["paired_ms"])
        print(
            f"   {cost['messages']:3} messages, {cost['body_bytes'] / 1024:4.1f} KiB: "
            f"wall {cost['decide_ms']:5.2f} {cost['bare_ms']:5.2f} {cost['server_ms']:5.2f}"
            f"  cpu {cost['decide_cpu_ms']:5.2f} {cost['bare_cpu_ms']:5.2f}"
            f"  overhead: wall {cost['paired_ms']:5.2f} ms, cpu {cost['paired_cpu_ms']:5.2f} ms"
            f"  ({cost['connections']} new connections in {2 * cost['calls']} requests)"
        )
    met = worst <= OVERHEAD_GOAL_MS
    print(f"   goal: median overhead <= {OVERHEAD_GOAL_MS:g} ms: {'met' if met else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
