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
import random
import re
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

MODEL = "fake-model"
AUTO = "auto"


# --- what a reply can be -------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One tool call in a reply; `arguments` is sent as given when it is a string."""

    name: str
    arguments: str | dict[str, Any] = ""
    id: str | None = None

    @property
    def raw(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments)


@dataclass(frozen=True)
class Reply:
    """One answer of the fake server (see the module docstring)."""

    text: str = ""
    calls: Sequence[Call] = ()
    status: int = 200
    error: str = ""
    error_type: str = "invalid_request_error"
    headers: dict[str, str] = field(default_factory=dict)
    finish_reason: str | None = AUTO
    usage: dict[str, int] | bool = True
    """True: computed (cached_tokens = common prefix with the previous request); False: none;
    a dict: these figures (prompt_tokens, completion_tokens, cached_tokens)."""
    pieces: int | None = None
    """Re-split the streamed bytes into this many pieces at seeded random offsets
    (None: one piece per SSE event)."""
    seed: int = 0
    first_byte_delay: float = 0.0
    chunk_delay: float = 0.0
    drop_after: int | float | None = None
    """Close the socket after this many bytes of the stream (a float in (0, 1): that share)."""
    text_piece: int = 4
    args_piece: int = 5
    interleave: bool = False
    """Interleave the argument deltas of parallel calls (index accumulation is then needed)."""
    render: Literal["auto", "native", "prompt"] = "auto"
    stream_error: str = ""
    """Send an error event half-way through the stream (as vLLM does when generation fails)."""

    # -- constructors --
    @classmethod
    def say(cls, text: str, **options: Any) -> Reply:
        return cls(text=text, **options)

    @classmethod
    def call(
        cls, name: str, arguments: str | dict[str, Any] = "", *, text: str = "", **options: Any
    ) -> Reply:
        return cls(text=text, calls=(Call(name, arguments),), **options)

    @classmethod
    def calls_of(cls, *calls: Call | tuple[str, str | dict[str, Any]], **options: Any) -> Reply:
        made = tuple(item if isinstance(item, Call) else Call(*item) for item in calls)
        return cls(calls=made, **options)

    @classmethod
    def fail(
        cls, status: int, message: str = "", headers: dict[str, str] | None = None, **options: Any
    ) -> Reply:
        return cls(
            status=status,
            error=message or f"fake server error {status}",
            headers=dict(headers or {}),
            **options,
        )

    @classmethod
    def rate_limited(cls, retry_after: str = "0.05", **options: Any) -> Reply:
        headers = {"Retry-After": retry_after}
        return cls.fail(429, "rate limit reached, slow down", headers, **options)

    @classmethod
    def unavailable(cls, **options: Any) -> Reply:
        return cls.fail(503, "the model is overloaded", **options)

    @classmethod
    def bad_request(cls, message: str = "response_format is not supported") -> Reply:
        return cls.fail(400, message)

    @classmethod
    def cut(cls, text: str = "half an ans", **options: Any) -> Reply:
        """A stream that ends (with [DONE]) but without a finish_reason."""
        return cls(text=text, finish_reason=None, **options)

    @classmethod
    def drop(cls, text: str = "this reply never ends properly", after: int | float = 0.5) -> Reply:
        return cls(text=text, drop_after=after)


Responder = Callable[["Request"], Reply]


@dataclass
class Request:
    """One request the server received."""

    index: int
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes
    body: Any
    received: float = 0.0
    answered: float = 0.0
    reply: Reply | None = None

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list((self.body or {}).get("messages", []))

    @property
    def tools(self) -> list[dict[str, Any]] | None:
        return (self.body or {}).get("tools")

    @property
    def streamed(self) -> bool:
        return bool((self.body or {}).get("stream"))

    @property
    def server_ms(self) -> float:
        """Time the server spent on it, from the whole body read to the last byte written."""
        return (self.answered - self.received) * 1000


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
        handler = type("Handler", (_Handler,), {"fake": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
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
            error = _error_body(reply.stream_error, "InternalServerError", 500)
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


def split_bytes(data: bytes, pieces: int, seed: int) -> list[bytes]:
    """Cut data at pieces-1 distinct seeded random offsets (anywhere: inside JSON, UTF-8 ...)."""
    if pieces <= 1 or len(data) <= 1:
        return [data]
    cuts = sorted(random.Random(seed).sample(range(1, len(data)), min(pieces - 1, len(data) - 1)))
    bounds = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that hang up (timeouts, closed pools) are normal here; anything else is not."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    fake: FakeOpenAI

    def setup(self) -> None:
        super().setup()
        with self.fake.lock:
            self.fake.connections += 1
            self.fake._open.add(self.connection)

    def finish(self) -> None:
        with self.fake.lock:
            self.fake._open.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- routing --
    def do_GET(self) -> None:
        request = self._record(b"")
        failure = self.fake.models_failure
        if request.path.rstrip("/") == "/v1/models" and failure is not None:
            body = _error_body(failure.error, failure.error_type, failure.status)
            self._send_json(failure.status, body, failure.headers)
        elif request.path.rstrip("/") == "/v1/models":
            model = {"id": self.fake.model, "object": "model", "created": 0, "owned_by": "fake"}
            self._send_json(200, {"object": "list", "data": [model]})
        else:
            self._send_json(404, _error_body(f"no route {request.path}", "not_found"))
        request.answered = time.perf_counter()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = self._record(self.rfile.read(length))
        try:
            if request.path.rstrip("/") != "/v1/chat/completions":
                self._send_json(404, _error_body(f"no route {request.path}", "not_found"))
                return
            reply = self.fake._next_reply(request)
            request.reply = reply
            if reply.first_byte_delay:
                time.sleep(reply.first_byte_delay)
            if reply.status != 200:
                body = _error_body(reply.error, reply.error_type, reply.status)
                self._send_json(reply.status, body, reply.headers)
            elif request.streamed:
                self._send_stream(request, reply)
            else:
                self._send_json(200, self.fake.completion(request, reply), reply.headers)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            request.answered = time.perf_counter()

    # -- helpers --
    def _record(self, raw: bytes) -> Request:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        with self.fake.lock:
            request = Request(
                index=len(self.fake.requests) + 1,
                method=self.command,
                path=self.path.split("?")[0],
                headers={key.lower(): value for key, value in self.headers.items()},
                raw=raw,
                body=body,
                received=time.perf_counter(),
            )
            self.fake.requests.append(request)
        return request

    def _send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_stream(self, request: Request, reply: Reply) -> None:
        events = self.fake.stream_events(request, reply)
        data = b"".join(events)
        parts: Iterable[bytes] = (
            split_bytes(data, reply.pieces, reply.seed) if reply.pieces else events
        )
        limit: int | None = None
        if reply.drop_after is not None:
            after = reply.drop_after
            limit = int(len(data) * after) if isinstance(after, float) else int(after)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.flush()
        sent = 0
        for index, part in enumerate(parts):
            if limit is not None and sent + len(part) > limit:
                part = part[: limit - sent]
            if part:
                if index and reply.chunk_delay:
                    time.sleep(reply.chunk_delay)
                self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                self.wfile.flush()
                sent += len(part)
            if limit is not None and sent >= limit:
                self._drop()
                return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        """Close the connection mid-stream, without the final chunk: an incomplete body."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


def _error_body(message: str, error_type: str, code: int | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "param": None, "code": code}}


# --- reusable responders --------------------------------------------------------------------------


class Faults:
    """Wraps a responder so that a seeded share of calls fail: 429, 503 or a dropped stream."""

    def __init__(
        self,
        responder: Responder,
        *,
        rate: float = 0.3,
        seed: int = 0,
        kinds: Sequence[str] = ("429", "503", "drop"),
        retry_after_ms: str = "1",
    ) -> None:
        self.responder = responder
        self.rate = rate
        self.random = random.Random(seed)
        self.kinds = tuple(kinds)
        self.retry_after_ms = retry_after_ms
        self.injected: list[str] = []
        self.served = 0

    def __call__(self, request: Request) -> Reply:
        if self.random.random() < self.rate:
            kind = self.random.choice(self.kinds)
            self.injected.append(kind)
            if kind == "429":
                return Reply.fail(429, "rate limited", {"retry-after-ms": self.retry_after_ms})
            if kind == "503":
                return Reply.fail(503, "overloaded", {"retry-after-ms": self.retry_after_ms})
            return dataclasses.replace(self.responder(request), drop_after=0.4)
        self.served += 1
        return self.responder(request)


EXPRESSION_IN_RESULT = re.compile(r'"value":\s*([^,}]+)')


def tool_results(messages: Sequence[dict[str, Any]]) -> list[str]:
    """Tool observations in a request: native `tool` messages or prompt-mode responses."""
    found = []
    for message in messages:
        content = str(message.get("content") or "")
        prompted = message.get("role") == "user" and content.startswith("<tool_response")
        if message.get("role") == "tool" or prompted:
            found.append(content)
    return found


def arithmetic_model(request: Request) -> Reply:
    """A model that does what the offline planner does: one `calculate` call per expression in the
    first user message, then the results. Stateless: it reads the conversation."""
    from agents.runtime.policies import find_expressions

    messages = request.messages
    prompt = next((str(m.get("content")) for m in messages if m.get("role") == "user"), "")
    expressions = find_expressions(prompt)
    results = tool_results(messages)
    if len(results) < len(expressions):
        index = len(results)
        expression = expressions[index]
        text = f"Computing {expression} ({index + 1} of {len(expressions)})."
        return Reply.call("calculate", {"expression": expression}, text=text)
    if not expressions:
        return Reply.say(f"I could not find anything I can do in: {prompt.strip()[:200]!r}.")
    lines = []
    for expression, result in zip(expressions, results, strict=False):
        value = EXPRESSION_IN_RESULT.search(result)
        lines.append(f"{expression} = {value.group(1)}" if value else f"{expression}: {result}")
    return Reply.say("Results:\n" + "\n".join(lines))
