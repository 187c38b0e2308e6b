"""SEC EDGAR XBRL ``companyfacts``: every reported value of every concept for one company.

Live path: ``https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json``. The SEC requires a
descriptive ``User-Agent`` (name and contact e-mail) and at most 10 requests per second.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import requests

from finance.providers.base import (
    Fetched,
    ProviderConfigurationError,
    ProviderError,
    ProviderResult,
    Source,
    UnknownSymbolError,
    WallClock,
    utc_now,
)
from finance.providers.cache import Cache, cached_fetch
from finance.providers.http import HttpSession, RateLimiter, get_json
from finance.providers.periods import fiscal_year_for, is_annual, parse_date, to_millions

COMPANYFACTS_URL = "https://data.sec.gov/api/xbrl/companyfacts/CIK{cik:010d}.json"
COMPANY_TICKERS_URL = "https://www.sec.gov/files/company_tickers.json"
SEC_MAX_REQUESTS_PER_SECOND = 10

# A few well-known tickers so common look-ups need no network; anything else goes to the SEC list.
KNOWN_CIKS: dict[str, int] = {
    "AAPL": 320193,
    "MSFT": 789019,
    "AMZN": 1018724,
    "NVDA": 1045810,
    "ORCL": 1341439,
    "GOOGL": 1652044,
    "META": 1326801,
    "NFLX": 1065280,
    "NKE": 320187,
    "BA": 12927,
    "MMM": 66740,
    "COST": 909832,
    "BBY": 764478,
    "CVS": 64803,
    "EA": 712515,
    "CALM": 16160,
}


@dataclass(frozen=True)
class CompanyFactsQuery:
    cik: int


@dataclass(frozen=True)
class FiledValue:
    """One filing's value for a period, in USD millions (or the unit's own scale)."""

    value: float
    accn: str
    filed: dt.date
    form: str


@dataclass(frozen=True)
class AnnualFact:
    """A concept's value for one fiscal year, from the latest 10-K that reports that period.

    ``history`` holds every 10-K value for the same period, oldest filing first; a value that
    differs between filings is a restatement (or recast).
    """

    concept: str
    fiscal_year: int
    value: float
    unit: str
    start: dt.date | None
    end: dt.date
    accn: str
    filed: dt.date
    history: tuple[FiledValue, ...] = ()

    @property
    def restated(self) -> bool:
        return len({round(h.value, 6) for h in self.history}) > 1

    @property
    def citation(self) -> str:
        return f"SEC 10-K accession {self.accn}, filed {self.filed.isoformat()}"


@dataclass(frozen=True)
class CompanyFacts:
    cik: int
    entity_name: str
    annual: Mapping[tuple[str, int], AnnualFact] = field(default_factory=dict)

    def value(self, concept: str, fiscal_year: int) -> float | None:
        fact = self.annual.get((concept, fiscal_year))
        return None if fact is None else fact.value

    def concepts(self) -> set[str]:
        return {concept for concept, _ in self.annual}


def normalise_companyfacts(
    payload: Mapping[str, Any],
    *,
    taxonomies: Iterable[str] = ("us-gaap",),
    units: Iterable[str] = ("USD",),
) -> CompanyFacts:
    """Annual values by (concept, fiscal year), in millions for currency units.

    Keeps 10-K facts with ``fp == "FY"`` and an annual (or instant) period. A 10-K reports its own
    year plus comparatives, and ``fy`` is the *filing's* fiscal year, so each value's fiscal year
    is derived from its period end relative to the filing's own period. Values for the same period
    are deduplicated by ``end`` (and ``start``), preferring the latest filed.
    """
    wanted_units = tuple(units)
    rows: list[tuple[str, str, dict[str, Any]]] = []
    filing_end: dict[str, tuple[dt.date, int]] = {}
    facts = payload.get("facts", {})
    for taxonomy in taxonomies:
        for concept, body in facts.get(taxonomy, {}).items():
            for unit, entries in body.get("units", {}).items():
                if unit not in wanted_units:
                    continue
                for entry in entries:
                    if entry.get("form") != "10-K" or entry.get("fp") != "FY":
                        continue
                    if not isinstance(entry.get("fy"), int) or "end" not in entry:
                        continue
                    rows.append((concept, unit, entry))
                    end = parse_date(entry["end"])
                    known = filing_end.get(entry["accn"])
                    if known is None or end > known[0]:
                        filing_end[entry["accn"]] = (end, entry["fy"])

    grouped: dict[tuple[str, str, dt.date | None, dt.date], list[dict[str, Any]]] = {}
    for concept, unit, entry in rows:
        start = parse_date(entry["start"]) if entry.get("start") else None
        end = parse_date(entry["end"])
        if not is_annual(start, end):
            continue
        grouped.setdefault((concept, unit, start, end), []).append(entry)

    annual: dict[tuple[str, int], AnnualFact] = {}
    for (concept, unit, start, end), entries in grouped.items():
        entries.sort(key=lambda e: (e["filed"], e["accn"]))
        latest = entries[-1]
        anchor_end, anchor_fy = filing_end[latest["accn"]]
        fiscal_year = fiscal_year_for(end, anchor_end, anchor_fy)
        history: list[FiledValue] = []
        seen: set[str] = set()
        for e in entries:
            if e["accn"] in seen:
                continue
            seen.add(e["accn"])
            history.append(
                FiledValue(
                    value=to_millions(float(e["val"]), unit),
                    accn=e["accn"],
                    filed=parse_date(e["filed"]),
                    form=e["form"],
                )
            )
        fact = AnnualFact(
            concept=concept,
            fiscal_year=fiscal_year,
            value=to_millions(float(latest["val"]), unit),
            unit=f"{unit} millions" if unit == "USD" else unit,
            start=start,
            end=end,
            accn=latest["accn"],
            filed=parse_date(latest["filed"]),
            history=tuple(history),
        )
        key = (concept, fiscal_year)
        current = annual.get(key)
        # Two periods landing on one fiscal year (a transition period): keep the later filed.
        if current is None or (fact.filed, fact.end) > (current.filed, current.end):
            annual[key] = fact
    return CompanyFacts(
        cik=int(payload.get("cik", 0)),
        entity_name=str(payload.get("entityName", "")),
        annual=annual,
    )


def cik_for_ticker(ticker: str, mapping: Mapping[str, int] | None = None) -> int:
    """Ticker -> CIK via ``mapping`` (from ``SecCompanyFacts.company_tickers()``) or KNOWN_CIKS."""
    symbol = ticker.strip().upper()
    table = mapping if mapping is not None else KNOWN_CIKS
    try:
        return table[symbol]
    except KeyError:
        raise UnknownSymbolError(f"No SEC CIK known for ticker {symbol!r}") from None


def parse_company_tickers(payload: Mapping[str, Any]) -> dict[str, int]:
    """``company_tickers.json`` is ``{"0": {"cik_str": 320193, "ticker": "AAPL", ...}, ...}``."""
    return {str(row["ticker"]).upper(): int(row["cik_str"]) for row in payload.values()}


class SecCompanyFacts:
    name = "sec_companyfacts"

    def __init__(
        self,
        user_agent: str,
        *,
        session: HttpSession | None = None,
        cache: Cache | None = None,
        cache_ttl_seconds: float = 24 * 3600,
        limiter: RateLimiter | None = None,
        retries: int = 3,
        backoff_seconds: float = 0.5,
        timeout: float = 20.0,
        sleep: Callable[[float], None] = time.sleep,
        now: WallClock = utc_now,
    ) -> None:
        if not user_agent or "@" not in user_agent:
            raise ProviderConfigurationError(
                "SEC requests need a User-Agent naming you and a contact e-mail, e.g. "
                "'Example Research admin@example.com' (set SEC_USER_AGENT)"
            )
        self.user_agent = user_agent
        self.session: HttpSession = session or cast(HttpSession, requests.Session())
        self.cache = cache
        self.cache_ttl_seconds = cache_ttl_seconds
        self.limiter = limiter or RateLimiter(SEC_MAX_REQUESTS_PER_SECOND, sleep=sleep)
        self.retries = retries
        self.backoff_seconds = backoff_seconds
        self.timeout = timeout
        self._sleep = sleep
        self._now = now

    def _get_json(self, url: str, not_found: str) -> Any:
        return get_json(
            self.session,
            url,
            headers={"User-Agent": self.user_agent, "Accept-Encoding": "gzip, deflate"},
            limiter=self.limiter,
            retries=self.retries,
            backoff_seconds=self.backoff_seconds,
            timeout=self.timeout,
            sleep=self._sleep,
            not_found_message=not_found,
            label="SEC EDGAR",
        )

    def fetch(self, query: CompanyFactsQuery) -> Fetched:
        url = COMPANYFACTS_URL.format(cik=query.cik)
        payload = self._get_json(url, f"SEC has no XBRL company facts for CIK {query.cik}")
        if not isinstance(payload, dict) or "facts" not in payload:
            raise ProviderError(f"SEC returned an unexpected companyfacts document for {url}")
        return Fetched(Source(self.name, url), self._now(), payload)

    def normalise(self, fetched: Fetched) -> CompanyFacts:
        if not isinstance(fetched.payload, Mapping):
            raise ProviderError("companyfacts payload must be a JSON object")
        return normalise_companyfacts(fetched.payload)

    def get(self, query: CompanyFactsQuery) -> ProviderResult[CompanyFacts]:
        key = f"{self.name}:{query.cik}"
        fetched, hit = cached_fetch(
            self.cache, key, self.cache_ttl_seconds, lambda: self.fetch(query)
        )
        return ProviderResult(fetched.source, fetched.retrieved_at, self.normalise(fetched), hit)

    def company_tickers(self) -> dict[str, int]:
        """The live ticker -> CIK table from ``company_tickers.json`` (cached)."""
        fetched, _ = cached_fetch(
            self.cache,
            f"{self.name}:company_tickers",
            self.cache_ttl_seconds,
            lambda: Fetched(
                Source(self.name, COMPANY_TICKERS_URL),
                self._now(),
                self._get_json(COMPANY_TICKERS_URL, "SEC company_tickers.json not found"),
            ),
        )
        if not isinstance(fetched.payload, Mapping):
            raise ProviderError("company_tickers.json must be a JSON object")
        return parse_company_tickers(fetched.payload)


def load_companyfacts_file(path: Path, now: WallClock = utc_now) -> ProviderResult[CompanyFacts]:
    """Normalise a recorded companyfacts JSON file (the offline path)."""
    payload = json.loads(path.read_text())
    return ProviderResult(
        Source(SecCompanyFacts.name, str(path)), now(), normalise_companyfacts(payload)
    )
