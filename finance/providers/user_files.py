"""User-supplied CSV files as a provider (the figures a user uploads or exports)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd  # type: ignore[import-untyped]

from finance.providers.base import (
    Fetched,
    ProviderError,
    ProviderResult,
    Source,
    WallClock,
    utc_now,
)
from finance.providers.cache import Cache, cached_fetch


@dataclass(frozen=True)
class CsvQuery:
    path: Path
    parse_dates: tuple[str, ...] = ()


class UserCsv:
    name = "user_file"

    def __init__(
        self,
        *,
        root: Path | None = None,
        cache: Cache | None = None,
        cache_ttl_seconds: float = 300,
        now: WallClock = utc_now,
    ) -> None:
        self.root = root.resolve() if root is not None else None
        self.cache = cache
        self.cache_ttl_seconds = cache_ttl_seconds
        self._now = now

    def _resolve(self, path: Path) -> Path:
        resolved = (self.root / path if self.root is not None else path).resolve()
        if self.root is not None and not resolved.is_relative_to(self.root):
            raise ProviderError(f"{path} is outside the user's files")
        if not resolved.is_file():
            raise ProviderError(f"No such file: {path}")
        return resolved

    def fetch(self, query: CsvQuery) -> Fetched:
        path = self._resolve(query.path)
        try:
            frame = pd.read_csv(path)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise ProviderError(f"{query.path} is not a readable CSV: {exc}") from exc
        return Fetched(Source(self.name, str(path)), self._now(), frame)

    def normalise(self, query: CsvQuery, fetched: Fetched) -> pd.DataFrame:
        if not isinstance(fetched.payload, pd.DataFrame):
            raise ProviderError("CSV payload is not a frame")
        frame = fetched.payload.copy()
        frame.columns = [str(c).strip() for c in frame.columns]
        for column in query.parse_dates:
            if column not in frame.columns:
                raise ProviderError(f"{query.path} has no column {column!r}")
            frame[column] = pd.to_datetime(frame[column])
        return frame

    def get(self, query: CsvQuery) -> ProviderResult[pd.DataFrame]:
        path = self._resolve(query.path)
        key = f"{self.name}:{path}:{path.stat().st_mtime_ns}"
        fetched, hit = cached_fetch(
            self.cache, key, self.cache_ttl_seconds, lambda: self.fetch(query)
        )
        return ProviderResult(
            fetched.source, fetched.retrieved_at, self.normalise(query, fetched), hit
        )
