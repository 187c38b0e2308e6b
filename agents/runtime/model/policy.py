"""A policy backed by an OpenAI-compatible chat-completions server, streamed, with retries.

Requests are laid out for the server's prefix cache: the system prompt and the tool list come
first and are byte-stable (tools sorted by name, JSON with sorted keys, nothing time- or
id-dependent), and the history is append-only, so consecutive requests of a run share their prefix.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

import openai
from jsonschema import Draft202012Validator
from openai.types.chat import ChatCompletion, ChatCompletionChunk

from agents.runtime.compression import estimate_tokens
from agents.runtime.errors import Cancelled, PolicyError, RunEnded
from agents.runtime.model.config import ModelConfig
from agents.runtime.model.retry import (
    Backoff,
    StreamCut,
    describe,
    is_retryable,
    retry_after_seconds,
)
from agents.runtime.model.stream import DeltaBatcher, StreamedReply
from agents.runtime.model.tool_calls import (
    MalformedArguments,
    extract_prompt_calls,
    parse_arguments,
    prompt_history,
    tools_prompt,
)
from agents.runtime.protocols import PolicyInput
from agents.runtime.types import Decision, ToolCall, Usage

if TYPE_CHECKING:
    import httpx2

T = TypeVar("T")
COMPLETIONS = "/chat/completions"
AUTH: Any = {"security": {"bearer_auth": True}}  # what `chat.completions.create` asks for
# The key order of the messages the loop builds; a checkpoint read back from jsonb has it changed.
MESSAGE_KEYS = ("role", "tool_call_id", "name", "content", "tool_calls")
CALL_KEYS = ("id", "type", "function")
FUNCTION_KEYS = ("name", "arguments")
IN_ORDER = frozenset(
    keys for size in range(1, 6) for keys in itertools.combinations(MESSAGE_KEYS, size)
)
UNREADABLE = "error: could not read the arguments"


def build_client(config: ModelConfig) -> openai.OpenAI:
    timeout = openai.Timeout(config.read_timeout, connect=config.connect_timeout)
    # Retries are ours (visible as events, honouring Retry-After), so the SDK's are off.
    return openai.OpenAI(
        base_url=config.base_url, api_key=config.api_key, timeout=timeout, max_retries=0
    )


class ModelPolicy:
    """Asks the model for the next step; streams its text; validates its tool calls."""

    def __init__(
        self,
        config: ModelConfig,
        *,
        client: openai.OpenAI | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.name = f"model:{config.model}"
        self.client = client or build_client(config)
        self.clock = clock
        self.sleep = sleep
        self.backoff = Backoff(config.backoff_base, config.backoff_max)
        self.last_retries = 0

    # --- the policy protocol ---------------------------------------------------------------------
    def decide(self, context: PolicyInput) -> Decision:
        self._check_unreadable_streak(context.messages)
        body = self.request_body(context)
        reply, metrics = self._with_retries(
            lambda: self._stream(body, context), on_status=context.on_status
        )
        metrics["retries"] = self.last_retries
        decision = self._decision(reply, metrics, context)
        if reply.finish_reason == "length":
            return _truncated(decision, body.get("max_tokens"))
        return decision

    def request_body(self, context: PolicyInput) -> dict[str, Any]:
        """The exact request sent for this step (public so prefix stability can be tested)."""
        config = self.config
        if config.tool_mode == "native":
            # key order fixed here: a checkpoint read back from jsonb has its keys reordered
            messages = [_stable_message(message) for message in context.messages]
        else:
            messages = prompt_history(context.messages)
            if context.tools and messages and messages[0]["role"] == "system":
                system = f"{messages[0]['content']}\n\n{tools_prompt(context.tools)}"
                messages = [{"role": "system", "content": system}, *messages[1:]]
        body: dict[str, Any] = {
            "model": config.model,
            "messages": messages,
            "temperature": config.temperature,
            "max_tokens": config.max_completion_tokens,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if config.tool_mode == "native" and context.tools:
            body["tools"] = context.tools
            body["tool_choice"] = "auto"
        return body

    # --- structured output -----------------------------------------------------------------------
    def complete_json(
        self,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        *,
        name: str = "result",
        on_status: Callable[[str], None] = lambda text: None,
    ) -> dict[str, Any]:
        """A JSON object valid against schema: strict `json_schema` output where the server has it,
        else JSON mode, else plain instructions, each answer validated before it is returned."""
        validator = Draft202012Validator(schema)
        formats: list[dict[str, Any] | None] = [
            {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            },
            {"type": "json_object"},
            None,
        ]
        problem = ""
        for response_format in formats:
            body = self._json_body(messages, schema, response_format)
            try:
                response = self._with_retries(
                    lambda body=body: self._post(body),  # type: ignore[misc]
                    on_status=on_status,
                )
            except PolicyError as error:
                refused = isinstance(error.__cause__, openai.BadRequestError)
                if refused and response_format is not None:
                    problem = f"the server refused response_format {response_format['type']}"
                    continue
                raise
            text = response.choices[0].message.content or ""
            try:
                value = parse_arguments(text)
            except MalformedArguments as error:
                problem = f"the answer was {error}"
                continue
            errors = sorted(validator.iter_errors(value), key=str)
            if not errors:
                return value
            problem = f"the answer did not match the schema: {errors[0].message}"
        raise PolicyError(f"no valid structured output from the model: {problem}")

    def _json_body(
        self,
        messages: list[dict[str, Any]],
        schema: dict[str, Any],
        response_format: dict[str, Any] | None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": messages,
            "temperature": 0.0,
            "max_tokens": self.config.max_completion_tokens,
        }
        if response_format is None:
            instruction = (
                "Answer with one JSON object only, no prose, matching this JSON schema:\n"
                + json.dumps(schema, sort_keys=True)
            )
            body["messages"] = [*messages, {"role": "user", "content": instruction}]
        else:
            body["response_format"] = response_format
        return body

    # --- transport -------------------------------------------------------------------------------
    def _with_retries(self, call: Callable[[], T], *, on_status: Callable[[str], None]) -> T:
        attempts = self.config.max_retries + 1
        for attempt in range(1, attempts + 1):
            self.last_retries = attempt - 1
            try:
                return call()
            except CallbackFailed as failed:
                raise failed.error from None  # the caller's own failure, not the model's
            except RunEnded:
                raise  # cancelled while the model was answering
            except Exception as error:
                if not is_retryable(error) or attempt == attempts:
                    raise PolicyError(_failure(error, attempt)) from error
                wait = self.backoff.delay(attempt, retry_after_seconds(error))
                on_status(
                    f"model retrying, attempt {attempt + 1}/{attempts} after {describe(error)}"
                    f" (waiting {wait:.1f} s)"
                )
                self.sleep(wait)
        raise AssertionError("unreachable")

    # The body is posted as it is: it is plain JSON already, and `chat.completions.create` would
    # walk every message and tool to "transform" it first, which costs ~0.4 ms per message per call
    # (20 ms at 50 steps) for an unchanged result.
    def _post(self, body: dict[str, Any]) -> ChatCompletion:
        return self.client.post(COMPLETIONS, body=body, cast_to=ChatCompletion, options=AUTH)

    def _post_stream(self, body: dict[str, Any]) -> openai.Stream[ChatCompletionChunk]:
        return self.client.post(
            COMPLETIONS,
            body=body,
            cast_to=ChatCompletion,
            stream=True,
            stream_cls=openai.Stream[ChatCompletionChunk],
            options=AUTH,
        )

    def _stream(
        self, body: dict[str, Any], context: PolicyInput
    ) -> tuple[StreamedReply, dict[str, Any]]:
        started = self.clock()
        reply = StreamedReply()
        batcher = DeltaBatcher(_guarded(context.on_delta), self.config.delta_interval, self.clock)
        first: float | None = None
        stream = self._post_stream(body)
        complete = False
        checked = started
        try:
            for chunk in stream:
                now = self.clock()
                if now - checked >= CANCEL_CHECK_SECONDS:
                    checked = now
                    if context.cancelled():
                        raise Cancelled("cancelled on request, while the model was answering")
                added = reply.feed(chunk)
                if first is None and (added or reply.calls):
                    first = self.clock()
                batcher.add(added)
                if reply.finish_reason and reply.usage and not chunk.choices:
                    complete = True  # the usage chunk: only [DONE] comes after it
                    break
        finally:
            batcher.flush()
            if complete:
                _drain(stream.response)
            stream.close()
        if reply.finish_reason is None:
            raise StreamCut("the stream ended without a finish_reason")
        ended = self.clock()
        return reply, self._metrics(reply, started, first, ended)

    def _metrics(
        self, reply: StreamedReply, started: float, first: float | None, ended: float
    ) -> dict[str, Any]:
        completion = reply.usage.get("completion_tokens") or max(1, len(reply.text) // 4)
        generating = max(ended - (first or ended), 1e-6)
        metrics: dict[str, Any] = {
            "model": self.config.model,
            "ttft_ms": round(((first or ended) - started) * 1000, 1),
            "duration_ms": round((ended - started) * 1000, 1),
            "completion_tokens": completion,
            "tokens_per_s": round(completion / generating, 1),
            "finish_reason": reply.finish_reason,
        }
        for key in ("prompt_tokens", "cached_tokens"):
            if key in reply.usage:
                metrics[key] = reply.usage[key]
        return metrics

    # --- turning the reply into a decision -------------------------------------------------------
    def _decision(
        self, reply: StreamedReply, metrics: dict[str, Any], context: PolicyInput
    ) -> Decision:
        if self.config.tool_mode == "native":
            text = reply.text.strip()
            raw_calls = [(call.id, call.name, call.arguments) for call in reply.ordered_calls()]
        else:
            text, found = extract_prompt_calls(reply.text)
            raw_calls = [("", name, arguments) for name, arguments in found]
        calls = tuple(
            _tool_call(call_id or f"call_{context.step}_{index}", name, raw)
            for index, (call_id, name, raw) in enumerate(raw_calls)
        )
        usage = Usage(
            reply.usage.get("prompt_tokens") or estimate_tokens(context.messages),
            metrics["completion_tokens"],
        )
        return Decision(message=text, tool_calls=calls, usage=usage, metrics=metrics)

    def _check_unreadable_streak(self, messages: list[dict[str, Any]]) -> None:
        streak = 0
        for message in reversed(messages):
            if message.get("role") != "tool":
                continue
            if not str(message.get("content", "")).startswith(UNREADABLE):
                break
            streak += 1
        if streak >= self.config.max_malformed:
            raise PolicyError(
                f"the model sent unreadable tool-call arguments {streak} times in a row"
            )


def _drain(response: httpx2.Response) -> None:
    """Read the rest of a finished HTTP/1.1 body ([DONE], the end of the chunked body) so that
    closing it returns the connection to the pool. The SDK's sync stream closes the response at
    [DONE] unread (its async stream drains it), which costs a new connection (a TCP and maybe a
    TLS handshake) for every model call."""
    if response.is_closed or response.http_version != "HTTP/1.1":
        return
    try:
        for _ in cast(Iterable[bytes], response.stream):
            pass
    except Exception:  # the answer is complete; a failed drain only costs the connection
        pass


def _in_order(mapping: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    ordered = {key: mapping[key] for key in keys if key in mapping}
    if len(ordered) < len(mapping):
        ordered.update((key, mapping[key]) for key in sorted(mapping) if key not in ordered)
    return ordered


def _stable_message(message: dict[str, Any]) -> dict[str, Any]:
    """The message with its keys in one fixed order, however it was stored (jsonb reorders keys),
    so a run resumed from its checkpoint sends the same bytes and keeps the server's prefix.
    Messages already in order (all those built in this process) are returned as they are."""
    calls = message.get("tool_calls") or ()
    if tuple(message) in IN_ORDER and all(
        tuple(call) == CALL_KEYS and tuple(call.get("function") or ()) == FUNCTION_KEYS
        for call in calls
    ):
        return message
    ordered = _in_order(message, MESSAGE_KEYS)
    if ordered.get("tool_calls"):
        ordered["tool_calls"] = [_stable_call(call) for call in ordered["tool_calls"]]
    return ordered


def _stable_call(call: dict[str, Any]) -> dict[str, Any]:
    ordered = _in_order(call, CALL_KEYS)
    if isinstance(ordered.get("function"), dict):
        ordered["function"] = _in_order(ordered["function"], FUNCTION_KEYS)
    return ordered


def _tool_call(call_id: str, name: str, raw: str) -> ToolCall:
    try:
        return ToolCall(call_id, name, parse_arguments(raw))
    except MalformedArguments as error:
        return ToolCall(call_id, name, {}, error=f"{error}; you sent: {raw[:300]}")


def _failure(error: BaseException, attempt: int) -> str:
    if isinstance(error, openai.APIStatusError):
        detail = error.message
        return (
            f"model server answered HTTP {error.status_code} after {attempt} attempt(s): {detail}"
        )
    if isinstance(error, StreamCut):
        return f"model server cut its answer short {attempt} time(s) in a row: {error}"
    if isinstance(error, openai.APIError) and not isinstance(error, openai.APIConnectionError):
        # an error event inside a stream: the server was reached and said what went wrong
        return f"model server sent an error after {attempt} attempt(s): {error.message}"
    return f"model server unreachable after {attempt} attempt(s): {describe(error)}: {error}"


def _truncated(decision: Decision, max_tokens: Any) -> Decision:
    """A reply cut at the token limit (`finish_reason=length`) is never taken as done: its tool
    calls may be cut mid-argument and its answer mid-sentence. The run ends failed, saying so,
    with whatever text came."""
    limit = f" ({max_tokens} tokens)" if max_tokens else ""
    said = decision.message.strip()
    message = (
        f"The model's reply was cut off at its token limit{limit}, so it is incomplete"
        + (" and its tool calls were not run" if decision.tool_calls else "")
        + ". Raise MODEL_MAX_TOKENS or ask for less."
        + (f"\n\nWhat it wrote before the cut:\n{said}" if said else "")
    )
    return replace(decision, message=message, tool_calls=(), status="failed", reason="truncated")


CANCEL_CHECK_SECONDS = 0.5
"""How often a streaming reply checks whether the run was cancelled (so a cancel stops a long
answer within a second; the check costs a database read)."""


class CallbackFailed(Exception):
    """The caller's callback (`on_delta`) raised inside a model call: a database hiccup while a
    delta was being recorded is not the model's fault, so it is neither retried as a model call
    nor reported as a model failure; the original error reaches the caller unchanged."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(str(error))
        self.error = error


def _guarded(callback: Callable[[str], None]) -> Callable[[str], None]:
    def call(text: str) -> None:
        try:
            callback(text)
        except Exception as error:
            raise CallbackFailed(error) from error

    return call
