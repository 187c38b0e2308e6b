"""The providers' ``Cache`` protocol over a Django cache (``CACHES[alias]``)."""

from __future__ import annotations

import hashlib
import math

from django.core.cache import caches


class DjangoCache:
    """Stores pickled payloads (DataFrames included) in ``caches[alias]`` with a TTL.

    Keys are hashed: provider keys hold URLs, tickers and colons, and memcached refuses keys
    with spaces or longer than 250 bytes.
    """

    def __init__(self, alias: str = "default", *, prefix: str = "finance") -> None:
        self.alias = alias
        self.prefix = prefix

    def key(self, key: str) -> str:
        return f"{self.prefix}:{hashlib.sha256(key.encode()).hexdigest()}"

    def get(self, key: str) -> object | None:
        value: object | None = caches[self.alias].get(self.key(key))
        return value

    def set(self, key: str, value: object, ttl_seconds: float) -> None:
        cache = caches[self.alias]
        if ttl_seconds <= 0:  # Django reads timeout 0 as "expire now"; say so explicitly
            cache.delete(self.key(key))
            return
        # Whole seconds, rounded up: memcached takes integers, and a short TTL must not become 0.
        cache.set(self.key(key), value, timeout=math.ceil(ttl_seconds))
