"""The accounting identities on small synthetic statements and their printed pages."""

from __future__ import annotations

import math

from finance.evaluation.identities import balance_checks, cash_flow_checks
from finance.evaluation.printed_rows import page_rows
from tests.finance.evaluation.factories import PAGES, line, statements

TEXTS = dict(enumerate(PAGES))


def test_rows_read_labels_and_signed_values():
    rows = page_rows(2, PAGES[2])
    investing = next(r for r in rows if r.label.startswith("Net cash used in investing"))
    assert investing.values == (-120.0, -100.0)


def test_balance_holds_with_non_controlling_interests():
    checks = balance_checks(statements(), TEXTS)
    assert [c.year for c in checks] == ["FY2020", "FY2019"]
    assert all(c.holds for c in checks), [c.describe() for c in checks]
    assert "non-controlling" in checks[0].basis


def test_an_unbalanced_balance_sheet_fails():
    wrong = statements(balance_sheet__shareholders_equity=line(1, FY2020=290.0, FY2019=335.0))
    checks = {c.year: c for c in balance_checks(wrong, TEXTS)}
    assert not checks["FY2020"].holds
    assert checks["FY2020"].right == 600.0 + 290.0  # the plain reading is the one reported
    assert checks["FY2019"].holds


def test_cash_flow_sections_sum_to_the_change_in_cash_with_exchange_effect():
    checks = cash_flow_checks(statements(), TEXTS)
    assert all(c.holds for c in checks), [c.describe() for c in checks]
    assert checks[0].right == 20.0 and "reconciling" in checks[0].basis


def test_a_wrong_section_breaks_the_cash_flow_identity():
    wrong = statements(cash_flow__financing_cash_flow=line(2, FY2020=-75.0, FY2019=-40.0))
    checks = {c.year: c for c in cash_flow_checks(wrong, TEXTS)}
    assert not checks["FY2020"].holds and checks["FY2019"].holds


def test_a_missing_section_cannot_pass():
    checks = cash_flow_checks(statements(cash_flow__financing_cash_flow=None), TEXTS)
    assert checks and not any(c.holds for c in checks)
    assert math.isnan(checks[0].right) and "financing" in checks[0].basis
