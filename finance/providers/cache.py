"""A minimal cache protocol for providers, and an in-memory implementation.

The protocol is deliberately tiny (get / set with a TTL) so a Django cache adapter can satisfy it
later without the providers importing Django.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from finance.providers.base import Clock, Fetched


class Cache(Protocol):
    def get(self, key: str) -> object | None: ...

    def set(self, key: str, value: object, ttl_seconds: float) -> None: ...


class InMemoryCache:
    """A thread-safe dict with per-entry expiry, measured on an injectable monotonic clock."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._entries: dict[str, tuple[float, object]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> object | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            expires_at, value = entry
            if self._clock() >= expires_at:
                del self._entries[key]
                return None
            return value

    def set(self, key: str, value: object, ttl_seconds: float) -> None:
        with self._lock:
            self._entries[key] = (self._clock() + ttl_seconds, value)

    def __len__(self) -> int:
        return len(self._entries)


def cached_fetch(
    cache: Cache | None, key: str, ttl_seconds: float, fetch: Callable[[], Fetched]
) -> tuple[Fetched, bool]:
    """Return ``(fetched, from_cache)``; ``fetch`` runs only on a miss."""
    if cache is not None:
        hit = cache.get(key)
        if isinstance(hit, Fetched):
            return hit, True
    fetched = fetch()
    if cache is not None:
        cache.set(key, fetched, ttl_seconds)
    return fetched, False
