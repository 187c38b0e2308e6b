"""How the offline research planner reads a request (its documented table)."""

from __future__ import annotations

import pytest

from finance.planner.intent import read_intent


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("compare margins 2017\u20132019", (2017, 2019)),
        ("margins from FY2016 to FY2018", (2016, 2018)),
        ("what happened in 2018?", (2018, 2018)),
        ("growth since 2015", (2015, 2100)),
        ("analyse this 10-K", None),
    ],
)
def test_years_are_read_from_ranges_single_years_and_since(text, years):
    assert read_intent(text).years == years


def test_analyse_this_10k_is_a_full_plan_with_passages_and_a_valuation():
    intent = read_intent("Analyse this 10-K")
    assert intent.research and intent.valuation
    assert intent.questions == ("risk factors", "liquidity and capital resources")
    assert not intent.cross_check and not intent.prices


def test_cross_check_with_a_ticker_and_market_data():
    intent = read_intent("Cross-check NFLX with SEC data and show the stock volatility")
    assert intent.cross_check and intent.prices
    assert intent.ticker == "NFLX"


def test_a_question_about_the_filing_becomes_a_search():
    intent = read_intent("What does the filing say about competition?")
    assert intent.questions == ("competition",)


def test_advice_and_price_forecasts_are_declined_plainly():
    intent = read_intent("Should I buy AAPL? Forecast the stock price.")
    assert intent.research
    assert any("buy or sell advice" in m for m in intent.unsupported)
    assert any("forecast share prices" in m for m in intent.unsupported)


def test_words_in_capitals_that_are_not_tickers_are_ignored():
    assert read_intent("compare the SEC XBRL and FRED GDP data").ticker == ""


def test_a_greeting_is_not_research():
    assert not read_intent("hi").research
