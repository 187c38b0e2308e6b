"""Rules found on the fourth hold-out, with questions as people type them: net debt, working
capital, total debt to total equity, a bank's efficiency ratio, stock-based compensation, long
questions whose extra words only name a period, "cost of sales as a % of revenues", and ratios
the planner does not know."""

from __future__ import annotations

import json

import pytest

from finance.planner.intent import read_intent
from finance.planner.metric_answer import metric_answer
from finance.planner.metrics import read_metric
from finance.statements.synonyms import match_label


def _answer(prompt: str, found: dict) -> tuple[str, dict]:
    request = read_metric(prompt)
    assert request is not None, prompt
    results = {
        f"statements-7-{statement}": json.dumps({statement: lines, **extra})
        for statement, (lines, extra) in found.items()
    }
    return metric_answer(request, prompt, [{"id": 7, "name": "filing.pdf"}], results)


DEBT = {
    "current_debt": {"FY2022": 14.0},
    "short_term_debt": {"FY2022": 48.0},
    "long_term_debt": {"FY2022": 6840.0},
    "cash_and_equivalents": {"FY2022": 837.0},
    "shareholders_equity": {"FY2022": 4353.0},
    "total_equity": {"FY2022": 4411.0},
    "total_current_assets": {"FY2022": 5863.0},
    "total_current_liabilities": {"FY2022": 4393.0},
}
BALANCE = {"balance_sheet": (DEBT, {"balance_sheet_pages": [6]})}


@pytest.mark.parametrize(
    "text",
    [
        "Amcor net debt at the end of 2022 (total debt minus cash), $M",
        "what's the net debt in FY2022?",
        "net debt 2022",
    ],
)
def test_net_debt_takes_the_cash_off_the_total_debt(text):
    _, result = _answer(text, BALANCE)
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(14 + 48 + 6840 - 837)


@pytest.mark.parametrize(
    "text", ["pepsi working capital end of FY2022", "what was net working capital in 2022?"]
)
def test_working_capital_is_current_assets_less_current_liabilities(text):
    _, result = _answer(text, BALANCE)
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(5863 - 4393)


def test_changes_in_working_capital_are_not_the_balance():
    assert read_metric("how much cash did changes in working capital use in 2022?") is None


def test_total_debt_to_total_shareholders_equity_counts_the_non_controlling_interests():
    _, result = _answer("AMCR total debt to total shareholders' equity at the end of 2022", BALANCE)
    (answer,) = result["answers"]
    assert answer["value"] == pytest.approx(6902 / 4411)
    _, plain = _answer("total debt to equity 2022", BALANCE)
    assert plain["answers"][0]["value"] == pytest.approx(6902 / 4353)


def test_a_bank_s_efficiency_ratio_is_noninterest_expense_over_revenue():
    lines = {
        "noninterest_expense": {"Q1 2021": 18725.0},
        "interest_expense": {"Q1 2021": 1382.0},
        "revenue": {"Q1 2021": 32266.0},
    }
    found = {"income_statement": (lines, {"income_statement_pages": [78]})}
    for text in (
        "jpm efficiency ratio Q1 2021 (noninterest expense / total net revenue)",
        "JPM noninterest expense as a % of total net revenue Q1 2021",
    ):
        _, result = _answer(text, found)
        assert result["answers"][0]["value"] == pytest.approx(100 * 18725 / 32266), text


def test_noninterest_expense_is_not_interest_expense():
    request = read_metric("JPM non-interest expense Q1 2021")
    assert request is not None and request.name == "noninterest_expense"


@pytest.mark.parametrize(
    "text",
    [
        "best buy stock based comp YTD fiscal 2024 (six months)",
        "amd stock-based comp 2015, $M",
        "how much share-based compensation expense did they record in 2022?",
    ],
)
def test_stock_based_compensation_is_a_cash_flow_line(text):
    request = read_metric(text)
    assert request is not None and request.name == "stock_based_compensation"


def test_ytd_is_a_period_not_a_ticker():
    assert read_intent("best buy stock based comp YTD fiscal 2024").ticker == ""


@pytest.mark.parametrize(
    ("text", "name", "months"),
    [
        (
            "PFE cost of sales as a % of revenues, six months ended July 2 2023",
            "share:cost_of_revenue/revenue",
            6,
        ),
        (
            "amcor net income attributable to Amcor, six months to Dec 2022 vs the prior-year "
            "six months, % growth",
            "net_income",
            6,
        ),
    ],
)
def test_words_that_only_name_a_period_keep_a_question_terse(text, name, months):
    request = read_metric(text)
    assert request is not None and request.name == name and request.months == months


@pytest.mark.parametrize(
    "text",
    [
        "pepsico dividend payout ratio 2021 (dividends paid vs net income)",
        "price to earnings ratio eps 2021",
        "receivables turnover 2021",
    ],
)
def test_a_ratio_the_planner_does_not_know_is_not_answered_with_a_line(text):
    lines = {"dividends_paid": {"FY2021": 5815.0}, "net_income": {"FY2021": 7618.0}}
    lead, result = _answer(text, {"cash_flow": (lines, {})})
    assert result["answers"] == [] and "could not compute" in lead


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Selling, informational and administrative expenses(a)", "selling_general_administrative"),
        ("Share-based compensation expense", "stock_based_compensation"),
        ("Stock-based compensation", "stock_based_compensation"),
        ("Total noninterest expense", "noninterest_expense"),
    ],
)
def test_lines_in_the_filer_s_own_words(label, key):
    statement = "cash_flow" if "based" in label else "income_statement"
    assert key in dict(match_label(statement, label))


def test_total_shareholders_equity_is_the_total_equity():
    assert "total_equity" in dict(match_label("balance_sheet", "Total shareholders' equity"))
    parent = dict(match_label("balance_sheet", "Total Amcor plc shareholders' equity"))
    assert "total_equity" not in parent and "shareholders_equity" in parent


def test_net_debt_to_ebitda_divides_net_debt_by_ebitda():
    lines = {"operating_income": {"FY2022": 901.0}, "depreciation_amortization": {"FY2022": 284.0}}
    found = {
        **BALANCE,
        "income_statement": ({"operating_income": lines["operating_income"]}, {}),
        "cash_flow": ({"depreciation_amortization": lines["depreciation_amortization"]}, {}),
    }
    _, result = _answer("net debt to EBITDA 2022", found)
    assert result["answers"][0]["value"] == pytest.approx(6065 / (901 + 284))


@pytest.mark.parametrize(
    "text", ["amcor SG&A % of net sales Q2 FY2023", "SG&A percent of revenue, Q2 2023"]
)
def test_a_line_percent_of_another_is_their_share(text):
    request = read_metric(text)
    assert request is not None and request.name == "share:selling_general_administrative/revenue"


def test_an_amount_is_no_answer_to_a_percentage():
    lines = {"research_and_development": {"FY2022": 11428.0}}
    lead, result = _answer("pfizer R&D in % 2022", {"income_statement": (lines, {})})
    assert result["answers"] == [] and "could not compute" in lead


def test_a_deficit_is_still_the_total_equity():
    label = "Total stockholders' equity (deficit)"
    assert "total_equity" in dict(match_label("balance_sheet", label))


QUARTERS = {"revenue": {"Q2 2024": 9583.0, "Q2 2023": 10329.0, "6M 2024": 19050.0}}


def test_a_quarter_named_without_its_year_is_that_quarter_or_none():
    found = {"income_statement": (QUARTERS, {"income_statement_pages": [3]})}
    lead, result = _answer("BBY revenue Q3 vs Q3 last year", found)
    assert result["answers"] == [] and "could not compute" in lead
    _, result = _answer("BBY revenue growth Q2 vs Q2 last year", found)
    assert result["answers"][0]["value"] == pytest.approx(100 * (9583 / 10329 - 1))


def test_debt_maturing_within_one_year_is_debt_due_within_a_year():
    assert "current_debt" in dict(match_label("balance_sheet", "Debt maturing within one year"))


def test_a_bank_s_provision_for_credit_losses_is_its_line():
    request = read_metric("JPM provision for credit losses Q2 2023")
    assert request is not None and request.name == "provision_for_credit_losses"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("jnj SG&A Q2 2023 as % of sales", "share:selling_general_administrative/revenue"),
        ("pfizer SI&A 2021", "selling_general_administrative"),
    ],
)
def test_sga_as_typed(text, name):
    request = read_metric(text)
    assert request is not None and request.name == name
