"""Ratios for one fiscal year of canonical statements; each result is Derived or Missing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from finance.modeling.core import Derived, Input, Missing, Statements, year_number
from finance.statements.model import FinancialStatements

Result = Derived | Missing
IS, BS, CF = "income_statement", "balance_sheet", "cash_flow"
DAYS = 365


def _as_statements(data: Statements | Mapping[str, Any] | FinancialStatements) -> Statements:
    return data if isinstance(data, Statements) else Statements(data)


def _need(s: Statements, year: str, *items: tuple[str, str]) -> list[Input] | str:
    """The cited inputs, or a reason naming those that are missing."""
    found: list[Input] = []
    absent: list[str] = []
    for statement, key in items:
        cited = s.cell(statement, key, year)
        if cited is None:
            absent.append(f"{statement}.{key}")
        else:
            found.append(cited)
    if absent:
        return f"missing {', '.join(absent)} for {year}"
    return found


AVERAGE, YEAR_END, MIXED = "average", "year-end", "mixed"


def _balance(s: Statements, key: str, year: str) -> tuple[float, list[Input], str, str] | str:
    """A balance-sheet item averaged over the year when the prior year-end is there; else the
    year-end balance alone. The last item says which ("average" or "year-end")."""
    end = s.cell(BS, key, year)
    if end is None:
        return f"missing {BS}.{key} for {year}"
    prior = s.prior(year)
    start = s.cell(BS, key, prior) if prior else None
    if start is None:
        return end.value, [end], f"{key} (year-end {year}; no prior year)", YEAR_END
    return (
        (start.value + end.value) / 2,
        [start, end],
        f"average({key} {prior}, {key} {year})",
        AVERAGE,
    )


def _ratio(
    name: str,
    year: str,
    numerator: float,
    denominator: float,
    formula: str,
    inputs: list[Input],
    unit: str = "ratio",
    scale: float = 1.0,
    positive_denominator: bool = False,
    basis: str = "",
) -> Result:
    if denominator == 0:
        return Missing(name, f"denominator is zero in {formula}", year)
    if positive_denominator and denominator < 0:
        return Missing(name, f"denominator is negative in {formula}", year)
    return Derived(name, numerator / denominator * scale, unit, formula, inputs, year, basis)


def _margin(s: Statements, year: str, name: str, key: str) -> Result:
    got = _need(s, year, (IS, key), (IS, "revenue"))
    if isinstance(got, str):
        return Missing(name, got, year)
    top, revenue = got
    return _ratio(name, year, top.value, revenue.value, f"{key} / revenue", got)


def gross_margin(data: Any, year: str) -> Result:
    s = _as_statements(data)
    if s.cell(IS, "gross_profit", year) is not None:
        return _margin(s, year, "gross_margin", "gross_profit")
    got = _need(s, year, (IS, "revenue"), (IS, "cost_of_revenue"))
    if isinstance(got, str):
        return Missing("gross_margin", got.replace("missing", "missing gross_profit and"), year)
    revenue, cost = got
    formula = "(revenue - cost_of_revenue) / revenue"
    return _ratio("gross_margin", year, revenue.value - cost.value, revenue.value, formula, got)


def operating_margin(data: Any, year: str) -> Result:
    return _margin(_as_statements(data), year, "operating_margin", "operating_income")


def net_margin(data: Any, year: str) -> Result:
    return _margin(_as_statements(data), year, "net_margin", "net_income")


def revenue_growth(data: Any, year: str) -> Result:
    s = _as_statements(data)
    prior = s.prior(year)
    if prior is None:
        return Missing("revenue_growth", f"no prior fiscal year to {year}", year)
    now, before = s.cell(IS, "revenue", year), s.cell(IS, "revenue", prior)
    if now is None or before is None:
        return Missing(
            "revenue_growth", f"missing revenue for {year if now is None else prior}", year
        )
    formula = f"revenue {year} / revenue {prior} - 1"
    return _ratio(
        "revenue_growth",
        year,
        now.value - before.value,
        before.value,
        formula,
        [before, now],
        positive_denominator=True,
    )


def cagr(data: Any, start: str, end: str, key: str = "revenue", statement: str = IS) -> Result:
    """Compound annual growth of a line item from fiscal year `start` to `end`."""
    s = _as_statements(data)
    name = f"{key}_cagr"
    period = f"{start}-{end}"
    first, last = s.cell(statement, key, start), s.cell(statement, key, end)
    if first is None or last is None:
        return Missing(
            name, f"missing {statement}.{key} for {start if first is None else end}", period
        )
    y0, y1 = year_number(start), year_number(end)
    if y0 is None or y1 is None or y1 <= y0:
        return Missing(name, f"span {start} to {end} is not a forward span of years", period)
    if first.value <= 0 or last.value <= 0:
        return Missing(name, "CAGR needs positive values at both ends", period)
    years = y1 - y0
    value = (last.value / first.value) ** (1 / years) - 1
    formula = f"({key} {end} / {key} {start}) ^ (1 / {years}) - 1"
    return Derived(name, value, "ratio", formula, [first, last], period)


def _on_balance(
    s: Statements, year: str, name: str, flow: tuple[str, str], balance: str, unit: str = "ratio"
) -> Result:
    got = _need(s, year, flow)
    if isinstance(got, str):
        return Missing(name, got, year)
    avg = _balance(s, balance, year)
    if isinstance(avg, str):
        return Missing(name, avg, year)
    denominator, inputs, text, basis = avg
    formula = f"{flow[1]} / {text}"
    return _ratio(
        name,
        year,
        got[0].value,
        denominator,
        formula,
        [got[0], *inputs],
        unit,
        positive_denominator=True,
        basis=basis,
    )


def roa(data: Any, year: str) -> Result:
    return _on_balance(_as_statements(data), year, "roa", (IS, "net_income"), "total_assets")


def roe(data: Any, year: str) -> Result:
    s = _as_statements(data)
    return _on_balance(s, year, "roe", (IS, "net_income"), "shareholders_equity")


def asset_turnover(data: Any, year: str) -> Result:
    s = _as_statements(data)
    return _on_balance(s, year, "asset_turnover", (IS, "revenue"), "total_assets", "x")


def inventory_turnover(data: Any, year: str) -> Result:
    s = _as_statements(data)
    return _on_balance(s, year, "inventory_turnover", (IS, "cost_of_revenue"), "inventories", "x")


def _days(s: Statements, year: str, name: str, balance: str, flow: str) -> Result:
    avg = _balance(s, balance, year)
    if isinstance(avg, str):
        return Missing(name, avg, year)
    got = _need(s, year, (IS, flow))
    if isinstance(got, str):
        return Missing(name, got, year)
    numerator, inputs, text, basis = avg
    formula = f"{text} / {flow} * {DAYS}"
    return _ratio(
        name,
        year,
        numerator,
        got[0].value,
        formula,
        [*inputs, got[0]],
        "days",
        scale=DAYS,
        positive_denominator=True,
        basis=basis,
    )


def dso(data: Any, year: str) -> Result:
    return _days(_as_statements(data), year, "dso", "accounts_receivable", "revenue")


def dio(data: Any, year: str) -> Result:
    return _days(_as_statements(data), year, "dio", "inventories", "cost_of_revenue")


def dpo(data: Any, year: str) -> Result:
    return _days(_as_statements(data), year, "dpo", "accounts_payable", "cost_of_revenue")


def cash_conversion_cycle(data: Any, year: str) -> Result:
    s = _as_statements(data)
    parts = [dso(s, year), dio(s, year), dpo(s, year)]
    absent = [p for p in parts if isinstance(p, Missing)]
    if absent:
        reasons = "; ".join(f"{p.name}: {p.reason}" for p in absent)
        return Missing("cash_conversion_cycle", reasons, year)
    d_so, d_io, d_po = (p for p in parts if isinstance(p, Derived))
    value = d_so.value + d_io.value - d_po.value
    inputs = [d_so.as_input(), d_io.as_input(), d_po.as_input()]
    bases = {d_so.basis, d_io.basis, d_po.basis}
    basis = bases.pop() if len(bases) == 1 else MIXED
    formula = "dso + dio - dpo"
    return Derived("cash_conversion_cycle", value, "days", formula, inputs, year, basis)


def _difference(data: Any, year: str, name: str, a: tuple[str, str], b: tuple[str, str]) -> Result:
    """`a - b` of two line items of one year, in the statements' unit."""
    s = _as_statements(data)
    got = _need(s, year, a, b)
    if isinstance(got, str):
        return Missing(name, got, year)
    first, second = got
    formula = f"{a[1]} - {b[1]}"
    return Derived(name, first.value - second.value, s.unit, formula, got, year)


def _quotient(
    data: Any, year: str, name: str, a: tuple[str, str], b: tuple[str, str], unit: str
) -> Result:
    """`a / b` of two line items of one year; a zero or negative denominator is Missing."""
    s = _as_statements(data)
    got = _need(s, year, a, b)
    if isinstance(got, str):
        return Missing(name, got, year)
    top, bottom = got
    formula = f"{a[1]} / {b[1]}"
    return _ratio(
        name, year, top.value, bottom.value, formula, got, unit, positive_denominator=True
    )


def working_capital(data: Any, year: str) -> Result:
    return _difference(
        data,
        year,
        "working_capital",
        (BS, "total_current_assets"),
        (BS, "total_current_liabilities"),
    )


def debt_to_equity(data: Any, year: str) -> Result:
    return _quotient(
        data, year, "debt_to_equity", (BS, "long_term_debt"), (BS, "shareholders_equity"), "x"
    )


def liabilities_to_assets(data: Any, year: str) -> Result:
    return _quotient(
        data,
        year,
        "liabilities_to_assets",
        (BS, "total_liabilities"),
        (BS, "total_assets"),
        "ratio",
    )


def free_cash_flow(data: Any, year: str) -> Result:
    return _difference(
        data, year, "free_cash_flow", (CF, "operating_cash_flow"), (CF, "capital_expenditure")
    )


def fcf_conversion(data: Any, year: str) -> Result:
    s = _as_statements(data)
    got = _need(
        s, year, (CF, "operating_cash_flow"), (CF, "capital_expenditure"), (IS, "net_income")
    )
    if isinstance(got, str):
        return Missing("fcf_conversion", got, year)
    ocf, capex, net = got
    formula = "(operating_cash_flow - capital_expenditure) / net_income"
    return _ratio(
        "fcf_conversion",
        year,
        ocf.value - capex.value,
        net.value,
        formula,
        got,
        "x",
        positive_denominator=True,
    )


METRICS = {
    "gross_margin": gross_margin,
    "operating_margin": operating_margin,
    "net_margin": net_margin,
    "revenue_growth": revenue_growth,
    "roa": roa,
    "roe": roe,
    "asset_turnover": asset_turnover,
    "inventory_turnover": inventory_turnover,
    "dso": dso,
    "dio": dio,
    "dpo": dpo,
    "cash_conversion_cycle": cash_conversion_cycle,
    "working_capital": working_capital,
    "debt_to_equity": debt_to_equity,
    "liabilities_to_assets": liabilities_to_assets,
    "free_cash_flow": free_cash_flow,
    "fcf_conversion": fcf_conversion,
}


@dataclass
class RatioReport:
    year: str
    derived: dict[str, Derived] = field(default_factory=dict)
    missing: dict[str, Missing] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "year": self.year,
            "derived": {k: v.to_dict() for k, v in self.derived.items()},
            "missing": {k: v.to_dict() for k, v in self.missing.items()},
        }


def compute_ratios(
    data: Statements | Mapping[str, Any] | FinancialStatements, year: str
) -> RatioReport:
    """Every ratio for one fiscal year; those that cannot be computed are listed with a reason."""
    s = _as_statements(data)
    report = RatioReport(year)
    for name, metric in METRICS.items():
        result = metric(s, year)
        if isinstance(result, Derived):
            report.derived[name] = result
        else:
            report.missing[name] = result
    return report
