"""The SEC rate limit is shared by every process through Redis (the real one on 127.0.0.1:6379)."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
import redis

from finance.providers.http import RateLimiter
from finance.providers.rate_limit import SharedRateLimiter

REDIS_URL = "redis://127.0.0.1:6379/15"
RATE = 20.0
SECONDS = 1.5


@pytest.fixture
def key():
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError as error:
        pytest.skip(f"no Redis on 127.0.0.1:6379 to share a rate limit through ({error})")
    name = f"test:ratelimit:{uuid.uuid4().hex}"
    yield name
    client.delete(name)
    client.close()


def acquisitions(limiters: list[RateLimiter]) -> int:
    """How many acquisitions the limiters make together in SECONDS, each as fast as allowed."""
    counts = [0] * len(limiters)
    deadline = time.monotonic() + SECONDS

    def hammer(index: int) -> None:
        while True:
            limiters[index].acquire()
            if time.monotonic() >= deadline:
                return
            counts[index] += 1

    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(len(limiters))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SECONDS + 5)
    return sum(counts)


def test_two_processes_together_stay_within_the_rate(key):
    # Two limiters with their own Redis connections: what two worker processes would hold.
    pair = [
        SharedRateLimiter(redis.Redis.from_url(REDIS_URL), key, RATE, capacity=2) for _ in range(2)
    ]
    total = acquisitions(list(pair))
    allowed = 2 + RATE * SECONDS  # the burst, then the rate
    assert total <= allowed + 1, f"{total} requests in {SECONDS} s, the limit allows {allowed}"
    assert total >= 0.7 * allowed, f"only {total} of {allowed}: the limiter starves its callers"


def test_per_process_buckets_would_double_the_rate():
    # The defect the shared bucket fixes: each process's own bucket lets through the full rate.
    total = acquisitions([RateLimiter(RATE, capacity=2), RateLimiter(RATE, capacity=2)])
    assert total > 1.5 * (2 + RATE * SECONDS)


def test_without_redis_it_limits_per_process(caplog):
    down = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    limiter = SharedRateLimiter(down, "test:ratelimit:down", RATE, capacity=1)
    assert limiter.try_acquire()
    assert not limiter.try_acquire()  # the local bucket is empty
    assert "limiting per process" in caplog.text


def test_the_sec_provider_shares_its_limit_when_redis_is_configured(settings, key):
    from finance.providers import configured

    settings.FINANCE_RECORDED_DIR = ""
    settings.REDIS_URL = REDIS_URL
    limiter = configured.sec_companyfacts().limiter
    assert isinstance(limiter, SharedRateLimiter)
    assert limiter.rate == 10
    settings.REDIS_URL = ""
    assert not isinstance(configured.sec_companyfacts().limiter, SharedRateLimiter)
