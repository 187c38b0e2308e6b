"""Providers from Django settings; replay mode reads the recorded responses in shared data."""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path

import pytest

from finance.providers import (
    CompanyFactsQuery,
    PriceQuery,
    ProviderConfigurationError,
    SeriesQuery,
    UnknownSymbolError,
    configured,
)
from tests.finance.providers.conftest import COMPANYFACTS, FINANCE_DATA


@pytest.fixture
def replay(settings):
    if not COMPANYFACTS.is_file():
        pytest.skip(f"recorded responses not found under {FINANCE_DATA}")
    settings.FINANCE_RECORDED_DIR = str(FINANCE_DATA)
    settings.SEC_USER_AGENT = "AgentWorks tests tests@example.com"
    settings.FINANCE_CACHE_ALIAS = "default"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"configured-{uuid.uuid4()}",
        }
    }
    return settings


def test_test_settings_point_at_the_shared_recordings():
    from django.conf import settings

    assert Path(settings.FINANCE_RECORDED_DIR) == FINANCE_DATA
    assert "@" in settings.SEC_USER_AGENT


def test_replays_apple_companyfacts_through_the_cache(replay):
    provider = configured.sec_companyfacts()
    first = provider.get(CompanyFactsQuery(320193))
    assert first.data.entity_name == "Apple Inc."
    assert first.data.value("NetIncomeLoss", 2024) == 93_736
    assert first.source.location == "https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"
    assert first.from_cache is False
    assert configured.sec_companyfacts().get(CompanyFactsQuery(320193)).from_cache is True


def test_ticker_to_cik_from_the_recorded_companyfacts_files(replay):
    assert configured.sec_cik_for_ticker("aapl") == 320193
    with pytest.raises(UnknownSymbolError, match="MSFT"):
        configured.sec_cik_for_ticker("MSFT")


def test_a_cik_without_a_recording_is_a_clear_error(replay):
    with pytest.raises(UnknownSymbolError, match=r"No recorded SEC companyfacts.*0000789019"):
        configured.sec_companyfacts().get(CompanyFactsQuery(789019))


def test_replays_recorded_prices_case_insensitively(replay):
    provider = configured.yahoo_finance()
    result = provider.get_prices(
        PriceQuery("NVDA", start=dt.date(2014, 1, 1), end=dt.date(2014, 2, 1))
    )
    frame = result.data
    assert frame.index.min() >= dt.datetime(2014, 1, 2)
    assert frame.index.max() < dt.datetime(2014, 2, 1)
    assert len(frame) == 21  # NYSE trading days in January 2014
    assert {"close", "adj_close", "volume"} <= set(frame.columns)
    calm = provider.get_prices(PriceQuery("calm")).data
    assert len(calm) > 100


def test_recorded_intraday_prices_need_their_interval(replay):
    provider = configured.yahoo_finance()
    bars = provider.get_prices(PriceQuery("EA", interval="15m")).data
    assert bars.index.to_series().diff().min() == dt.timedelta(minutes=15)
    with pytest.raises(UnknownSymbolError, match="EA"):
        provider.get_prices(PriceQuery("EA", interval="1d"))


def test_a_ticker_without_recorded_prices_is_unknown(replay):
    with pytest.raises(UnknownSymbolError, match="ZZZZ"):
        configured.yahoo_finance().get_prices(PriceQuery("ZZZZ"))


def test_fred_replay_needs_no_key_and_says_what_is_missing(replay):
    replay.FRED_API_KEY = ""
    with pytest.raises(UnknownSymbolError, match=r"No recorded FRED response.*FEDFUNDS"):
        configured.fred().get(SeriesQuery("FEDFUNDS"))


def test_missing_user_agent_names_the_setting(replay):
    replay.SEC_USER_AGENT = ""
    with pytest.raises(ProviderConfigurationError, match="SEC_USER_AGENT"):
        configured.sec_companyfacts()


def test_live_fred_without_a_key_names_the_setting(settings):
    settings.FINANCE_RECORDED_DIR = ""
    settings.FRED_API_KEY = ""
    with pytest.raises(ProviderConfigurationError, match="FRED_API_KEY"):
        configured.fred()


def test_live_mode_builds_network_providers(settings):
    settings.FINANCE_RECORDED_DIR = ""
    settings.FRED_API_KEY = "a-key"
    settings.SEC_USER_AGENT = "AgentWorks tests tests@example.com"
    assert type(configured.sec_companyfacts().session).__name__ == "Session"
    assert configured.fred().api_key == "a-key"
    assert configured.finance_cache().prefix == "finance"


def test_a_recorded_dir_that_is_not_a_folder_is_a_configuration_error(settings, tmp_path):
    settings.FINANCE_RECORDED_DIR = str(tmp_path / "missing")
    with pytest.raises(ProviderConfigurationError, match="FINANCE_RECORDED_DIR"):
        configured.yahoo_finance()


def test_an_unknown_cache_alias_is_a_configuration_error(settings):
    settings.FINANCE_CACHE_ALIAS = "nope"
    with pytest.raises(ProviderConfigurationError, match="FINANCE_CACHE_ALIAS"):
        configured.finance_cache()
