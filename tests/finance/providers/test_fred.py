"""FRED tests run on a SHAPE FIXTURE (hand-written, documented response shape, made-up values)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from finance.providers import (
    Fred,
    InMemoryCache,
    ProviderConfigurationError,
    ProviderError,
    RateLimiter,
    SeriesQuery,
)
from tests.finance.providers.fakes import FakeResponse, FakeSession, ManualClock

SHAPE = json.loads(
    (Path(__file__).parent / "fixtures" / "fred_observations_SHAPE_FIXTURE.json").read_text()
)


def make_fred(session, **kwargs):
    clock = ManualClock()
    return Fred(
        "test-key",
        session=session,
        limiter=RateLimiter(2, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        **kwargs,
    )


def test_refuses_without_api_key():
    with pytest.raises(ProviderConfigurationError, match="API key"):
        Fred(None)
    with pytest.raises(ProviderConfigurationError):
        Fred("")


def test_observations_with_dot_as_missing():
    session = FakeSession(FakeResponse(200, SHAPE))
    result = make_fred(session).get(
        SeriesQuery("FEDFUNDS", start=dt.date(2024, 1, 1), end=dt.date(2024, 4, 1))
    )
    call = session.calls[0]
    assert call["url"] == "https://api.stlouisfed.org/fred/series/observations"
    assert call["params"] == {
        "series_id": "FEDFUNDS",
        "api_key": "test-key",
        "file_type": "json",
        "observation_start": "2024-01-01",
        "observation_end": "2024-04-01",
    }
    values = [o.value for o in result.data.observations]
    assert values == [1.5, None, 1.75, 2.0]
    assert result.data.observations[1].date == dt.date(2024, 2, 1)
    assert "test-key" not in result.source.location


def test_error_payload_is_reported():
    error = {"error_code": 400, "error_message": "Bad Request. The series does not exist."}
    session = FakeSession(FakeResponse(200, error))
    with pytest.raises(ProviderError, match="does not exist"):
        make_fred(session).get(SeriesQuery("NOPE"))


def test_cache_hit_skips_fetch():
    session = FakeSession(FakeResponse(200, SHAPE))
    fred = make_fred(session, cache=InMemoryCache())
    fred.get(SeriesQuery("FEDFUNDS"))
    assert fred.get(SeriesQuery("FEDFUNDS")).from_cache
    assert len(session.calls) == 1
