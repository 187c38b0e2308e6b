"""Probing a model server: is it reachable, does it serve the model, can it call tools?"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import openai

from agents.runtime.model.config import ModelConfig
from agents.runtime.model.policy import build_client
from agents.runtime.model.stream import StreamedReply
from agents.runtime.model.tool_calls import MalformedArguments, parse_arguments


@dataclass(frozen=True)
class Health:
    ok: bool
    detail: str
    models: list[str] = field(default_factory=list)


def explain(error: BaseException, config: ModelConfig) -> str:
    """What is wrong, in words a person can act on."""
    if isinstance(error, openai.AuthenticationError):
        return "the server refused the API key (401): check MODEL_API_KEY"
    if isinstance(error, openai.PermissionDeniedError):
        return "the API key may not use this model (403)"
    if isinstance(error, openai.NotFoundError):
        return (
            f"not found (404): is {config.base_url} the server's /v1 URL, and is the model served?"
        )
    if isinstance(error, openai.APIStatusError) and error.status_code == 503:
        return "the server is up but not ready (503): the model is probably still loading"
    if isinstance(error, openai.APIStatusError):
        return f"the server answered HTTP {error.status_code}: {error.message}"
    if isinstance(error, openai.APITimeoutError):
        return f"no answer from {config.base_url} within the timeout"
    if isinstance(error, openai.APIConnectionError):
        return f"cannot reach {config.base_url}: is the server running and the URL right?"
    return f"{type(error).__name__}: {error}"


def probe(config: ModelConfig, *, timeout: float = 3.0) -> Health:
    """List the server's models and check that the configured one is among them."""
    client = build_client(config).with_options(timeout=timeout)
    try:
        models = sorted(model.id for model in client.models.list())
    except openai.OpenAIError as error:
        return Health(False, explain(error, config))
    if config.model not in models:
        served = ", ".join(models) or "none"
        return Health(False, f"model {config.model!r} is not served (served: {served})", models)
    return Health(True, f"{config.model} is served", models)


CHECK_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "calculate",
        "description": "Evaluate an arithmetic expression.",
        "parameters": {
            "type": "object",
            "properties": {"expression": {"type": "string"}},
            "required": ["expression"],
        },
    },
}


@dataclass(frozen=True)
class ToolCallCheck:
    ok: bool
    detail: str
    ttft_ms: float = 0.0
    tokens_per_s: float = 0.0


def check_tool_call(config: ModelConfig) -> ToolCallCheck:
    """One streamed request that should come back as a `calculate` tool call."""
    client = build_client(config)
    messages = [
        {"role": "system", "content": "Use the tools you are given."},
        {"role": "user", "content": "Use the calculate tool to compute 6 * 7."},
    ]
    started = time.monotonic()
    first: float | None = None
    reply = StreamedReply()
    try:
        body: dict[str, Any] = {
            "model": config.model,
            "messages": messages,
            "tools": [CHECK_TOOL],
            "tool_choice": "auto",
            "temperature": 0,
            "max_tokens": 200,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        stream = client.chat.completions.create(**body)
        for chunk in stream:
            added = reply.feed(chunk)
            if first is None and (added or reply.calls):
                first = time.monotonic()
    except openai.BadRequestError as error:
        return ToolCallCheck(False, f"the server refused tool calling: {error.message}. {_HINT}")
    except openai.OpenAIError as error:
        return ToolCallCheck(False, explain(error, config))
    ended = time.monotonic()
    ttft = ((first or ended) - started) * 1000
    tokens = reply.usage.get("completion_tokens") or max(1, len(reply.text) // 4)
    rate = tokens / max(ended - (first or ended), 1e-6)
    calls = reply.ordered_calls()
    if not calls:
        return ToolCallCheck(False, f"the model answered without a tool call. {_HINT}", ttft, rate)
    try:
        arguments = parse_arguments(calls[0].arguments)
    except MalformedArguments as error:
        return ToolCallCheck(False, f"the tool call's arguments are {error}", ttft, rate)
    return ToolCallCheck(True, f"called {calls[0].name}({arguments})", ttft, rate)


_HINT = (
    "Start vLLM with --enable-auto-tool-choice and the --tool-call-parser for the model, "
    "or set MODEL_TOOL_MODE=prompt."
)
