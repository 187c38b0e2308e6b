"""Polite HTTP for data providers: a token-bucket rate limiter and retries with backoff."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import requests

from finance.providers.base import (
    Clock,
    ProviderError,
    ProviderUnavailableError,
    UnknownSymbolError,
)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
_EPSILON = 1e-9  # float slack, so a refill of 0.9999999999 tokens still counts as one


class HttpResponse(Protocol):
    @property
    def status_code(self) -> int: ...

    @property
    def headers(self) -> Mapping[str, str]: ...

    def json(self) -> Any: ...


class HttpSession(Protocol):
    """The part of ``requests.Session`` the providers use, so tests can pass a stub."""

    def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = ...,
        headers: Mapping[str, str] | None = ...,
        timeout: float = ...,
    ) -> HttpResponse: ...


class RateLimiter:
    """A token bucket: at most ``rate`` acquisitions per second, bursting to ``capacity``.

    ``acquire`` blocks (via the injected ``sleep``) until a token is available.
    """

    def __init__(
        self,
        rate: float,
        capacity: float | None = None,
        *,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.capacity = capacity if capacity is not None else rate
        self._clock = clock
        self._sleep = sleep
        self._tokens = self.capacity
        self._updated = clock()
        self._lock = threading.Lock()

    def _refill(self) -> None:
        now = self._clock()
        elapsed = max(0.0, now - self._updated)
        self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)
        self._updated = now

    def try_acquire(self) -> bool:
        with self._lock:
            self._refill()
            if self._tokens >= 1 - _EPSILON:
                self._tokens -= 1
                return True
            return False

    def acquire(self) -> None:
        while True:
            with self._lock:
                self._refill()
                if self._tokens >= 1 - _EPSILON:
                    self._tokens -= 1
                    return
                wait = max((1 - self._tokens) / self.rate, _EPSILON)
            self._sleep(wait)


def get_json(
    session: HttpSession,
    url: str,
    *,
    headers: Mapping[str, str] | None = None,
    params: Mapping[str, str] | None = None,
    limiter: RateLimiter | None = None,
    retries: int = 3,
    backoff_seconds: float = 0.5,
    timeout: float = 20.0,
    sleep: Callable[[float], None] = time.sleep,
    not_found_message: str | None = None,
    label: str = "source",
) -> Any:
    """GET ``url`` and decode JSON, retrying 429/5xx/timeouts with exponential backoff.

    404 raises ``UnknownSymbolError`` (with ``not_found_message``); exhausting retries raises
    ``ProviderUnavailableError``; other 4xx raise ``ProviderError``.
    """
    last_problem = "no attempt made"
    for attempt in range(retries + 1):
        if limiter is not None:
            limiter.acquire()
        try:
            response = session.get(url, params=params, headers=headers, timeout=timeout)
        except (requests.Timeout, requests.ConnectionError, TimeoutError, ConnectionError) as exc:
            last_problem = f"{type(exc).__name__}: {exc}"
        else:
            status = response.status_code
            if status == 200:
                try:
                    return response.json()
                except ValueError as exc:
                    raise ProviderError(f"{label} returned invalid JSON for {url}") from exc
            if status == 404:
                raise UnknownSymbolError(not_found_message or f"{label}: not found ({url})")
            if status not in RETRY_STATUSES:
                raise ProviderError(f"{label} refused the request ({status}) for {url}")
            last_problem = f"HTTP {status}"
            retry_after = _retry_after(response)
            if retry_after is not None and attempt < retries:
                sleep(retry_after)
                continue
        if attempt < retries:
            sleep(backoff_seconds * (2**attempt))
    raise ProviderUnavailableError(
        f"{label} is unavailable after {retries + 1} attempts ({last_problem}); try again later"
    )


def _retry_after(response: HttpResponse) -> float | None:
    value = (getattr(response, "headers", None) or {}).get("Retry-After")
    if value is None:
        return None
    try:
        return min(float(value), 60.0)
    except ValueError:
        return None
