"""DjangoCache: the providers' cache protocol over Django's cache framework."""

from __future__ import annotations

import time
import uuid

import pandas as pd  # type: ignore[import-untyped]
import pytest

from finance.providers import CompanyFactsQuery, RateLimiter, SecCompanyFacts
from finance.providers.django_cache import DjangoCache
from tests.finance.providers.fakes import FakeResponse, FakeSession, ManualClock

UA = "AgentWorks tests tests@example.com"


@pytest.fixture
def cache_settings(settings):
    """A fresh local-memory cache per test, plus a dummy one that stores nothing."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"finance-{uuid.uuid4()}",
        },
        "dummy": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"},
    }
    return settings


def test_round_trips_a_frame_under_a_long_key(cache_settings):
    cache = DjangoCache()
    key = "yahoo_finance:prices:BRK B:" + "x" * 300  # spaces and 300+ chars: memcached refuses
    frame = pd.DataFrame({"close": [1.0, 2.0]}, index=pd.to_datetime(["2024-01-02", "2024-01-03"]))
    assert cache.get(key) is None
    cache.set(key, frame, ttl_seconds=60)
    pd.testing.assert_frame_equal(cache.get(key), frame)
    stored = cache.key(key)
    assert len(stored) < 250 and " " not in stored
    assert DjangoCache(prefix="other").get(key) is None


def test_entries_expire_after_their_ttl(cache_settings, monkeypatch):
    cache = DjangoCache()
    cache.set("k", {"v": 1}, ttl_seconds=0.2)  # rounded up to a whole second
    assert cache.get("k") == {"v": 1}
    later = time.time() + 2
    monkeypatch.setattr(time, "time", lambda: later)
    assert cache.get("k") is None


def test_zero_ttl_stores_nothing(cache_settings):
    cache = DjangoCache()
    cache.set("k", 1, ttl_seconds=60)
    cache.set("k", 2, ttl_seconds=0)
    assert cache.get("k") is None


def test_uses_the_named_alias(cache_settings):
    DjangoCache("dummy").set("k", 1, ttl_seconds=60)
    assert DjangoCache("dummy").get("k") is None
    assert DjangoCache("default").get("k") is None


def test_provider_second_get_is_a_cache_hit(cache_settings):
    payload = {"cik": 320193, "entityName": "Apple Inc.", "facts": {}}
    session = FakeSession(FakeResponse(200, payload))  # one response: a second fetch would fail
    clock = ManualClock()
    provider = SecCompanyFacts(
        UA,
        session=session,
        cache=DjangoCache(),
        limiter=RateLimiter(10, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
    )
    first = provider.get(CompanyFactsQuery(320193))
    second = provider.get(CompanyFactsQuery(320193))
    assert (first.from_cache, second.from_cache) == (False, True)
    assert second.data.entity_name == "Apple Inc."
    assert second.retrieved_at == first.retrieved_at
    assert len(session.calls) == 1
