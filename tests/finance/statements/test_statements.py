"""Canonical statements from the shared 10-K PDFs: pages, contract shape, and cited values."""

from __future__ import annotations

import json
import re

import pdfplumber
import pytest

from finance.statements import extract_statements
from finance.statements.locate import locate_statements
from finance.statements.model import CANONICAL_KEYS, STATEMENTS
from finance.statements.synonyms import match_label
from finance.statements.table import parse_number
from tests.finance.statements.helpers import filing, statements

# (income statement, balance sheet, first cash flow page), 0-indexed.
PAGES = {
    "3M_2018_10K": (55, 57, 59),
    "AMAZON_2019_10K": (37, 39, 36),
    "BESTBUY_2019_10K": (52, 51, 54),
    "BOEING_2022_10K": (54, 56, 58),
    "COSTCO_2021_10K": (35, 37, 39),
    "CVSHEALTH_2018_10K": (301, 303, 304),
    "MICROSOFT_2016_10K": (51, 53, 54),
    "NETFLIX_2017_10K": (41, 44, 43),
    "NIKE_2019_10K": (51, 53, 54),
}
DOCS = sorted(PAGES)

KEYS = CANONICAL_KEYS


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1,577", 1577.0),
        ("(1,577)", -1577.0),
        ("$(28)", -28.0),
        ("$55,893", 55893.0),
        ("—", 0.0),
        ("9.09", 9.09),
        ("Inventories", None),
        ("$0,", None),
    ],
)
def test_parse_number(text, value):
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("statement", "label", "key"),
    [
        ("income_statement", "Total net sales", "revenue"),
        ("income_statement", "Revenues", "revenue"),
        ("income_statement", "Total cost of revenue", "cost_of_revenue"),
        ("income_statement", "Net income attributable to 3M", "net_income"),
        ("income_statement", "Net loss attributable to Boeing Shareholders", "net_income"),
        ("balance_sheet", "Property, plant and equipment — net", "ppe_net"),
        ("balance_sheet", "Merchandise inventories", "inventories"),
        ("balance_sheet", "Long-term debt, excluding current portion", "long_term_debt"),
        ("cash_flow", "Purchases of property, plant and equipment (PP&E)", "capital_expenditure"),
        ("cash_flow", "Additions to property and equipment", "capital_expenditure"),
        ("cash_flow", "Payments to acquire property, plant and equipment", "capital_expenditure"),
        ("cash_flow", "Common stock cash dividends paid", "dividends_paid"),
        ("cash_flow", "Net cash provided by (used in) operating activities", "operating_cash_flow"),
    ],
)
def test_label_synonyms(statement, label, key):
    assert key in {k for k, _ in match_label(statement, label)}


def test_noncontrolling_interest_is_not_net_income():
    keys = {
        k
        for k, _ in match_label(
            "income_statement", "Net income attributable to noncontrolling interest"
        )
    }
    assert "net_income" not in keys


@pytest.mark.parametrize("doc", DOCS)
def test_locates_statement_pages(doc):
    pages = statements(doc).pages  # located by locate_statements() during extraction
    got = tuple(pages[name][0] for name in STATEMENTS)
    assert got == PAGES[doc]


def test_locator_on_page_texts():
    texts = [
        "Table of Contents\nConsolidated Statements of Income ........ 40\n" * 8,
        "Consolidated Statements of Income\n(In millions) 2018 2017\nNet sales 1,000 900\n"
        + "Cost of sales 500 400\nNet income 100 90\n" * 8,
        "Consolidated Balance Sheets\nTotal assets 1,000 900\nTotal liabilities 1,000 900\n" * 8,
        "Consolidated Statements of Cash Flows\nCash from operating activities 1,234 999\n" * 8,
    ]
    pages = locate_statements(texts).as_dict()
    assert pages == {"income_statement": [1], "balance_sheet": [2], "cash_flow": [3]}


@pytest.mark.parametrize("doc", DOCS)
def test_contract_shape(doc):
    s = statements(doc)
    data = json.loads(json.dumps(s.to_dict()))
    assert data["document"] == f"{doc}.pdf"
    assert data["currency"] == "USD" and data["unit"] == "millions"
    years = data["fiscal_years"]
    assert len(years) == 3 and all(re.fullmatch(r"FY\d{4}", y) for y in years)
    assert years == sorted(years, reverse=True)
    for name in STATEMENTS:
        assert set(data[name]) <= KEYS[name]
        for key, by_year in data[name].items():
            assert set(by_year) <= set(years), (name, key)
            for cell in by_year.values():
                assert set(cell) == {"value", "page", "bbox"}
                x0, top, x1, bottom = cell["bbox"]
                assert x0 < x1 and top < bottom
    # Every statement shows every one of its years for its headline rows.
    assert set(data["balance_sheet"]["total_assets"]) == set(years[:2])
    assert set(data["cash_flow"]["operating_cash_flow"]) == set(years)
    assert set(data["income_statement"]["revenue"]) == set(years)


@pytest.mark.parametrize("doc", DOCS)
def test_cited_values_are_printed_on_their_pages(doc):
    """Each value's cited page contains its number as printed, inside the cited bbox."""
    s = statements(doc)
    with pdfplumber.open(filing(doc)) as pdf:
        texts: dict[int, str] = {}
        words: dict[int, list[dict]] = {}
        checked = 0
        for name in STATEMENTS:
            for key, by_year in s.statement(name).items():
                for year, cell in by_year.items():
                    if cell.page not in texts:
                        words[cell.page] = pdf.pages[cell.page].extract_words()
                        texts[cell.page] = " ".join(w["text"] for w in words[cell.page])
                    digits = cell.text.strip("()$")
                    assert digits in texts[cell.page], (name, key, year, cell)
                    printed = parse_number(cell.text)
                    assert printed is not None
                    scaled = {abs(printed), abs(printed) / 1000}
                    assert any(abs(abs(cell.value) - v) < 1e-6 for v in scaled), (key, cell)
                    x0, top, x1, bottom = cell.bbox
                    inside = "".join(
                        w["text"]
                        for w in words[cell.page]
                        if w["x0"] >= x0 - 0.5
                        and w["x1"] <= x1 + 0.5
                        and w["top"] >= top - 0.5
                        and w["bottom"] <= bottom + 0.5
                    )
                    assert digits in inside, (key, cell)
                    checked += 1
    assert checked > 40


def test_values_in_thousands_are_normalised_to_millions():
    s = statements("NETFLIX_2017_10K")
    cell = s.income_statement["revenue"]["FY2017"]
    assert cell.value == pytest.approx(11692.713)
    assert cell.text == "11,692,713"


def test_signs_follow_the_contract():
    three_m = statements("3M_2018_10K")
    assert three_m.get("cash_flow", "capital_expenditure", "FY2018") == 1577.0
    assert three_m.get("cash_flow", "dividends_paid", "FY2018") == 3193.0
    assert three_m.get("income_statement", "net_income", "FY2018") == 5349.0  # not incl. NCI
    amazon = statements("AMAZON_2019_10K")
    assert amazon.get("income_statement", "income_tax", "FY2019") == 2374.0  # printed (2,374)
    boeing = statements("BOEING_2022_10K")
    assert boeing.get("income_statement", "cost_of_revenue", "FY2022") is None  # no total shown


def test_accepts_bytes():
    path = filing("NIKE_2019_10K")
    s = extract_statements(path.read_bytes(), "NIKE_2019_10K.pdf")
    assert s.document == "NIKE_2019_10K.pdf"
    assert s.get("balance_sheet", "total_current_assets", "FY2019") == 16525.0
