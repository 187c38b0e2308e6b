"""Rules found on the third hold-out, with questions as people type them: typos and short years,
"tax rate", parts of a line ("services revenue"), amounts per share, "% of revenue", total debt,
dates, "last quarter" and "first half"."""

from __future__ import annotations

import json

import pytest

from finance.planner.intent import read_intent
from finance.planner.metric_answer import metric_answer
from finance.planner.metrics import read_metric
from finance.planner.policy import ResearchPlanner
from finance.planner.wording import normalise_request


def _answer(prompt: str, found: dict, document: dict | None = None) -> tuple[str, dict]:
    request = read_metric(prompt)
    assert request is not None, prompt
    document = document or {"id": 7, "name": "filing.pdf"}
    results = {
        f"statements-7-{statement}": json.dumps({statement: lines, **extra})
        for statement, (lines, extra) in found.items()
    }
    return metric_answer(request, prompt, [document], results)


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("AAPL efective tax rate FY2022", "AAPL effective tax rate FY2022"),
        ("wat was verizon's capex in 2021", "what was verizon's capex in 2021"),
        ("msft fcf FY23", "msft fcf FY2023"),
        ("revenu growth Q2'23", "revenue growth Q2 2023"),
        (
            "What is the fixed asset turnover for Generac?",
            "What is the fixed asset turnover for Generac?",
        ),
        # Words made from a finance word are other words, not misspellings of it.
        ("marginal tax rate 2022", "marginal tax rate 2022"),
        (
            "interested in the currently reported revenue",
            "interested in the currently reported revenue",
        ),
    ],
)
def test_typos_and_short_years_are_read_as_meant(typed, read):
    assert normalise_request(typed) == read


@pytest.mark.parametrize(
    "text", ["AAPL efective tax rate FY2022", "amcor tax rate FY2023?", "BBY FY17 ETR"]
)
def test_tax_rate_as_typed_is_the_effective_tax_rate(text):
    intent = read_intent(text)
    assert intent.metric is not None and intent.metric.name == "effective tax rate"


@pytest.mark.parametrize(
    "text",
    [
        "apple services revenue growth fy22 vs fy21, %",
        "Verizon wireless equipment revenue growth 2021 vs 2020 in %",
        "pg&e electric revenue growth 2021?",
    ],
)
def test_a_part_of_revenue_is_not_answered_with_the_total(text):
    lines = {"revenue": {"FY2022": 394328.0, "FY2021": 365817.0, "FY2020": 128292.0}}
    company = {"id": 7, "name": "filing.pdf", "company": "Verizon Communications Inc."}
    lead, result = _answer(text, {"income_statement": (lines, {})}, company)
    assert result["answers"] == [] and "could not compute" in lead


@pytest.mark.parametrize(
    ("text", "company"),
    [
        ("Best Buy revenue growth Q2 FY2024 vs Q2 last year, in %", "BEST BUY CO., INC."),
        ("PepsiCo net revenue growth 2022 vs 2021", "PepsiCo, Inc."),
        ("pepsi revenue growth 2022 vs 2021", "PepsiCo, Inc."),
        ("AMD revenue growth 2022", ""),
        ("J&J's sales growth 2022 vs 2021", ""),
    ],
)
def test_the_company_s_own_name_before_revenue_is_no_part(text, company):
    lines = {"revenue": {"FY2022": 110.0, "FY2021": 100.0, "Q2 2024": 110.0, "Q2 2023": 100.0}}
    document = {"id": 7, "name": "filing.pdf", "company": company}
    _, result = _answer(text, {"income_statement": (lines, {})}, document)
    assert result["answers"][0]["value"] == pytest.approx(10.0)


@pytest.mark.parametrize(
    "text",
    ["VZ dividends declared per share 2021", "Best Buy dividends per share in FY2017?"],
)
def test_an_amount_per_share_is_not_answered_with_the_total(text):
    lines = {"dividends_paid": {"FY2021": 10445.0, "FY2017": 505.0}}
    lead, result = _answer(text, {"cash_flow": (lines, {})})
    assert result["answers"] == [] and "not per share" in lead


@pytest.mark.parametrize(
    "text",
    [
        "what % of revenue did Microsoft spend on R&D in FY2023?",
        "R&D as % of revenue FY2023",
        "R&D as a % of net revenue, 2023",
    ],
)
def test_a_share_of_revenue_in_either_order(text):
    request = read_metric(text)
    assert request is not None and request.name == "share:research_and_development/revenue"


def test_total_debt_to_equity_adds_the_debt_due_within_a_year():
    lines = {
        "long_term_debt": {"FY2017": 1321.0},
        "current_debt": {"FY2017": 44.0},
        "shareholders_equity": {"FY2017": 4709.0},
    }
    _, result = _answer(
        "best buy total debt to equity at the end of fiscal 2017",
        {"balance_sheet": (lines, {"balance_sheet_pages": [54]})},
    )
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(1365 / 4709)
    assert [i["value"] for i in answer["inputs"]] == [1321.0, 44.0, 4709.0]
    plain = read_metric("3M long-term debt to equity at the end of 2022")
    assert plain is not None and plain.name == "debt to equity"


BALANCE = {
    "total_current_assets": {"Q2 2023": 5863.0, "FY2022": 5853.0},
    "total_current_liabilities": {"Q2 2023": 4393.0, "FY2022": 5103.0},
}
ENDS = {"period_ends": {"Q2 2023": "2022-12-31", "6M 2023": "2022-12-31", "FY2022": "2022-06-30"}}


def test_a_date_is_the_period_that_ends_then_not_a_fiscal_year():
    _, result = _answer("AMCR current ratio at dec 31 2022", {"balance_sheet": (BALANCE, ENDS)})
    (answer,) = result["answers"]
    assert answer["period"] == "Q2 2023" and answer["value"] == pytest.approx(5863 / 4393)


def test_a_date_no_period_ends_on_is_said_so():
    lead, result = _answer(
        "AMCR current ratio at march 31 2021", {"balance_sheet": (BALANCE, ENDS)}
    )
    assert result["answers"] == [] and "no period ending March 31, 2021" in lead


INCOME = {
    "gross_profit": {"6M 2023": 1330.0, "Q2 2023": 662.0, "FY2022": 2820.0},
    "revenue": {"6M 2023": 7354.0, "Q2 2023": 3642.0, "FY2022": 14544.0},
}


AMCOR = {"id": 7, "name": "AMCOR_2023Q2_10Q.pdf", "company": "Amcor plc"}


def test_last_quarter_is_the_latest_quarter():
    _, result = _answer(
        "amcor gross margin last quarter?", {"income_statement": (INCOME, {})}, AMCOR
    )
    assert result["answers"][0]["period"] == "Q2 2023"
    _, dated = _answer(
        "amcor gross margin last quarter? (3 months to Dec 2022)",
        {"income_statement": (INCOME, ENDS)},
        AMCOR,
    )
    assert dated["answers"][0]["value"] == pytest.approx(100 * 662 / 3642)


def test_first_half_of_a_short_fiscal_year_is_its_six_months():
    flows = {"operating_cash_flow": {"6M 2023": 145.0}, "capital_expenditure": {"6M 2023": 250.0}}
    _, result = _answer(
        "amcor free cash flow for the first half of FY23 (CFO minus capex), in millions",
        {"cash_flow": (flows, {})},
    )
    (answer,) = result["answers"]
    assert (answer["period"], answer["value"]) == ("6M 2023", -105.0)


def test_net_interest_income_is_a_line_of_its_own():
    request = read_metric("jpm net interest income growth Q2 2022 yoy")
    assert request is not None
    assert (request.name, request.change, request.labels()) == (
        "net_interest_income",
        "growth",
        ["Q2 2022", "Q2 2021"],
    )


def test_how_much_it_grew_is_a_growth_rate_unless_an_amount_is_asked():
    grew = read_metric(
        "how much did J&J's net earnings grow in Q2 2023 vs the same quarter last year?"
    )
    assert grew is not None and (grew.change, grew.unit) == ("growth", "%")
    rose = read_metric("How much did R&D expense rise in 2021 vs 2020, $M?")
    assert rose is not None and rose.change == "difference"


def test_a_line_carried_to_the_next_page_cites_that_page():
    lines = {"share_repurchases": {"FY2022": 1500.0}}
    extra = {
        "cash_flow_pages": [63, 64],
        "cash_flow_cell_pages": {"share_repurchases": {"FY2022": 64}},
    }
    _, result = _answer(
        "How much did PepsiCo spend on share buybacks in 2022?", {"cash_flow": (lines, extra)}
    )
    assert result["answers"][0]["page"] == 64


SERVICES = {
    "label": "Services",
    "section": "",
    "page": 31,
    "cells": {"FY2022": 78129.0, "FY2021": 68425.0},
}
APPLE = {"id": 7, "name": "APPLE_2022_10K.pdf", "company": "Apple Inc."}


def test_a_part_printed_as_its_own_row_answers_for_that_part():
    lines = {"revenue": {"FY2022": 394328.0, "FY2021": 365817.0}}
    lead, result = _answer(
        "apple services revenue growth fy22 vs fy21, %",
        {"income_statement": (lines, {"income_statement_part": SERVICES})},
        APPLE,
    )
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(100 * (78129 / 68425 - 1))
    assert [i["value"] for i in answer["inputs"]] == [78129.0, 68425.0]
    assert answer["inputs"][0]["label"] == "services revenue FY2022"
    assert "services revenue growth" in lead and "'Services'" in lead


def test_a_part_the_statement_does_not_print_is_said_so():
    lines = {"revenue": {"FY2022": 394328.0, "FY2021": 365817.0}}
    lead, result = _answer(
        "apple wearables revenue growth fy22",
        {"income_statement": (lines, {"income_statement_part": None})},
        APPLE,
    )
    assert result["answers"] == [] and "no 'wearables' line" in lead


def test_the_plan_asks_the_statements_for_the_part_less_the_company_name():
    intent = read_intent("Verizon wireless equipment revenue growth 2021 vs 2020 in %")
    document = {
        "id": 3,
        "name": "VERIZON_2021_10K.pdf",
        "company": "Verizon",
        "fiscal_years": ["FY2021"],
    }
    steps = ResearchPlanner().steps(intent, [document])
    arguments = next(a for call, _, a, _ in steps if call == "statements-3-income_statement")
    assert arguments == {
        "document_id": 3,
        "statement": "income_statement",
        "line": "revenue",
        "part": "wireless equipment",
    }
