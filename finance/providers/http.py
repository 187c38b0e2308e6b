"""Polite HTTP for data providers: a token-bucket rate limiter and retries with backoff."""

from __future__ import annotations

import re
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
# Exception class names (any library: requests, urllib3, curl_cffi, socket) that mean the source
# was not reached at all, as opposed to answering without data.
NETWORK_ERRORS = frozenset(
    {
        "ConnectionError", "ConnectTimeout", "ReadTimeout", "Timeout", "TimeoutError",
        "DNSError", "NameResolutionError", "gaierror", "ProxyError", "NewConnectionError",
        "ConnectionRefusedError", "ConnectionResetError", "MaxRetryError",
    }
)  # fmt: skip
_NETWORK_TEXT = re.compile(
    r"\b(?:" + "|".join(sorted(NETWORK_ERRORS)) + r")\b|could not resolve|failed to resolve|"
    r"name or service not known|temporary failure in name resolution|timed out|"
    r"connection refused|network is unreachable",
    re.IGNORECASE,
)
_RESOLVE = re.compile(
    r"(?:failed to resolve|could not resolve host:?)\s*'?([A-Za-z0-9.-]+\.[A-Za-z]{2,})",
    re.IGNORECASE,
)
_QUERY = re.compile(r"\?[^\s'\")]*")
_SECRET = re.compile(r"((?:api[_-]?key|token|crumb|key)=)[^&\s'\")]+", re.IGNORECASE)
_USERINFO = re.compile(r"([a-z][a-z0-9+.-]*://)[^/\s'\"@]+@", re.IGNORECASE)
_EPSILON = 1e-9  # float slack, so a refill of 0.9999999999 tokens still counts as one


def is_network_error(error: BaseException) -> bool:
    """Whether the error (or one it was raised from) means the source could not be reached."""
    seen: BaseException | None = error
    while seen is not None:
        if any(cls.__name__ in NETWORK_ERRORS for cls in type(seen).__mro__):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def is_network_text(text: str) -> bool:
    """Whether a message (a library's log line) tells of a network failure."""
    return _NETWORK_TEXT.search(text) is not None


def without_secrets(text: str) -> str:
    """`text` (an error message, a URL) without URL query strings, `key=` values or
    `user:password@` credentials: `requests` puts the full URL, API key included, in its errors."""
    return _QUERY.sub("", _SECRET.sub(r"\1…", _USERINFO.sub(r"\1", text)))


def network_reason(problem: BaseException | str) -> str:
    """Why a source could not be reached, fit to show: the host that did not resolve, a
    timeout, or the error without URL query strings or keys."""
    text = problem if isinstance(problem, str) else f"{type(problem).__name__}: {problem}"
    host = _RESOLVE.search(text)
    if host:
        return f"the name {host.group(1)} could not be resolved (DNS failure)"
    if re.search(r"timed? ?out|timeout", text, re.IGNORECASE):
        return "the connection timed out"
    if re.search(r"connection refused", text, re.IGNORECASE):
        return "the connection was refused"
    if re.search(r"\bDNSError\b|name resolution", text, re.IGNORECASE):
        return "DNS lookup failed"
    logged = re.search(r"\((\w*(?:Error|Timeout))\)", text)  # a library's log line
    if logged:
        return f"the connection failed ({logged.group(1)})"
    cleaned = without_secrets(text)
    return re.sub(r"\s+", " ", cleaned).strip()[:200]


def unreachable(label: str, problem: BaseException | str) -> ProviderUnavailableError:
    """ "<label> could not be reached: <reason>": no data was received, none was missing."""
    return ProviderUnavailableError(f"{label} could not be reached: {network_reason(problem)}")


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
    shown = without_secrets(url)  # messages name the URL, never its query string or credentials
    last_problem = "no attempt made"
    network_problem: BaseException | None = None
    for attempt in range(retries + 1):
        if limiter is not None:
            limiter.acquire()
        try:
            response = session.get(url, params=params, headers=headers, timeout=timeout)
        except (requests.Timeout, requests.ConnectionError, TimeoutError, ConnectionError) as exc:
            last_problem = network_reason(exc)
            network_problem = exc
        except requests.RequestException as exc:  # an HTTPError, redirects, a bad URL: no retry
            # `from None`: the original's text holds the full URL, API key included.
            reason = without_secrets(f"{type(exc).__name__}: {exc}")
            raise ProviderError(f"{label} request failed: {reason}") from None
        else:
            network_problem = None
            status = response.status_code
            if status == 200:
                try:
                    return response.json()
                except ValueError as exc:
                    raise ProviderError(f"{label} returned invalid JSON for {shown}") from exc
            if status == 404:
                raise UnknownSymbolError(not_found_message or f"{label}: not found ({shown})")
            if status not in RETRY_STATUSES:
                raise ProviderError(f"{label} refused the request ({status}) for {shown}")
            last_problem = f"HTTP {status}"
            retry_after = _retry_after(response)
            if retry_after is not None and attempt < retries:
                sleep(retry_after)
                continue
        if attempt < retries:
            sleep(backoff_seconds * (2**attempt))
    if network_problem is not None:  # never reached on the last attempt: not "unavailable"
        raise unreachable(label, network_problem)
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
