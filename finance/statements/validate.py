"""Does what was read add up? The accounting identities, checked on every document and period.

* balance sheet: total assets = total liabilities and equity (the printed total line when there
  is one, else total liabilities + total equity, or shareholders' equity + non-controlling
  interests, + temporary equity);
* cash flow: operating + investing + financing (+ the exchange-rate effect and any other line
  printed between the sections and the change, such as the cash of businesses held for sale) =
  the change in cash the statement prints;
* net income: the income statement's (attributable, or including non-controlling interests)
  is the cash flow's starting line.

Each holds "within rounding": every term may be off by half a printed unit, so the tolerance is
one printed unit per term (USD 1 million for a statement in millions, 1 thousand in thousands).
A check whose lines were not all read is "unchecked", never passed. A period whose check fails
is *unverified*: the API, the page and the note say so, and figures derived from it carry the
reason (`finance.modeling`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finance.statements.model import FinancialStatements

UNIT_MILLIONS = {"thousands": 0.001, "millions": 1.0, "billions": 1000.0}


@dataclass(frozen=True)
class Check:
    statement: str
    period: str
    status: str  # "verified" | "failed" | "unchecked"
    identity: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "identity": self.identity, "detail": self.detail}


def validate(statements: FinancialStatements) -> list[Check]:
    """Every identity for every period the statements carry."""
    checks: list[Check] = []
    for period in statements.fiscal_years:
        checks += [
            _balance(statements, period),
            _cash(statements, period),
            _net_income(statements, period),
        ]
    return [c for c in checks if c.status != "absent"]


def unverified(checks: list[Check]) -> dict[str, dict[str, str]]:
    """statement -> period -> why, for the checks that failed."""
    out: dict[str, dict[str, str]] = {}
    for check in checks:
        if check.status == "failed":
            out.setdefault(check.statement, {})[check.period] = check.detail
    return out


def _value(statements: FinancialStatements, statement: str, key: str, period: str) -> float | None:
    return statements.get(statement, key, period)


def _unit(statements: FinancialStatements, statement: str) -> float:
    return UNIT_MILLIONS.get(statements.units.get(statement, "millions"), 1.0)


def _judge(
    statement: str, period: str, identity: str, left: float, right: float, terms: int, unit: float
) -> Check:
    tolerance = terms * unit + 1e-9
    off = left - right
    detail = f"{left:,.3f} vs {right:,.3f} (off by {off:,.3f}; tolerance {tolerance:,.3f})"
    status = "verified" if abs(off) <= tolerance else "failed"
    return Check(statement, period, status, identity, detail)


def _balance(s: FinancialStatements, period: str) -> Check:
    bs = "balance_sheet"
    assets = _value(s, bs, "total_assets", period)
    if not s.balance_sheet or not any(period in cells for cells in s.balance_sheet.values()):
        return Check(bs, period, "absent", "", "")
    identity = "total assets = total liabilities and equity"
    if assets is None:
        return Check(bs, period, "unchecked", identity, "no total assets line was read")
    unit = _unit(s, bs)
    printed = _value(s, bs, "total_liabilities_and_equity", period)
    if printed is not None:
        return _judge(bs, period, identity, assets, printed, 2, unit)
    liabilities = _value(s, bs, "total_liabilities", period)
    equity = _value(s, bs, "total_equity", period)
    terms = 2
    if equity is None:
        equity = _value(s, bs, "shareholders_equity", period)
        minority = _value(s, bs, "noncontrolling_interests", period)
        if equity is not None and minority is not None:
            equity, terms = equity + minority, terms + 1
    if liabilities is None or equity is None:
        return Check(
            bs, period, "unchecked", identity, "no liabilities-and-equity total, or its parts"
        )
    temporary = _value(s, bs, "temporary_equity", period) or 0.0
    total = liabilities + equity + temporary
    return _judge(bs, period, identity, assets, total, terms + (temporary != 0.0), unit)


def _cash(s: FinancialStatements, period: str) -> Check:
    cf = "cash_flow"
    if not any(period in cells for cells in s.cash_flow.values()):
        return Check(cf, period, "absent", "", "")
    identity = "operating + investing + financing (+ exchange-rate effect) = change in cash"
    parts = [
        _value(s, cf, key, period)
        for key in ("operating_cash_flow", "investing_cash_flow", "financing_cash_flow")
    ]
    change = _value(s, cf, "net_change_in_cash", period)
    if any(part is None for part in parts) or change is None:
        return Check(cf, period, "unchecked", identity, "not every section total was read")
    extras = [
        v
        for key in ("fx_effect_on_cash", "other_changes_in_cash")
        if (v := _value(s, cf, key, period)) is not None
    ]
    total = sum(p for p in parts if p is not None) + sum(extras)
    return _judge(cf, period, identity, total, change, 4 + len(extras), _unit(s, cf))


def _net_income(s: FinancialStatements, period: str) -> Check:
    identity = "net income agrees between the income statement and the cash flow"
    flow = _value(s, "cash_flow", "net_income", period)
    earned = [
        v
        for key in ("net_income", "_net_income_total")
        if (v := _value(s, "income_statement", key, period)) is not None
    ]
    if flow is None or not earned:
        return Check("income_statement", period, "absent", "", "")
    unit = max(_unit(s, "cash_flow"), _unit(s, "income_statement"))
    best = min(earned, key=lambda v: abs(v - flow))
    return _judge("income_statement", period, identity, best, flow, 2, unit)
