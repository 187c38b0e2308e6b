"""Providers built from Django settings, with the Django cache, live or replaying recordings.

Settings: ``SEC_USER_AGENT``, ``FRED_API_KEY``, ``FINANCE_CACHE_ALIAS`` and
``FINANCE_RECORDED_DIR``. With ``FINANCE_RECORDED_DIR`` unset the providers talk to the network.
When it names a folder, recorded responses are injected in place of the network (an HTTP session
for SEC and FRED, a ``yfinance.Ticker`` stand-in for Yahoo); the providers' code path is the same:

* ``sec/companyfacts_CIK##########_<TICKER>.json``: SEC companyfacts, one file per company;
* ``sec/company_tickers.json`` (optional): the SEC ticker table, else built from the files above;
* ``prices/<ticker>-*.csv`` (any case): Yahoo price history; a file may name its interval
  (``EA-15m-...``), otherwise it is daily;
* ``fred/<SERIES>.json`` (optional): FRED observations responses.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]
from django.conf import settings

from finance.providers.base import ProviderConfigurationError, ProviderError, UnknownSymbolError
from finance.providers.django_cache import DjangoCache
from finance.providers.fred import Fred
from finance.providers.rate_limit import SharedRateLimiter, redis_client
from finance.providers.sec import (
    COMPANY_TICKERS_URL,
    SEC_MAX_REQUESTS_PER_SECOND,
    SecCompanyFacts,
    cik_for_ticker,
)
from finance.providers.yahoo import YahooFinance, read_price_csv

logger = logging.getLogger(__name__)

_COMPANYFACTS_URL = re.compile(r"/companyfacts/CIK(\d{10})\.json$")
_COMPANYFACTS_FILE = re.compile(r"^companyfacts_CIK(\d{10})_([A-Za-z0-9.\-]+)\.json$")
_PRICE_INTERVAL = re.compile(r"^(\d+(?:m|h|d|wk|mo))$")
_REPLAY_KEY = "recorded-responses-need-no-key"


def recorded_dir() -> Path | None:
    """The replay folder from ``FINANCE_RECORDED_DIR``, or None for live network access."""
    value = str(getattr(settings, "FINANCE_RECORDED_DIR", "") or "")
    if not value:
        return None
    root = Path(value)
    if not root.is_dir():
        raise ProviderConfigurationError(
            f"FINANCE_RECORDED_DIR is {value!r}, which is not a folder; unset it for live data"
        )
    return root


def finance_cache() -> DjangoCache:
    """The Django cache named by ``FINANCE_CACHE_ALIAS``; replays use their own key space."""
    alias = str(getattr(settings, "FINANCE_CACHE_ALIAS", "default") or "default")
    if alias not in settings.CACHES:
        raise ProviderConfigurationError(
            f"FINANCE_CACHE_ALIAS is {alias!r}, which is not in CACHES ({sorted(settings.CACHES)})"
        )
    return DjangoCache(alias, prefix="finance" if recorded_dir() is None else "finance-replay")


# --- replay: recorded responses in place of the network -----------------------------------------


@dataclass(frozen=True)
class RecordedResponse:
    status_code: int
    payload: Any
    headers: Mapping[str, str] = field(default_factory=dict)

    def json(self) -> Any:
        return self.payload


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text())


def companyfacts_files(root: Path) -> dict[int, Path]:
    """Recorded companyfacts files by CIK (from ``CIK##########`` in the file name)."""
    files: dict[int, Path] = {}
    for path in sorted((root / "sec").glob("companyfacts_CIK*.json")):
        match = _COMPANYFACTS_FILE.match(path.name)
        if match:
            files[int(match.group(1))] = path
    return files


def recorded_company_tickers(root: Path) -> dict[str, Any]:
    """``company_tickers.json`` as recorded, else the same shape built from companyfacts files."""
    recorded = root / "sec" / "company_tickers.json"
    if recorded.is_file():
        payload: dict[str, Any] = _read_json(recorded)
        return payload
    table: dict[str, Any] = {}
    for index, path in enumerate(companyfacts_files(root).values()):
        facts = _read_json(path)
        ticker = _COMPANYFACTS_FILE.match(path.name).group(2)  # type: ignore[union-attr]
        table[str(index)] = {
            "cik_str": int(facts["cik"]),
            "ticker": ticker.upper(),
            "title": str(facts.get("entityName", "")),
        }
    return table


class RecordedSecSession:
    """Answers SEC EDGAR requests from ``<root>/sec`` (an ``HttpSession``)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 0,
    ) -> RecordedResponse:
        if url == COMPANY_TICKERS_URL:
            return RecordedResponse(200, recorded_company_tickers(self.root))
        match = _COMPANYFACTS_URL.search(url)
        if match is None:
            raise ProviderError(f"No recorded SEC response for {url} (replay mode)")
        cik = int(match.group(1))
        path = companyfacts_files(self.root).get(cik)
        if path is None:
            raise UnknownSymbolError(
                f"No recorded SEC companyfacts response for CIK {cik:010d} in {self.root / 'sec'}"
                " (replay mode: FINANCE_RECORDED_DIR is set; unset it for live data)"
            )
        return RecordedResponse(200, _read_json(path))


class RecordedFredSession:
    """Answers FRED observation requests from ``<root>/fred/<SERIES>.json``."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(
        self,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 0,
    ) -> RecordedResponse:
        series = (params or {}).get("series_id", "")
        path = self.root / "fred" / f"{series}.json"
        if not series or not path.is_file():
            raise UnknownSymbolError(
                f"No recorded FRED response for series {series!r} in {self.root / 'fred'}"
                " (replay mode: FINANCE_RECORDED_DIR is set; unset it for live data)"
            )
        return RecordedResponse(200, _read_json(path))


def price_files(root: Path, ticker: str, interval: str = "1d") -> list[Path]:
    """Recorded price CSVs for ``ticker`` at ``interval`` (a name without one is daily)."""
    prefix = f"{ticker.lower()}-"
    found = []
    for path in sorted((root / "prices").glob("*.csv")):
        name = path.name.lower()
        if not name.startswith(prefix):
            continue
        token = name[len(prefix) :].split("-", 1)[0].removesuffix(".csv")
        file_interval = token if _PRICE_INTERVAL.match(token) else "1d"
        if file_interval == interval:
            found.append(path)
    return found


class RecordedTicker:
    """A ``yfinance.Ticker`` stand-in for recorded prices; there are no recorded statements."""

    def __init__(self, root: Path, symbol: str) -> None:
        self.root = root
        self.symbol = symbol
        self.income_stmt = self.balance_sheet = self.cashflow = pd.DataFrame()
        self.info: dict[str, Any] = {}

    def history(
        self,
        start: dt.date | None = None,
        end: dt.date | None = None,
        interval: str = "1d",
        **_: Any,
    ) -> pd.DataFrame:
        files = price_files(self.root, self.symbol, interval)
        if not files:
            logger.warning(
                "replay mode: no recorded %s prices for %s in %s",
                interval,
                self.symbol,
                self.root / "prices",
            )
            return pd.DataFrame()
        frame = read_price_csv(files[0])
        if start is not None:
            frame = frame[frame.index >= pd.Timestamp(start)]
        if end is not None:  # yfinance's end is exclusive
            frame = frame[frame.index < pd.Timestamp(end)]
        return frame


# --- factories ------------------------------------------------------------------------------------


def sec_companyfacts() -> SecCompanyFacts:
    """SEC companyfacts with ``SEC_USER_AGENT`` and the Django cache (replaying when set)."""
    root = recorded_dir()
    user_agent = str(getattr(settings, "SEC_USER_AGENT", "") or "")
    if not user_agent:
        raise ProviderConfigurationError(
            "SEC_USER_AGENT is not set: the SEC requires a User-Agent naming you and a contact "
            "e-mail, e.g. 'Example Research admin@example.com'"
        )
    if root is not None:
        return SecCompanyFacts(user_agent, session=RecordedSecSession(root), cache=finance_cache())
    return SecCompanyFacts(user_agent, cache=finance_cache(), limiter=sec_rate_limiter())


def sec_rate_limiter() -> SharedRateLimiter | None:
    """SEC's 10 requests/s shared by every process through Redis when ``REDIS_URL`` is set;
    None without Redis: a bucket per process (the embedded default runs one server, one worker)."""
    url = str(getattr(settings, "REDIS_URL", "") or "")
    if not url:
        return None
    return SharedRateLimiter(
        redis_client(url), "finance:ratelimit:sec", SEC_MAX_REQUESTS_PER_SECOND
    )


def yahoo_finance() -> YahooFinance:
    """Yahoo Finance with the Django cache (recorded price CSVs when replaying)."""
    root = recorded_dir()
    if root is None:
        return YahooFinance(cache=finance_cache())
    return YahooFinance(
        cache=finance_cache(), ticker_factory=lambda symbol: RecordedTicker(root, symbol)
    )


def fred() -> Fred:
    """FRED with ``FRED_API_KEY`` and the Django cache (recorded responses need no key)."""
    root = recorded_dir()
    api_key = str(getattr(settings, "FRED_API_KEY", "") or "")
    if root is None:
        if not api_key:
            raise ProviderConfigurationError(
                "FRED_API_KEY is not set: get a free key at "
                "https://fred.stlouisfed.org/docs/api/api_key.html"
            )
        return Fred(api_key, cache=finance_cache())
    return Fred(api_key or _REPLAY_KEY, session=RecordedFredSession(root), cache=finance_cache())


def sec_cik_for_ticker(ticker: str) -> int:
    """Ticker -> CIK from the SEC's ticker table (the recorded one when replaying)."""
    return cik_for_ticker(ticker, sec_companyfacts().company_tickers())
