"""Layouts found on the third hold-out: amounts printed as two touching words, a release's quarter
and year-to-date statements on facing pages, debt due within a year, period end dates."""

from __future__ import annotations

import pytest

from finance.statements import extract_statements
from finance.statements.locate import locate_statements
from finance.statements.parts import printed_part
from finance.statements.synonyms import match_label, match_row
from finance.statements.table import Word, page_lines
from tests.conftest import SHARED_DATA

DEVSET = SHARED_DATA / "finance" / "devset" / "docs"


def _word(text: str, x0: float, x1: float) -> Word:
    return {"text": text, "x0": x0, "x1": x1, "top": 100.0, "bottom": 109.0}


def test_an_amount_printed_as_two_touching_words_is_one_number():
    line = [
        _word("Sales", 40.0, 63.0),
        _word("$", 300.0, 305.0),
        _word("2", 314.0, 319.0),
        _word("4,020", 319.0, 341.0),
        _word("6", 400.0, 405.0),
        _word("7.8", 405.0, 417.0),
    ]
    (merged,) = page_lines(line)
    assert [w["text"] for w in merged] == ["Sales", "$24,020", "67.8"]


def test_two_amounts_a_gap_apart_stay_two_numbers():
    line = [_word("Sales", 40.0, 63.0), _word("2", 300.0, 305.0), _word("4,020", 320.0, 342.0)]
    (kept,) = page_lines(line)
    assert [w["text"] for w in kept] == ["Sales", "2", "4,020"]


def _income(title: str) -> str:
    rows = "Sales to customers 25,530 24,020\nCost of products sold 8,212 7,919\n" * 6
    return f"{title}\n(Unaudited; in Millions)\n2023 2022\n{rows}Net earnings per share 1.96 1.80"


def test_the_quarter_and_year_to_date_statements_on_facing_pages_are_both_read():
    texts = [
        "Press release\nSecond-quarter sales rose",
        _income("Condensed Consolidated Statement of Earnings SECOND QUARTER"),
        _income("Condensed Consolidated Statement of Earnings SIX MONTHS") + "\nTotal 1,000",
        "Reconciliation of Non-GAAP Financial Measures\n1,000 2,000",
    ]
    assert locate_statements(texts).income_statement == [1, 2]


@pytest.mark.parametrize(
    ("label", "key"),
    [
        ("Short-term borrowings", "short_term_debt"),
        ("Loans and notes payable (Note 7)", "short_term_debt"),
        ("Commercial paper", "short_term_debt"),
        ("Short-term borrowings and current portion of long-term debt", "short_term_debt"),
        ("Current portion of long-term debt", "current_debt"),
        ("Long-term debt, classified as current", "current_debt"),
    ],
)
def test_debt_due_within_a_year(label, key):
    keys = {k for k, _ in match_label("balance_sheet", label)}
    assert key in keys and "long_term_debt" not in keys


def test_a_bare_term_debt_line_is_current_only_under_current_liabilities():
    assert match_row("balance_sheet", "Term debt", "Current liabilities:") == [("current_debt", 0)]
    under = match_row("balance_sheet", "Term debt", "Non-current liabilities:")
    assert ("long_term_debt", 2) in under


def _devset(doc: str):
    path = DEVSET / f"{doc}.pdf"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return extract_statements(path)


def test_a_release_reads_its_quarter_with_split_amounts():
    found = _devset("JOHNSON_JOHNSON_2023Q2_EARNINGS")
    assert found.get("income_statement", "revenue", "Q2 2022") == 24020.0
    assert found.get("income_statement", "net_income", "Q2 2023") == 5144.0
    assert found.get("income_statement", "net_income", "6M 2023") == 5076.0


def test_period_ends_say_which_label_a_date_is():
    found = _devset("AMCOR_2023Q2_10Q")
    assert found.period_ends["Q2 2023"] == "2022-12-31"
    assert found.period_ends["FY2022"] == "2022-06-30"
    assert found.to_dict()["period_ends"]["Q2 2023"] == "2022-12-31"


def test_apple_current_term_debt_is_not_its_long_term_debt():
    found = _devset("APPLE_2022_10K")
    assert found.get("balance_sheet", "long_term_debt", "FY2022") == 98959.0
    assert found.get("balance_sheet", "current_debt", "FY2022") == 11128.0
    assert found.get("balance_sheet", "short_term_debt", "FY2022") == 9982.0


def test_rows_no_canonical_key_stands_for_are_kept_as_printed():
    found = _devset("VERIZON_2021_10K")
    rows = {row["label"]: row for row in found.rows["income_statement"]}
    equipment = rows["Wireless equipment revenues"]
    assert equipment["cells"] == {"FY2021": 23164.0, "FY2020": 18420.0, "FY2019": 21563.0}
    assert equipment["page"] == 50


ROWS = [
    {"label": "Products", "page": 31, "cells": {"FY2022": 316199.0, "FY2021": 297392.0}},
    {"label": "Services", "page": 31, "cells": {"FY2022": 78129.0, "FY2021": 68425.0}},
    {"label": "Total net sales", "page": 31, "cells": {"FY2022": 394328.0, "FY2021": 365817.0}},
    {"label": "Services", "section": "Cost of sales:", "page": 31, "cells": {"FY2022": 22075.0}},
]
TOTAL = {"FY2022": 394328.0, "FY2021": 365817.0}


@pytest.mark.parametrize(
    ("part", "label"), [("services", "Services"), ("service", "Services"), ("wearables", None)]
)
def test_a_part_of_a_line_is_a_row_printed_above_its_total(part, label):
    found = printed_part(ROWS, TOTAL, part)
    assert (found or {}).get("label") == label


def test_a_row_below_the_total_is_no_part_of_it():
    assert printed_part(ROWS, {"FY2022": 22075.0}, "products") is None
