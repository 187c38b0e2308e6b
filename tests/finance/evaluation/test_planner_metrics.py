"""The offline planner's metric questions (finance.planner.metrics) and question searches."""

from __future__ import annotations

import pytest

from finance.planner.intent import question_query, read_intent
from finance.planner.metrics import (
    BS,
    CF,
    IS,
    Figure,
    MetricUnavailable,
    compute,
    read_metric,
)


@pytest.mark.parametrize(
    ("text", "name", "years", "unit"),
    [
        ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
         "capital_expenditure", (2018,), "USD millions"),
        ("what is the year end FY2018 net PPNE for 3M? Answer in USD billions.",
         "ppe_net", (2018,), "USD billions"),
        ("What is the FY2018 fixed asset turnover ratio for CVS Health?",
         "fixed asset turnover", (2018,), "ratio"),
        ("what is the FY2015 - FY2017 3 year average net profit margin (as a %)?",
         "net_income margin", (2015, 2016, 2017), "%"),
        ("What is the FY2022 unadjusted EBITDA less capex for PepsiCo?",
         "ebitda less capex", (2022,), "USD millions"),
    ],
)  # fmt: skip
def test_metric_questions_are_read(text, name, years, unit):
    request = read_metric(text)
    assert (request.name, request.years, request.unit) == (name, years, unit)


@pytest.mark.parametrize(
    "text",
    [
        "What drove gross margin change as of FY2022?",  # asks why, not for the value
        "What was the Adjusted Non GAAP EBITDA for FY 2023",  # not in the statements
        "What does the filing say about revenue?",  # a passage, not a figure
        "Is it a healthy company?",  # names no metric
    ],
)
def test_questions_that_are_not_metric_questions(text):
    assert read_metric(text) is None


@pytest.mark.parametrize(
    ("text", "name", "years", "compare", "judge"),
    [
        ("What is the capital expenditure?", "capital_expenditure", (), False, False),
        ("What is the FY2021 capex as a share of revenue?",
         "share:capital_expenditure/revenue", (2021,), False, False),
        ("Is the quick ratio healthy?", "quick ratio", (), False, True),
        ("Has AMCOR's quick ratio improved or declined between FY2023 and FY2022?",
         "quick ratio", (2023, 2022), True, False),
        ("How much has the effective tax rate changed between FY2021 and FY2022?",
         "effective tax rate", (2022, 2021), True, False),
        ("Roughly how many times has JnJ sold its inventory in FY2022?",
         "inventory turnover", (2022,), False, False),
        ("Is 3M a capital-intensive business based on FY2022 data?",
         "share:capital_expenditure/revenue", (2022,), False, True),
        ("what was the operating margin in 2022", "operating_income margin", (2022,), False,
         False),
        ("whats the ROE for fiscal 2023", "return on equity", (2023,), False, False),
        ("Are the gross margins historically consistent?", "gross_profit margin", (), True,
         False),
    ],
)  # fmt: skip
def test_metric_questions_as_analysts_ask_them(text, name, years, compare, judge):
    request = read_metric(text)
    assert request is not None, text
    assert (request.name, request.years, request.compare, request.judge) == (
        name, years, compare, judge,
    )  # fmt: skip


def test_a_quarter_named_in_the_question_is_that_quarter_of_each_year():
    request = read_metric(
        "Did JnJ's net earnings as a percent of sales increase in Q2 of FY2023 compared to Q2 "
        "of FY2022?"
    )
    assert request is not None and request.name == "share:net_income/revenue"
    assert request.labels() == ["Q2 2023", "Q2 2022"] and request.unit == "%"


def test_without_a_year_the_latest_period_is_computed():
    request = read_metric("Is the quick ratio healthy?")
    assert request is not None
    assert request.labels(["FY2021", "FY2022", "Q2 2023"]) == ["FY2022"]
    assert request.labels(["Q2 2023", "6M 2023", "Q2 2022"]) == ["Q2 2023"]


def test_metrics_are_computed_from_statement_lines():
    turnover = read_metric("What is the FY2018 fixed asset turnover ratio?")
    assert turnover is not None
    values = {
        Figure(IS, "revenue", "FY2018"): 194579.0,
        Figure(BS, "ppe_net", "FY2018"): 11349.0,
        Figure(BS, "ppe_net", "FY2017"): 10292.0,
    }
    assert compute(turnover, values) == pytest.approx(17.98, abs=0.005)
    capex = read_metric("What is the FY2021 capital expenditure amount (in USD billions)?")
    assert capex is not None
    assert compute(capex, {Figure(CF, "capital_expenditure", "FY2021"): 4625.0}) == 4.625
    with pytest.raises(MetricUnavailable, match="capital expenditure FY2021"):
        compute(capex, {})


def test_a_question_is_searched_as_asked_with_the_statement_it_names():
    text = (
        "What is the FY2021 capital expenditure amount (in USD billions) for PepsiCo? Respond "
        "by assuming the perspective of an analyst who can only use the statement of cash flows."
    )
    query = question_query(text)
    assert query == text  # whole: the rest of the request names the statement to rank first
    assert read_intent(text).questions == (query,)


def test_a_long_question_keeps_its_asking_sentence_within_the_search_limit():
    preamble = (
        "Answer the following question as if you are an equity research analyst and have lost "
        "internet connection so you do not have access to financial metric providers. "
    ) * 2
    asking = "What is the FY2015 depreciation and amortization % margin for AMD?"
    query = question_query(preamble + asking)
    assert query.startswith(asking) and len(query) <= 300


def test_arithmetic_stays_with_the_calculator():
    assert not read_intent("what is (17 * 23) + 4?").research
