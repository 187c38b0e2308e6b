"""Canonical statements of Apple's FY2024 10-K read from its inline XBRL (the SEC HTML upload)."""

from __future__ import annotations

import pytest

from finance.documents import ingest_html
from finance.reconcile import parse_inline_xbrl
from finance.statements.inline_xbrl import statements_from_inline_xbrl
from tests.conftest import SHARED_DATA

APPLE = SHARED_DATA / "finance" / "filings" / "APPLE_2024_10K.html"
pytestmark = pytest.mark.skipif(not APPLE.exists(), reason=f"no filing at {APPLE}")


@pytest.fixture(scope="module")
def apple():
    data = APPLE.read_bytes()
    parsed = ingest_html(data)
    statements = statements_from_inline_xbrl(
        parse_inline_xbrl(data),
        parsed.pages,
        name=APPLE.name,
        statement_pages=parsed.statement_pages,
    )
    assert statements is not None
    return statements, parsed


# As printed in Apple's FY2024 10-K (USD millions).
EXPECTED = [
    ("income_statement", "revenue", "FY2024", 391035),
    ("income_statement", "revenue", "FY2022", 394328),
    ("income_statement", "gross_profit", "FY2024", 180683),
    ("income_statement", "operating_income", "FY2024", 123216),
    ("income_statement", "income_tax", "FY2024", 29749),
    ("income_statement", "net_income", "FY2023", 96995),
    ("balance_sheet", "total_assets", "FY2024", 364980),
    ("balance_sheet", "long_term_debt", "FY2024", 85750),
    ("balance_sheet", "shareholders_equity", "FY2023", 62146),
    ("cash_flow", "operating_cash_flow", "FY2024", 118254),
    ("cash_flow", "capital_expenditure", "FY2024", 9447),
    ("cash_flow", "share_repurchases", "FY2024", 94949),
    ("cash_flow", "financing_cash_flow", "FY2024", -121983),
]


@pytest.mark.parametrize(("statement", "key", "year", "value"), EXPECTED)
def test_values_match_the_filing_and_cite_a_page_that_prints_them(
    apple, statement, key, year, value
):
    statements, parsed = apple
    cell = statements[statement][key][year]
    assert cell["value"] == value
    assert f"{abs(value):,}" in parsed.pages[cell["page"]]


def test_the_statement_pages_are_cited_first_and_years_follow_the_filing(apple):
    statements, parsed = apple
    assert statements["fiscal_years"][:3] == ["FY2024", "FY2023", "FY2022"]
    assert statements["company"] == "Apple Inc."
    revenue_page = statements["income_statement"]["revenue"]["FY2024"]["page"]
    assert revenue_page == parsed.statement_pages["income_statement"]


def test_plain_html_without_xbrl_has_no_statements():
    facts = parse_inline_xbrl(b"<html><body><p>Annual report</p></body></html>")
    assert statements_from_inline_xbrl(facts, ["Annual report"], name="plain.html") is None
