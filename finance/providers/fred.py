"""FRED (Federal Reserve Bank of St. Louis) series observations."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import requests

from finance.providers.base import (
    Fetched,
    ProviderConfigurationError,
    ProviderError,
    ProviderResult,
    Source,
    WallClock,
    utc_now,
)
from finance.providers.cache import Cache, cached_fetch
from finance.providers.http import HttpSession, RateLimiter, get_json, without_secrets
from finance.providers.periods import parse_date

OBSERVATIONS_URL = "https://api.stlouisfed.org/fred/series/observations"


@dataclass(frozen=True)
class SeriesQuery:
    series_id: str
    start: dt.date | None = None
    end: dt.date | None = None


@dataclass(frozen=True)
class Observation:
    date: dt.date
    value: float | None  # FRED writes "." for a missing observation


@dataclass(frozen=True)
class Series:
    series_id: str
    units: str
    observations: tuple[Observation, ...]


def normalise_observations(series_id: str, payload: Mapping[str, Any]) -> Series:
    if "observations" not in payload:
        message = str(payload.get("error_message", "response has no observations"))
        raise ProviderError(f"FRED series {series_id}: {without_secrets(message)}")
    observations = tuple(
        Observation(
            date=parse_date(row["date"]),
            value=None if row.get("value") in (".", "", None) else float(row["value"]),
        )
        for row in payload["observations"]
    )
    return Series(series_id, str(payload.get("units", "")), observations)


class Fred:
    name = "fred"

    def __init__(
        self,
        api_key: str | None,
        *,
        session: HttpSession | None = None,
        cache: Cache | None = None,
        cache_ttl_seconds: float = 6 * 3600,
        limiter: RateLimiter | None = None,
        sleep: Callable[[float], None] = time.sleep,
        now: WallClock = utc_now,
    ) -> None:
        if not api_key:
            raise ProviderConfigurationError(
                "FRED needs an API key (free at https://fred.stlouisfed.org/docs/api/api_key.html);"
                " set FRED_API_KEY"
            )
        self.api_key = api_key
        self.session: HttpSession = session or cast(HttpSession, requests.Session())
        self.cache = cache
        self.cache_ttl_seconds = cache_ttl_seconds
        self.limiter = limiter or RateLimiter(2, sleep=sleep)  # FRED allows 120 requests/min
        self._sleep = sleep
        self._now = now

    def fetch(self, query: SeriesQuery) -> Fetched:
        params = {"series_id": query.series_id, "api_key": self.api_key, "file_type": "json"}
        if query.start:
            params["observation_start"] = query.start.isoformat()
        if query.end:
            params["observation_end"] = query.end.isoformat()
        payload = get_json(
            self.session,
            OBSERVATIONS_URL,
            params=params,
            limiter=self.limiter,
            sleep=self._sleep,
            not_found_message=f"FRED has no series {query.series_id!r}",
            label="FRED",
        )
        # The key is a secret: the recorded source names the series, never the key.
        location = f"{OBSERVATIONS_URL}?series_id={query.series_id}"
        return Fetched(Source(self.name, location), self._now(), payload)

    def normalise(self, query: SeriesQuery, fetched: Fetched) -> Series:
        if not isinstance(fetched.payload, Mapping):
            raise ProviderError("FRED payload must be a JSON object")
        return normalise_observations(query.series_id, fetched.payload)

    def get(self, query: SeriesQuery) -> ProviderResult[Series]:
        key = f"{self.name}:{query.series_id}:{query.start}:{query.end}"
        fetched, hit = cached_fetch(
            self.cache, key, self.cache_ttl_seconds, lambda: self.fetch(query)
        )
        return ProviderResult(
            fetched.source, fetched.retrieved_at, self.normalise(query, fetched), hit
        )
