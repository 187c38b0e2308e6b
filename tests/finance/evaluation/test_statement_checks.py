"""statements_years, core_lines and accounting_identities as the harness calls them."""

from __future__ import annotations

import pytest

from finance.evaluation.statement_checks import (
    accounting_identities,
    core_lines,
    statements_years,
)
from tests.finance.evaluation.factories import line, make_context, make_document, statements

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


def test_a_quarterly_report_may_carry_none_but_not_old_years(workspace):
    params = {"document": NAME, "doc_type": "10q", "period": 2021}
    assert statements_years(_context(workspace, statements=None), params).passed
    old = statements()  # FY2020 and FY2019 in a 10-Q of fiscal 2021: FY2019 is too old
    verdict = statements_years(
        _context(workspace, name="SYNTH_2020_10K.pdf", statements=old), params
    )
    assert not verdict.passed and "before FY2020" in verdict.reason


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
