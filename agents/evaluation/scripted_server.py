"""A scripted OpenAI-compatible chat-completions server: real HTTP on 127.0.0.1, scripted replies.

The tests script it to drive the model path; the evaluation's quality control (`agents.evaluation
.qc`) replays gold, null and wrong solvers through it, so they take the code a GPU model takes.

    with FakeOpenAI() as server:
        server.script(Reply.call("calculate", '{"expression": "6*7"}'), Reply.say("42"))
        policy = ModelPolicy(server.config())

Every reply is a `Reply`: text and/or tool calls (arguments as raw strings, so malformed JSON is
possible), or an HTTP error. A streamed reply is rendered as SSE chunks the way vLLM and OpenAI
send them, then (optionally) re-split at seeded random byte offsets, each piece flushed on its
own, with latency before the first byte and between pieces. Faults: an HTTP status with headers
(429 + Retry-After, 503, 400 ...), a connection dropped after part of the stream, a stream that
ends without a finish_reason. Replies come from a queue (`script`), else from `responder`, a
function of the request. Every request is recorded, parsed and as raw bytes.

When a request carries no `tools` (the prompt-based fallback), tool calls are rendered as
`<tool_call>{"name": ..., "arguments": ...}</tool_call>` text blocks, so one script serves both
tool modes.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import itertools
import json
import socket
import threading
from collections.abc import Sequence
from http.server import ThreadingHTTPServer
from typing import Any

from agents.evaluation.scripted_http import Handler, Server, error_body, split_bytes
from agents.evaluation.scripted_replies import (
    AUTO,
    MODEL,
    Call,
    Faults,
    Reply,
    Request,
    Responder,
    arithmetic_model,
    tool_results,
)

__all__ = [
    "AUTO",
    "MODEL",
    "Call",
    "FakeOpenAI",
    "Faults",
    "Reply",
    "Request",
    "Responder",
    "arithmetic_model",
    "split_bytes",
    "tool_results",
]


# --- the server --------------------------------------------------------------------------------


class FakeOpenAI:
    """The fake server; `start()` it (or use it as a context manager), script it, inspect it."""

    def __init__(self, *, model: str = MODEL, responder: Responder | None = None) -> None:
        self.model = model
        self.responder = responder
        self.queue: collections.deque[Reply] = collections.deque()
        self.requests: list[Request] = []
        self.lock = threading.Lock()
        self._ids = itertools.count(1)
        self.models_failure: Reply | None = None
        """When set, `GET /v1/models` answers with this error reply (401, 503...)."""
        self.connections = 0
        """TCP connections accepted (a client that reuses its connections opens few)."""
        self._open: set[socket.socket] = set()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle --
    def start(self) -> FakeOpenAI:
        handler = type("Handler", (Handler,), {"fake": self})
        self._httpd = Server(("127.0.0.1", 0), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        with self.lock:
            sockets, self._open = list(self._open), set()
        for sock in sockets:  # kept alive by clients: end them so their threads finish
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "the fake server is not started"
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting --
    def script(self, *replies: Reply) -> FakeOpenAI:
        """Queue replies; they are served first, in order, before `responder` is asked."""
        with self.lock:
            self.queue.extend(replies)
        return self

    def reset(self) -> None:
        with self.lock:
            self.queue.clear()
            self.requests.clear()
            self.responder = None

    def config(self, **overrides: Any) -> Any:
        """A ModelConfig for this server with tiny backoff and timeouts (tests must be fast)."""
        from agents.runtime.model import ModelConfig

        values: dict[str, Any] = {
            "base_url": self.base_url,
            "model": self.model,
            "connect_timeout": 2.0,
            "read_timeout": 5.0,
            "backoff_base": 0.001,
            "backoff_max": 1.0,
            "delta_interval": 0.0,
        }
        return ModelConfig(**{**values, **overrides})

    # -- inspection --
    @property
    def chat_requests(self) -> list[Request]:
        return [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]

    @property
    def pending(self) -> int:
        return len(self.queue)

    # -- answering (called from the handler threads) --
    def _next_reply(self, request: Request) -> Reply:
        with self.lock:
            if self.queue:
                return self.queue.popleft()
            responder = self.responder
        if responder is not None:
            return responder(request)
        return Reply.fail(
            418, f"fake server: nothing scripted for request #{request.index}", error_type="fake"
        )

    def _previous_raw(self, request: Request) -> bytes:
        chats = [r for r in self.chat_requests if r.index < request.index]
        return chats[-1].raw if chats else b""

    def _usage(self, request: Request, reply: Reply, text: str, calls: Sequence[Call]) -> Any:
        if reply.usage is False:
            return None
        prompt = max(1, len(request.raw) // 4)
        cached = _common_prefix(request.raw, self._previous_raw(request)) // 4
        completion = max(
            1, (len(text) + sum(len(call.raw) + len(call.name) for call in calls)) // 4
        )
        figures = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "cached_tokens": cached,
        }
        if isinstance(reply.usage, dict):
            figures.update(reply.usage)
        return {
            "prompt_tokens": figures["prompt_tokens"],
            "completion_tokens": figures["completion_tokens"],
            "total_tokens": figures["prompt_tokens"] + figures["completion_tokens"],
            "prompt_tokens_details": {"cached_tokens": figures["cached_tokens"]},
        }

    def _shape(self, request: Request, reply: Reply) -> tuple[str, list[Call], str | None]:
        """(text, native calls with ids, finish_reason) as this request should see them."""
        render = reply.render
        if render == AUTO:
            render = "native" if request.tools else "prompt"
        text, calls = reply.text, list(reply.calls)
        if render == "prompt" and calls:
            blocks = [
                f'<tool_call>{{"name": "{c.name}", "arguments": {c.raw or "{}"}}}</tool_call>'
                for c in calls
            ]
            text = "\n".join(filter(None, [text, *blocks]))
            calls = []
        calls = [
            dataclasses.replace(call, id=call.id or f"call_{next(self._ids)}") for call in calls
        ]
        finish = reply.finish_reason
        if finish == AUTO:
            finish = "tool_calls" if calls else "stop"
        return text, calls, finish

    def completion(self, request: Request, reply: Reply) -> dict[str, Any]:
        text, calls, finish = self._shape(request, reply)
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.raw},
                }
                for call in calls
            ]
        body: dict[str, Any] = {
            "id": f"chatcmpl-{request.index}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": self.model,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        }
        usage = self._usage(request, reply, text, calls)
        if usage is not None:
            body["usage"] = usage
        return body

    def stream_events(self, request: Request, reply: Reply) -> list[bytes]:
        """The SSE events of a streamed reply, each `data: ...\\n\\n`."""
        text, calls, finish = self._shape(request, reply)
        ident = f"chatcmpl-{request.index}"

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            return {
                "id": ident,
                "object": "chat.completion.chunk",
                "created": 1_700_000_000,
                "model": self.model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
            }

        chunks = [chunk({"role": "assistant", "content": ""})]
        chunks += [chunk({"content": piece}) for piece in _pieces(text, reply.text_piece)]
        per_call: list[list[dict[str, Any]]] = []
        for index, call in enumerate(calls):
            opening = {
                "index": index,
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            parts = [opening] + [
                {"index": index, "function": {"arguments": piece}}
                for piece in _pieces(call.raw, reply.args_piece)
            ]
            per_call.append(parts)
        if reply.interleave:
            ordered = [
                part
                for group in itertools.zip_longest(*per_call)
                for part in group
                if part is not None
            ]
        else:
            ordered = [part for parts in per_call for part in parts]
        chunks += [chunk({"tool_calls": [part]}) for part in ordered]
        if finish is not None:
            chunks.append(chunk({}, finish))
        include_usage = bool(
            ((request.body or {}).get("stream_options") or {}).get("include_usage")
        )
        usage = self._usage(request, reply, text, calls) if include_usage else None
        if usage is not None:
            chunks.append(
                {
                    "id": ident,
                    "object": "chat.completion.chunk",
                    "created": 1_700_000_000,
                    "model": self.model,
                    "choices": [],
                    "usage": usage,
                }
            )
        events = [b"data: " + json.dumps(item).encode() + b"\n\n" for item in chunks]
        if reply.stream_error:
            error = error_body(reply.stream_error, "InternalServerError", 500)
            error["error"]["object"] = "error"
            events = events[: len(events) // 2]
            events.append(b"data: " + json.dumps(error).encode() + b"\n\n")
        return [*events, b"data: [DONE]\n\n"]


def _pieces(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[start : start + size] for start in range(0, len(text), size)]


def _common_prefix(a: bytes, b: bytes) -> int:
    limit = min(len(a), len(b))
    low, high = 0, limit
    while low < high:  # binary search on equal prefixes: fast for long requests
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
