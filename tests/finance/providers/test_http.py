from __future__ import annotations

import pytest

from finance.providers import InMemoryCache, ProviderError, RateLimiter
from finance.providers.http import get_json
from tests.finance.providers.fakes import FakeResponse, FakeSession, ManualClock


def test_rate_limiter_allows_ten_per_second():
    clock = ManualClock()
    limiter = RateLimiter(10, clock=clock, sleep=clock.sleep)
    assert sum(limiter.try_acquire() for _ in range(15)) == 10
    clock.now += 0.1
    assert limiter.try_acquire()
    assert not limiter.try_acquire()
    clock.now += 1.0
    assert sum(limiter.try_acquire() for _ in range(15)) == 10


def test_rate_limiter_blocks_until_a_token_is_free():
    clock = ManualClock()
    limiter = RateLimiter(10, clock=clock, sleep=clock.sleep)
    start = clock.now
    for _ in range(30):
        limiter.acquire()
    # 10 in the initial burst, then one every 0.1 s: 30 requests take 2 seconds.
    assert clock.now - start == pytest.approx(2.0)
    assert all(s == pytest.approx(0.1) for s in clock.sleeps)


def test_rate_limiter_rejects_nonsense():
    with pytest.raises(ValueError):
        RateLimiter(0)


def test_other_4xx_is_not_retried():
    session = FakeSession(FakeResponse(403))
    with pytest.raises(ProviderError, match="403"):
        get_json(session, "https://example.invalid/x", sleep=lambda s: None)
    assert len(session.calls) == 1


def test_invalid_json_is_a_provider_error():
    session = FakeSession(FakeResponse(200, "<html>not json"))
    with pytest.raises(ProviderError, match="invalid JSON"):
        get_json(session, "https://example.invalid/x", sleep=lambda s: None)


def test_in_memory_cache_expires():
    clock = ManualClock()
    cache = InMemoryCache(clock=clock)
    cache.set("k", "v", ttl_seconds=10)
    assert cache.get("k") == "v"
    clock.now += 10
    assert cache.get("k") is None
    assert len(cache) == 0
