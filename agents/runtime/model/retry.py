"""Which model-server errors are worth retrying, and how long to wait before the next attempt."""

from __future__ import annotations

import random
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any

import openai

RETRY_STATUSES = {408, 409, 429}
TRANSPORT_MODULES = {"httpx", "httpx2", "httpcore", "httpcore2", "h11"}


class StreamCut(Exception):
    """The server closed the stream before a finish_reason: the answer is incomplete."""


def is_retryable(error: BaseException) -> bool:
    if isinstance(error, openai.APIStatusError):
        return error.status_code in RETRY_STATUSES or error.status_code >= 500
    if isinstance(error, openai.APIConnectionError | StreamCut | ConnectionError | TimeoutError):
        return True
    # A connection dropped mid-stream surfaces as the HTTP library's own transport error.
    return type(error).__module__.split(".")[0] in TRANSPORT_MODULES


def retry_after_seconds(error: BaseException) -> float | None:
    """The server's own wait hint (`retry-after-ms`, or `Retry-After` in seconds or as a date)."""
    response: Any = getattr(error, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    if value := headers.get("retry-after-ms"):
        try:
            return max(0.0, float(value) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    from datetime import UTC, datetime

    return max(0.0, (when - datetime.now(UTC)).total_seconds())


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with full jitter, capped; a server's Retry-After wins when given."""

    base: float = 0.5
    cap: float = 30.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        if retry_after is not None:
            return min(retry_after, self.cap)
        return random.uniform(0, min(self.cap, self.base * 2 ** (attempt - 1)))


def describe(error: BaseException) -> str:
    if isinstance(error, openai.APIStatusError):
        return f"HTTP {error.status_code}"
    if isinstance(error, openai.APITimeoutError):
        return "timeout"
    if isinstance(error, StreamCut):
        return "stream cut before the end"
    return type(error).__name__
