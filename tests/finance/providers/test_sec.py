from __future__ import annotations

import datetime as dt

import pytest

from finance.providers import (
    CompanyFactsQuery,
    InMemoryCache,
    ProviderConfigurationError,
    ProviderUnavailableError,
    RateLimiter,
    SecCompanyFacts,
    UnknownSymbolError,
    cik_for_ticker,
)
from finance.providers.sec import (
    COMPANYFACTS_URL,
    load_companyfacts_file,
    normalise_companyfacts,
    parse_company_tickers,
)
from tests.finance.providers.conftest import COMPANYFACTS
from tests.finance.providers.fakes import FakeResponse, FakeSession, ManualClock, timeout

UA = "AgentWorks tests tests@example.com"
FIXED_NOW = dt.datetime(2026, 1, 2, tzinfo=dt.UTC)


def make_provider(session, clock=None, **kwargs):
    clock = clock or ManualClock()
    return SecCompanyFacts(
        UA,
        session=session,
        limiter=RateLimiter(10, clock=clock, sleep=clock.sleep),
        sleep=clock.sleep,
        now=lambda: FIXED_NOW,
        **kwargs,
    )


def test_normalises_apple_annual_values_in_usd_millions(apple_companyfacts_payload):
    facts = normalise_companyfacts(apple_companyfacts_payload)
    assert facts.cik == 320193
    assert facts.entity_name == "Apple Inc."
    revenue = facts.annual[("RevenueFromContractWithCustomerExcludingAssessedTax", 2024)]
    assert revenue.value == 391_035
    assert revenue.unit == "USD millions"
    assert revenue.end == dt.date(2024, 9, 28)
    assert revenue.start == dt.date(2023, 10, 1)
    assert facts.value("NetIncomeLoss", 2024) == 93_736
    assert facts.value("Assets", 2024) == 364_980
    # Comparatives land on their own fiscal year, not the filing's ``fy``.
    assert facts.value("NetIncomeLoss", 2023) == 96_995
    assert facts.value("NetIncomeLoss", 2022) == 99_803


def test_prefers_latest_filed_and_keeps_citations(apple_companyfacts_payload):
    facts = normalise_companyfacts(apple_companyfacts_payload)
    revenue = facts.annual[("RevenueFromContractWithCustomerExcludingAssessedTax", 2024)]
    # Reported in the FY2024 10-K and again as a comparative in the FY2025 10-K.
    assert [h.accn for h in revenue.history] == ["0000320193-24-000123", "0000320193-25-000079"]
    assert revenue.accn == "0000320193-25-000079"
    assert revenue.filed == dt.date(2025, 10, 31)
    assert not revenue.restated
    assert "0000320193-25-000079" in revenue.citation

    recast = facts.annual[("IncomeTaxReconciliationOtherAdjustments", 2024)]
    assert recast.restated
    assert [h.value for h in recast.history] == [10, 279]
    assert recast.value == 279


def test_quarterly_values_in_10k_are_not_annual(apple_companyfacts_payload):
    facts = normalise_companyfacts(apple_companyfacts_payload)
    for fact in facts.annual.values():
        if fact.start is not None:
            assert 340 <= (fact.end - fact.start).days <= 380


def test_load_recorded_file_names_its_source(apple_companyfacts_payload):
    result = load_companyfacts_file(COMPANYFACTS, now=lambda: FIXED_NOW)
    assert result.source.provider == "sec_companyfacts"
    assert result.source.location == str(COMPANYFACTS)
    assert result.retrieved_at == FIXED_NOW


def test_ticker_mapping():
    assert cik_for_ticker("aapl") == 320193
    with pytest.raises(UnknownSymbolError, match="ZZZZ"):
        cik_for_ticker("ZZZZ")
    live_shape = {"0": {"cik_str": 320193, "ticker": "AAPL", "title": "Apple Inc."}}
    assert cik_for_ticker("AAPL", parse_company_tickers(live_shape)) == 320193


def test_company_tickers_goes_through_the_session():
    session = FakeSession(
        FakeResponse(200, {"0": {"cik_str": 789019, "ticker": "MSFT", "title": "Microsoft"}})
    )
    assert make_provider(session).company_tickers() == {"MSFT": 789019}
    assert session.calls[0]["url"] == "https://www.sec.gov/files/company_tickers.json"


def test_refuses_to_run_without_user_agent():
    with pytest.raises(ProviderConfigurationError, match="User-Agent"):
        SecCompanyFacts("")
    with pytest.raises(ProviderConfigurationError):
        SecCompanyFacts("python-requests/2.32")  # no contact address


def test_fetch_sends_user_agent_and_normalises(apple_companyfacts_payload):
    session = FakeSession(FakeResponse(200, apple_companyfacts_payload))
    result = make_provider(session).get(CompanyFactsQuery(320193))
    call = session.calls[0]
    assert call["url"] == "https://data.sec.gov/api/xbrl/companyfacts/CIK0000320193.json"
    assert call["url"] == COMPANYFACTS_URL.format(cik=320193)
    assert call["headers"]["User-Agent"] == UA
    assert result.source.location == call["url"]
    assert result.retrieved_at == FIXED_NOW
    assert result.data.value("NetIncomeLoss", 2024) == 93_736


def test_retries_429_then_succeeds(apple_companyfacts_payload):
    clock = ManualClock()
    session = FakeSession(
        FakeResponse(429),
        FakeResponse(503),
        FakeResponse(200, apple_companyfacts_payload),
    )
    result = make_provider(session, clock).get(CompanyFactsQuery(320193))
    assert len(session.calls) == 3
    assert result.data.value("Assets", 2024) == 364_980
    assert clock.sleeps[:2] == [0.5, 1.0]  # exponential backoff


def test_429_honours_retry_after(apple_companyfacts_payload):
    clock = ManualClock()
    session = FakeSession(
        FakeResponse(429, headers={"Retry-After": "2"}),
        FakeResponse(200, apple_companyfacts_payload),
    )
    make_provider(session, clock).get(CompanyFactsQuery(320193))
    assert 2.0 in clock.sleeps


def test_404_is_an_unknown_company():
    session = FakeSession(FakeResponse(404))
    with pytest.raises(UnknownSymbolError, match="CIK 9999999999"):
        make_provider(session).get(CompanyFactsQuery(9_999_999_999))
    assert len(session.calls) == 1  # no retries for a definite answer


def test_timeouts_become_an_outage_after_retries():
    clock = ManualClock()
    session = FakeSession(timeout(), timeout(), timeout(), timeout())
    with pytest.raises(
        ProviderUnavailableError, match="could not be reached: the connection timed out"
    ):
        make_provider(session, clock, retries=3).get(CompanyFactsQuery(320193))
    assert len(session.calls) == 4
    assert clock.sleeps == [0.5, 1.0, 2.0]


def test_persistent_5xx_is_an_outage():
    session = FakeSession(*(FakeResponse(500) for _ in range(3)))
    with pytest.raises(ProviderUnavailableError, match="HTTP 500"):
        make_provider(session, retries=2).get(CompanyFactsQuery(320193))


def test_cache_hit_skips_the_fetch(apple_companyfacts_payload):
    session = FakeSession(FakeResponse(200, apple_companyfacts_payload))
    cache_clock = ManualClock()
    provider = make_provider(session, cache=InMemoryCache(clock=cache_clock))
    first = provider.get(CompanyFactsQuery(320193))
    second = provider.get(CompanyFactsQuery(320193))
    assert len(session.calls) == 1
    assert not first.from_cache and second.from_cache
    assert second.data.value("NetIncomeLoss", 2024) == 93_736
    # After the TTL the provider fetches again.
    cache_clock.now += provider.cache_ttl_seconds + 1
    session.script.append(FakeResponse(200, apple_companyfacts_payload))
    assert not provider.get(CompanyFactsQuery(320193)).from_cache
    assert len(session.calls) == 2
