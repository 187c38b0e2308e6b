"""Yahoo Finance through ``yfinance``: prices, statements and profile; plus recorded CSV prices.

The normalised price frame has a ``DatetimeIndex`` named ``date`` holding exchange-local wall
time (naive; any UTC offset in the source is dropped, so daily bars keep their trading date), and
float columns ``open, high, low, close, adj_close, volume, dividends, stock_splits``, sorted by
date with duplicate timestamps removed. ``capital_gains`` is kept when the source has it.
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pandas as pd  # type: ignore[import-untyped]

from finance.providers.base import (
    Fetched,
    ProviderError,
    ProviderResult,
    Source,
    UnknownSymbolError,
    WallClock,
    utc_now,
)
from finance.providers.cache import Cache, cached_fetch
from finance.providers.http import (
    is_network_error,
    is_network_text,
    unreachable,
    without_secrets,
)

LABEL = "Yahoo Finance"

PRICE_COLUMNS = (
    "open",
    "high",
    "low",
    "close",
    "adj_close",
    "volume",
    "dividends",
    "stock_splits",
)
_RENAMES = {
    "Open": "open",
    "High": "high",
    "Low": "low",
    "Close": "close",
    "Adj Close": "adj_close",
    "Volume": "volume",
    "Dividends": "dividends",
    "Stock Splits": "stock_splits",
    "Capital Gains": "capital_gains",
}

Statement = Literal["income", "balance", "cashflow"]


@dataclass(frozen=True)
class PriceQuery:
    ticker: str
    start: dt.date | None = None
    end: dt.date | None = None
    interval: str = "1d"


@dataclass(frozen=True)
class StatementQuery:
    ticker: str
    statement: Statement = "income"
    frequency: Literal["yearly", "quarterly"] = "yearly"


@dataclass(frozen=True)
class ProfileQuery:
    ticker: str


def normalise_price_frame(raw: pd.DataFrame, label: str = "prices") -> pd.DataFrame:
    """Normalise a yfinance ``history()`` frame or a recorded CSV (either Yahoo format)."""
    frame = raw.copy()
    if not isinstance(frame.index, pd.DatetimeIndex):
        date_column = next((c for c in ("Datetime", "Date", "date") if c in frame.columns), None)
        if date_column is None:
            raise ProviderError(f"{label}: no Date or Datetime column")
        frame = frame.set_index(date_column)
    index = frame.index
    if isinstance(index, pd.DatetimeIndex):
        if index.tz is not None:
            index = index.tz_localize(None)
    else:
        text = index.astype(str).str.strip()
        # yfinance writes "2022-01-03 00:00:00-05:00"; keep the exchange-local wall time.
        index = pd.DatetimeIndex(pd.to_datetime(text.str.slice(0, 19), errors="raise"))
    frame.index = index.rename("date")
    frame = frame.rename(columns=_RENAMES)
    missing = [c for c in ("open", "high", "low", "close", "volume") if c not in frame.columns]
    if missing:
        raise ProviderError(f"{label}: missing price columns {missing}")
    if "adj_close" not in frame.columns:
        frame["adj_close"] = frame["close"]
    for column in ("dividends", "stock_splits"):
        if column not in frame.columns:
            frame[column] = 0.0
    keep = [*PRICE_COLUMNS, *(["capital_gains"] if "capital_gains" in frame.columns else [])]
    frame = frame[keep].apply(pd.to_numeric, errors="coerce").astype(float)
    frame = frame[~frame.index.duplicated(keep="last")].sort_index()
    frame = frame.dropna(subset=["close"])
    if frame.empty:
        raise UnknownSymbolError(f"{label}: no price history")
    return frame


def read_price_csv(path: Path) -> pd.DataFrame:
    """Parse a recorded Yahoo price CSV (yfinance ``Datetime``/``Date`` or classic format)."""
    return normalise_price_frame(pd.read_csv(path), label=str(path))


class _NetworkLog(logging.Handler):
    """yfinance's log lines of this thread that tell of network failures: yfinance catches a
    DNS failure or a refused connection and answers with an empty frame, which alone would read
    as "no data"."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.thread = threading.get_ident()
        self.problems: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:
            return
        try:
            text = record.getMessage()
        except Exception:  # a malformed log call is not ours to report
            return
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text} {type(record.exc_info[1]).__name__}: {record.exc_info[1]}"
        if is_network_text(text):
            self.problems.append(text)

    def reason(self) -> str | None:
        """The most telling problem: one that names a host, else the last one."""
        if not self.problems:
            return None
        named = [p for p in self.problems if "resolve" in p.lower()]
        return (named or self.problems)[-1]


@contextmanager
def _watch_network() -> Iterator[_NetworkLog]:
    logger = logging.getLogger("yfinance")
    handler = _NetworkLog()
    level = logger.level
    logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.WARNING:
        logger.setLevel(logging.WARNING)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _reach(symbol: str, call: Callable[[], Any]) -> tuple[Any, str | None]:
    """Call yfinance; a network error it raises becomes "could not be reached", one it only
    logged comes back as the second value (for an empty answer to be reported as such)."""
    with _watch_network() as log:
        try:
            result = call()
        except Exception as exc:  # yfinance raises assorted types for network/HTTP trouble
            if is_network_error(exc) or is_network_text(str(exc)):
                raise unreachable(LABEL, exc) from exc
            raise ProviderError(
                f"{LABEL} failed for {symbol}: {without_secrets(str(exc))}"
            ) from exc
    return result, log.reason()


def _is_empty(value: Any) -> bool:
    return (
        value is None
        or bool(getattr(value, "empty", False))
        or (isinstance(value, dict) and not value)
    )


class YahooFinance:
    """Live path through ``yfinance.Ticker`` (its own HTTP session; no requests-cache).

    A network failure (DNS, refused, timeout) raises ``ProviderUnavailableError`` "Yahoo Finance
    could not be reached: ..." rather than "no data"; ``session`` (a ``requests`` or
    ``curl_cffi`` session) is passed to yfinance when given."""

    name = "yahoo_finance"

    def __init__(
        self,
        *,
        cache: Cache | None = None,
        cache_ttl_seconds: float = 15 * 60,
        ticker_factory: Callable[[str], Any] | None = None,
        session: Any = None,
        now: WallClock = utc_now,
    ) -> None:
        self.cache = cache
        self.cache_ttl_seconds = cache_ttl_seconds
        if ticker_factory is None:
            ticker_factory = (
                _yfinance_ticker
                if session is None
                else (lambda symbol: _yfinance_ticker(symbol, session=session))
            )
        self._ticker_factory = ticker_factory
        self._now = now

    def _source(self, ticker: str, what: str) -> Source:
        return Source(self.name, f"https://finance.yahoo.com/quote/{ticker}/{what}")

    def fetch_prices(self, query: PriceQuery) -> Fetched:
        symbol = query.ticker.strip().upper()
        ticker = self._ticker_factory(symbol)
        raw, problem = _reach(
            symbol,
            lambda: ticker.history(
                start=query.start,
                end=query.end,
                interval=query.interval,
                auto_adjust=False,
                actions=True,
            ),
        )
        if _is_empty(raw) and problem:
            raise unreachable(LABEL, problem)
        if raw is None or raw.empty:
            raise UnknownSymbolError(f"Yahoo Finance has no price history for {symbol!r}")
        return Fetched(self._source(symbol, "history"), self._now(), raw)

    def get_prices(self, query: PriceQuery) -> ProviderResult[pd.DataFrame]:
        symbol = query.ticker.upper()
        key = f"{self.name}:prices:{symbol}:{query.start}:{query.end}:{query.interval}"
        fetched, hit = cached_fetch(
            self.cache, key, self.cache_ttl_seconds, lambda: self.fetch_prices(query)
        )
        if not isinstance(fetched.payload, pd.DataFrame):
            raise ProviderError("cached price payload is not a frame")
        frame = normalise_price_frame(fetched.payload, label=query.ticker.upper())
        return ProviderResult(fetched.source, fetched.retrieved_at, frame, hit)

    get = get_prices

    def get_statement(self, query: StatementQuery) -> ProviderResult[pd.DataFrame]:
        symbol = query.ticker.strip().upper()

        def fetch() -> Fetched:
            ticker = self._ticker_factory(symbol)
            attribute = {
                "income": "income_stmt",
                "balance": "balance_sheet",
                "cashflow": "cashflow",
            }[query.statement]
            if query.frequency == "quarterly":
                attribute = f"quarterly_{attribute}"
            frame, problem = _reach(symbol, lambda: getattr(ticker, attribute))
            if _is_empty(frame) and problem:
                raise unreachable(LABEL, problem)
            if frame is None or frame.empty:
                raise UnknownSymbolError(f"Yahoo Finance has no {query.statement} for {symbol!r}")
            return Fetched(self._source(symbol, "financials"), self._now(), frame)

        key = f"{self.name}:statement:{symbol}:{query.statement}:{query.frequency}"
        fetched, hit = cached_fetch(self.cache, key, self.cache_ttl_seconds, fetch)
        if not isinstance(fetched.payload, pd.DataFrame):
            raise ProviderError("cached statement payload is not a frame")
        return ProviderResult(fetched.source, fetched.retrieved_at, fetched.payload, hit)

    def get_profile(self, query: ProfileQuery) -> ProviderResult[dict[str, Any]]:
        symbol = query.ticker.strip().upper()

        def fetch() -> Fetched:
            found, problem = _reach(symbol, lambda: self._ticker_factory(symbol).info)
            info = dict(found or {})
            if (not info or (len(info) <= 1 and "trailingPegRatio" in info)) and problem:
                raise unreachable(LABEL, problem)
            if not info or (len(info) <= 1 and "trailingPegRatio" in info):
                raise UnknownSymbolError(f"Yahoo Finance has no profile for {symbol!r}")
            return Fetched(self._source(symbol, "profile"), self._now(), info)

        key = f"{self.name}:profile:{symbol}"
        fetched, hit = cached_fetch(self.cache, key, self.cache_ttl_seconds, fetch)
        if not isinstance(fetched.payload, dict):
            raise ProviderError("cached profile payload is not a dict")
        return ProviderResult(fetched.source, fetched.retrieved_at, fetched.payload, hit)


def _yfinance_ticker(symbol: str, session: Any = None) -> Any:
    import yfinance  # type: ignore[import-untyped]

    return yfinance.Ticker(symbol, session=session)
