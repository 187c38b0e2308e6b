"""A source that cannot be reached says so ("could not be reached: <why>"), never "no data",
and the reason carries no URL query string or key."""

from __future__ import annotations

import pytest
import requests

from finance.providers import ProviderUnavailableError, SeriesQuery, UnknownSymbolError
from finance.providers.yahoo import StatementQuery, YahooFinance
from tests.finance.providers.fakes import FakeSession
from tests.finance.providers.test_fred import make_fred

DNS_FAILURE = (
    "HTTPSConnectionPool(host='query2.finance.yahoo.com', port=443): Max retries exceeded with "
    "url: /v10/finance/quoteSummary/PEP?crumb=s3cr3t&api_key=k3y (Caused by NameResolutionError("
    "\"<urllib3.connection.HTTPSConnection>: Failed to resolve 'query2.finance.yahoo.com' "
    '([Errno -2] Name or service not known)"))'
)


class DownSession(requests.Session):
    """A session whose every request fails as a DNS failure does."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def request(self, method, url, *args, **kwargs):
        self.calls += 1
        raise requests.ConnectionError(DNS_FAILURE)


@pytest.fixture
def down_session():
    """The session given to yfinance (a process-wide singleton), put back afterwards."""
    from yfinance.data import YfData  # type: ignore[import-untyped]

    data = YfData()
    before = data._session
    session = DownSession()
    try:
        yield session
    finally:
        data._session = before


def assert_unreachable(error: pytest.ExceptionInfo[ProviderUnavailableError], reason: str) -> None:
    message = str(error.value)
    assert message == f"Yahoo Finance could not be reached: {reason}"
    for secret in ("s3cr3t", "k3y", "crumb=", "api_key", "?"):
        assert secret not in message
    assert "has no" not in message


def test_yahoo_statements_without_a_network_are_unreachable_not_missing(down_session):
    provider = YahooFinance(session=down_session)

    with pytest.raises(ProviderUnavailableError) as error:
        provider.get_statement(StatementQuery("PEP", "income"))

    assert not isinstance(error.value, UnknownSymbolError)
    # yfinance logs only the error's type, and answers an empty frame
    assert_unreachable(error, "the connection failed (ConnectionError)")
    assert down_session.calls >= 1  # yfinance really went through the mocked session


def test_yahoo_error_raised_by_the_library_is_unreachable_too():
    class Ticker:
        @property
        def income_stmt(self):
            raise requests.ConnectionError(DNS_FAILURE)

    provider = YahooFinance(ticker_factory=lambda symbol: Ticker())

    with pytest.raises(ProviderUnavailableError) as error:
        provider.get_statement(StatementQuery("PEP", "income"))

    assert_unreachable(
        error, "the name query2.finance.yahoo.com could not be resolved (DNS failure)"
    )


def test_an_empty_answer_with_a_working_network_is_still_no_data():
    import pandas as pd  # type: ignore[import-untyped]

    class Ticker:
        income_stmt = pd.DataFrame()

    provider = YahooFinance(ticker_factory=lambda symbol: Ticker())

    with pytest.raises(UnknownSymbolError, match="Yahoo Finance has no income for 'PEP'"):
        provider.get_statement(StatementQuery("PEP", "income"))


def test_fred_without_a_network_says_it_could_not_be_reached_without_the_key():
    failure = requests.ConnectionError(
        DNS_FAILURE.replace("query2.finance.yahoo.com", "api.stlouisfed.org")
    )
    session = FakeSession(*[failure] * 4)

    with pytest.raises(ProviderUnavailableError) as error:
        make_fred(session).get(SeriesQuery("GDP"))

    message = str(error.value)
    assert (
        "could not be reached: the name api.stlouisfed.org could not be resolved (DNS failure)"
        in message
    )
    assert "test-key" not in message and "k3y" not in message and "?" not in message
