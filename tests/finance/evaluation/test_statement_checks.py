"""statements_years, core_lines and accounting_identities as the harness calls them."""

from __future__ import annotations

import pytest

from finance.evaluation.statement_checks import (
    accounting_identities,
    core_lines,
    statements_years,
)
from tests.finance.evaluation.factories import (
    PAGES,
    line,
    make_context,
    make_document,
    statements,
)

pytestmark = pytest.mark.django_db
NAME = "SYNTH_2020_10K"


def _context(workspace, **fields):
    document = make_document(workspace, **fields)
    return make_context(workspace, {document.name: document})


def test_an_annual_report_carries_its_year_and_the_one_before(workspace):
    context = _context(workspace)
    verdict = statements_years(context, {"document": NAME, "doc_type": "10k", "period": 2020})
    assert verdict.passed, verdict.reason
    assert verdict.outputs["fiscal_years"] == ["FY2020", "FY2019"]


def test_a_year_after_the_period_fails(workspace):
    data = statements()
    data["fiscal_years"] = ["FY2021", "FY2020", "FY2019"]
    verdict = statements_years(
        _context(workspace, statements=data), {"document": NAME, "doc_type": "10k", "period": 2020}
    )
    assert not verdict.passed and "after the document's period" in verdict.reason


def test_an_annual_report_without_statements_fails(workspace):
    verdict = statements_years(
        _context(workspace, statements=None), {"document": NAME, "doc_type": "10k", "period": 2020}
    )
    assert not verdict.passed and "FY2020 is not among" in verdict.reason


def quarterly() -> dict:
    """The synthetic statements as a 10-Q of fiscal 2021 would carry them (Q2 2021, Q2 2020)."""
    labels = {"FY2020": "Q2 2021", "FY2019": "Q2 2020"}
    data = statements()
    data["fiscal_years"] = list(labels.values())
    for name in ("income_statement", "balance_sheet", "cash_flow"):
        data[name] = {k: {labels[y]: c for y, c in row.items()} for k, row in data[name].items()}
    return data


def test_a_quarterly_report_must_carry_its_period_and_no_old_years(workspace):
    params = {"document": NAME, "doc_type": "10q", "period": 2021}
    assert statements_years(_context(workspace, statements=quarterly()), params).passed
    nothing = statements_years(_context(workspace, statements=None), params)
    assert not nothing.passed  # a 10-Q prints its quarter: reading nothing is no pass
    assert "the income statement has no period of fiscal 2021" in nothing.reason
    old = statements()  # FY2020 and FY2019 in a 10-Q of fiscal 2021: FY2019 is too old
    verdict = statements_years(
        _context(workspace, name="SYNTH_2020_10K.pdf", statements=old), params
    )
    assert not verdict.passed and "before FY2020" in verdict.reason


def test_a_document_that_prints_no_statements_must_have_none_read(workspace):
    params = {"document": NAME, "doc_type": "8k", "period": 2021, "carries": []}
    assert statements_years(_context(workspace, statements=None), params).passed
    verdict = statements_years(_context(workspace, statements=quarterly()), params)
    assert not verdict.passed and "prints no financial statements, yet its income" in verdict.reason


def test_a_quarterly_balance_sheet_must_be_checkable(workspace):
    params = {"document": NAME, "doc_type": "10q"}
    assert accounting_identities(_context(workspace, statements=quarterly()), params).passed
    no_balance = {**quarterly(), "balance_sheet": {}}
    verdict = accounting_identities(_context(workspace, statements=no_balance), params)
    assert not verdict.passed and "no balance sheet total to check" in verdict.reason


def test_core_lines_present_and_missing(workspace):
    assert core_lines(_context(workspace), {"document": NAME, "period": 2020}).passed
    lacking = statements(income_statement__revenue=None)
    verdict = core_lines(
        _context(workspace, statements=lacking), {"document": NAME, "period": 2020}
    )
    assert not verdict.passed and "revenue" in verdict.reason
    assert verdict.credit == pytest.approx(0.75)


def test_identities_pass_and_fail_with_a_reason(workspace):
    params = {"document": NAME, "doc_type": "10k"}
    verdict = accounting_identities(_context(workspace), params)
    assert verdict.passed, verdict.reason
    assert verdict.outputs["balance"]["FY2020"] == [1000.0, 1000.0]
    wrong = statements(balance_sheet__total_assets=line(1, FY2020=1100.0, FY2019=900.0))
    verdict = accounting_identities(_context(workspace, statements=wrong), params)
    assert not verdict.passed
    assert verdict.reason.startswith("balance sheet FY2020: 1,100.000 vs")


def test_an_unknown_document_is_a_failed_verdict_not_an_error(workspace):
    verdict = core_lines(_context(workspace), {"document": "OTHER_2020_10K", "period": 2020})
    assert not verdict.passed and "no document 'OTHER_2020_10K'" in verdict.reason


def test_core_lines_in_the_wrong_unit_fail(workspace):
    thousandth = statements(income_statement__revenue=line(0, FY2020=2.0, FY2019=1.8))
    verdict = core_lines(
        _context(workspace, statements=thousandth), {"document": NAME, "period": 2020}
    )
    assert not verdict.passed
    assert "revenue FY2020 = 2.000 is not a figure p. 1 prints in millions" in verdict.reason


def test_a_page_that_states_no_unit_still_has_its_figures_checked(workspace):
    # Figures a thousand times too large on a page with no "(In millions)" header: once not
    # checked at all; such a page prints the statements' own unit, millions.
    pages = [page.replace("(In millions) ", "") for page in PAGES]
    scaled = statements(income_statement__revenue=line(0, FY2020=2_000_000.0, FY2019=1.8e6))
    verdict = core_lines(
        _context(workspace, pages=pages, statements=scaled), {"document": NAME, "period": 2020}
    )
    assert not verdict.passed
    assert "revenue FY2020 = 2,000,000.000 is not a figure p. 1 prints in millions" in (
        verdict.reason
    )


def test_the_unit_is_read_anywhere_on_the_page(workspace):
    pages = [page.replace("(In millions) 2020 2019", "2020 2019") for page in PAGES]
    pages[0] = "Consolidated Statements of Income\n2020 2019\nRevenue $ 2,000 $ 1,800\n" + (
        "Net income 150 120\n(Dollars in thousands)"
    )
    verdict = core_lines(_context(workspace, pages=pages), {"document": NAME, "period": 2020})
    assert (
        not verdict.passed
        and "revenue FY2020 = 2,000.000 is not a figure p. 1 prints in thousands" in verdict.reason
    )


def test_a_core_line_must_be_printed_on_its_own_row(workspace):
    # 1,000 is total assets on p. 2; read as revenue it is printed there, but not as revenue
    misread = statements(income_statement__revenue=line(1, FY2020=1000.0, FY2019=900.0))
    verdict = core_lines(
        _context(workspace, statements=misread), {"document": NAME, "period": 2020}
    )
    assert not verdict.passed
    assert "revenue FY2020 = 1,000.000 is printed on p. 2, but not on a revenue row" in (
        verdict.reason
    )


def test_a_quarterly_reports_core_lines_are_checked_in_its_latest_quarter(workspace):
    params = {"document": NAME, "doc_type": "10q", "period": 2021}
    verdict = core_lines(_context(workspace, statements=quarterly()), params)
    assert verdict.passed, verdict.reason
    assert verdict.outputs["periods"]["revenue"] == "Q2 2021"
    read_in_thousands = quarterly()
    read_in_thousands["income_statement"]["revenue"]["Q2 2021"]["value"] = 2_000_000.0
    verdict = core_lines(_context(workspace, statements=read_in_thousands), params)
    assert not verdict.passed and "revenue Q2 2021 = 2,000,000.000 is not a figure" in (
        verdict.reason
    )
