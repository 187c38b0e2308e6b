"""What the scripted OpenAI-compatible server answers (`agents.evaluation.scripted_server`): a
`Reply` (text and/or tool calls, or an HTTP error, with its streaming shape), the `Request` it
answers, and responders, functions of a request that make replies (`arithmetic_model`).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
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


# --- a reusable responder ------------------------------------------------------------------------


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
