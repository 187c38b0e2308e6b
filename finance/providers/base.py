"""The provider model shared by every data source: query -> fetch -> normalise.

Like OpenBB's fetchers, each provider turns a typed query into a raw payload (``fetch``) and the
payload into typed data (``normalise``). ``get`` wraps the two with a cache, so a cache hit skips
the fetch. Every result says where its data came from and when it was retrieved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

QueryT = TypeVar("QueryT", contravariant=True)
DataT = TypeVar("DataT")

Clock = Callable[[], float]
"""Monotonic seconds; injectable so rate limits and TTLs are testable without sleeping."""

WallClock = Callable[[], dt.datetime]


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class ProviderError(Exception):
    """Base class for every provider failure; the message is fit to show a user."""


class ProviderConfigurationError(ProviderError):
    """A required setting (User-Agent, API key, ...) is missing."""


class UnknownSymbolError(ProviderError):
    """The company, ticker or series does not exist at the source."""


class ProviderUnavailableError(ProviderError):
    """The source is down, timing out or rate limiting us beyond our retries."""


@dataclass(frozen=True)
class Source:
    """Where a figure came from: the provider and the URL or file it read."""

    provider: str
    location: str

    def __str__(self) -> str:
        return f"{self.provider}: {self.location}"


@dataclass(frozen=True)
class Fetched:
    """A raw payload as fetched, before normalisation (this is what the cache stores)."""

    source: Source
    retrieved_at: dt.datetime
    payload: object


@dataclass(frozen=True)
class ProviderResult(Generic[DataT]):
    source: Source
    retrieved_at: dt.datetime
    data: DataT
    from_cache: bool = False


class Provider(Protocol[QueryT, DataT]):
    name: str

    def get(self, query: QueryT) -> ProviderResult[DataT]: ...
