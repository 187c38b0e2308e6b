"""A token bucket kept in Redis, so every process of a deployment shares one request rate.

SEC EDGAR allows 10 requests a second per client, not per process: with N web and worker
processes each holding its own bucket, a deployment would send up to N x 10. The bucket's state
(tokens, last refill) lives in one Redis hash and is updated by a Lua script, atomically, with
Redis' own clock, so processes on machines with skewed clocks still agree.

If Redis cannot be reached the limiter falls back to the per-process bucket it inherits (and says
so in the log): requests stay limited, only no longer shared.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import redis

from finance.providers.base import Clock
from finance.providers.http import RateLimiter

logger = logging.getLogger(__name__)

SOCKET_TIMEOUT_SECONDS = 2.0

# KEYS[1]: the bucket; ARGV: rate (tokens/s), capacity, take (1 to take a token, 0 to only look).
# Returns the seconds to wait before a token is available, as a string (Lua numbers returned to
# Redis are truncated to integers); "0" means a token was taken.
_TOKEN_BUCKET = """
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local now_parts = redis.call('TIME')
local now = tonumber(now_parts[1]) + tonumber(now_parts[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'updated')
local tokens = tonumber(state[1]) or capacity
local updated = tonumber(state[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - updated) * rate)
local wait = 0
if tokens >= 1 - 1e-9 then
  tokens = tokens - 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'updated', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return tostring(wait)
"""


class SharedRateLimiter(RateLimiter):
    """A token bucket in Redis under ``key``: at most ``rate`` acquisitions per second across
    every process that uses the same key, bursting to ``capacity``."""

    def __init__(
        self,
        client: redis.Redis,
        key: str,
        rate: float,
        capacity: float | None = None,
        *,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        super().__init__(rate, capacity, clock=clock, sleep=sleep)
        self.key = key
        self._script: Any = client.register_script(_TOKEN_BUCKET)

    def _shared_wait(self) -> float | None:
        """Take a token in Redis (0.0), or the seconds until one is free; None: Redis is down."""
        try:
            return float(self._script(keys=[self.key], args=[self.rate, self.capacity]))
        except redis.RedisError as error:
            logger.warning(
                "shared rate limit %s unavailable, limiting per process: %s", self.key, error
            )
            return None

    def try_acquire(self) -> bool:
        wait = self._shared_wait()
        return super().try_acquire() if wait is None else wait == 0.0

    def acquire(self) -> None:
        while True:
            wait = self._shared_wait()
            if wait is None:
                super().acquire()
                return
            if wait == 0.0:
                return
            self._sleep(wait)


@cache
def redis_client(url: str) -> redis.Redis:
    """One client (and connection pool) per process and URL, with short socket timeouts."""
    return redis.Redis.from_url(
        url, socket_connect_timeout=SOCKET_TIMEOUT_SECONDS, socket_timeout=SOCKET_TIMEOUT_SECONDS
    )
