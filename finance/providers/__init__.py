"""Financial data providers: one model (query -> fetch -> normalise) for every source."""

from finance.providers.base import (
    Fetched,
    Provider,
    ProviderConfigurationError,
    ProviderError,
    ProviderResult,
    ProviderUnavailableError,
    Source,
    UnknownSymbolError,
)
from finance.providers.cache import Cache, InMemoryCache
from finance.providers.fred import Fred, SeriesQuery
from finance.providers.http import RateLimiter
from finance.providers.sec import CompanyFactsQuery, SecCompanyFacts, cik_for_ticker
from finance.providers.user_files import CsvQuery, UserCsv
from finance.providers.yahoo import PriceQuery, YahooFinance, read_price_csv

__all__ = [
    "Cache",
    "CompanyFactsQuery",
    "CsvQuery",
    "Fetched",
    "Fred",
    "InMemoryCache",
    "PriceQuery",
    "Provider",
    "ProviderConfigurationError",
    "ProviderError",
    "ProviderResult",
    "ProviderUnavailableError",
    "RateLimiter",
    "SecCompanyFacts",
    "SeriesQuery",
    "Source",
    "UnknownSymbolError",
    "UserCsv",
    "YahooFinance",
    "cik_for_ticker",
    "read_price_csv",
]
