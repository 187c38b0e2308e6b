"""The research computations behind the tools and the note (plain Python, no Django).

Each function takes canonical statements or provider results and returns plain results that
keep their inputs; nothing here formats text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from finance.modeling import (
    DCFResult,
    Derived,
    Missing,
    RatioReport,
    Sensitivity,
    Statements,
    cagr,
    compute_ratios,
    dcf,
    dcf_sensitivity,
    net_debt,
)
from finance.modeling.core import year_number
from finance.modeling.ratios import free_cash_flow

YearRange = tuple[int, int]

DISCOUNT_RATE = 0.09
TERMINAL_GROWTH = 0.025
FORECAST_YEARS = 5
GROWTH_BOUNDS = (-0.05, 0.15)
SENSITIVITY_RATES = (0.07, 0.08, 0.09, 0.10, 0.11)
SENSITIVITY_GROWTHS = (0.015, 0.02, 0.025, 0.03, 0.035)


@dataclass
class StatementAnalysis:
    """Ratios by fiscal year for one filing, limited to the years asked for."""

    document_id: int
    document: str
    company: str
    statements: Statements
    years: list[str]
    ratios: dict[str, RatioReport] = field(default_factory=dict)
    out_of_range: str = ""
    """Why no year was selected, when the filing shows none of the years asked for."""

    def value(self, metric: str, year: str) -> Derived | Missing | None:
        report = self.ratios.get(year)
        if report is None:
            return None
        return report.derived.get(metric) or report.missing.get(metric)

    def summary(self) -> dict[str, Any]:
        """Compact per-year figures for the agent (full derivations stay in the note)."""
        return {
            "document_id": self.document_id,
            "document": self.document,
            "company": self.company,
            "years": self.years,
            "ratios": {
                year: {name: round(d.value, 4) for name, d in report.derived.items()}
                for year, report in self.ratios.items()
            },
            "missing": {
                year: {name: m.reason for name, m in report.missing.items()}
                for year, report in self.ratios.items()
            },
            **({"note": self.out_of_range} if self.out_of_range else {}),
            **(
                {"unverified": unverified}
                if (unverified := self.statements.unverified_reasons())
                else {}
            ),
        }


def select_years(fiscal_years: Sequence[str], wanted: YearRange | None) -> list[str]:
    """The filing's fiscal years inside `wanted` (inclusive), most recent first."""
    years = sorted(fiscal_years, key=lambda y: year_number(y) or 0, reverse=True)
    if wanted is None:
        return years
    low, high = min(wanted), max(wanted)
    return [y for y in years if low <= (year_number(y) or 0) <= high]


def analyse_statements(
    document_id: int,
    document: str,
    company: str,
    statements: Mapping[str, Any],
    wanted: YearRange | None = None,
) -> StatementAnalysis:
    cited = Statements(statements)
    years = select_years(cited.fiscal_years, wanted)
    analysis = StatementAnalysis(document_id, document, company, cited, years)
    if not years and wanted is not None:
        shown = ", ".join(sorted(cited.fiscal_years))
        analysis.out_of_range = (
            f"{document} shows {shown or 'no fiscal years'}; none falls in "
            f"{min(wanted)} to {max(wanted)}"
        )
    for year in years:
        analysis.ratios[year] = compute_ratios(cited, year)
    return analysis


def is_annual(label: str) -> bool:
    """Whether a period label is a whole fiscal year ("FY2022", "2022"), not "Q2 2023" or
    "6M 2023" (which growth over years, a DCF base and calendar-year overlays must not mix in)."""
    text = label.strip()
    return text.isdigit() or (text.upper().startswith("FY") and text[2:].strip().isdigit())


def revenue_cagr(analysis: StatementAnalysis) -> Derived | Missing:
    years = [y for y in analysis.statements.series("income_statement", "revenue") if is_annual(y)]
    ordered = sorted(years, key=lambda y: year_number(y) or 0)
    if len(ordered) < 2:
        return Missing("revenue_cagr", "fewer than two fiscal years of revenue")
    return cagr(analysis.statements, ordered[0], ordered[-1])


@dataclass(frozen=True)
class Valuation:
    result: DCFResult
    sensitivity: Sensitivity
    base_year: str
    growth: float
    growth_basis: Derived | None
    discount_rate: float
    terminal_growth: float
    years: int
    net_debt: Derived | None


def valuation(
    analysis: StatementAnalysis,
    *,
    discount_rate: float = DISCOUNT_RATE,
    terminal_growth: float = TERMINAL_GROWTH,
    growth: float | None = None,
    years: int = FORECAST_YEARS,
) -> Valuation | str:
    """A DCF from the latest free cash flow, or the reason it cannot be done.

    Growth defaults to the filing's revenue CAGR, bounded to -5%..15% a year (stated as an
    assumption in the note); net debt is long-term debt less cash when both are shown.
    """
    all_years = [y for y in select_years(analysis.statements.fiscal_years, None) if is_annual(y)]
    base_year = next(
        (y for y in all_years if isinstance(free_cash_flow(analysis.statements, y), Derived)),
        None,
    )
    if base_year is None:
        return (
            "free cash flow for a full fiscal year is not available "
            "(operating cash flow or capex missing)"
        )
    fcf = free_cash_flow(analysis.statements, base_year)
    assert isinstance(fcf, Derived)
    if fcf.value <= 0:
        return f"free cash flow in {base_year} is negative ({fcf.value:,.0f}); a DCF would mislead"
    basis: Derived | None = None
    if growth is None:
        found = revenue_cagr(analysis)
        raw = found.value if isinstance(found, Derived) else 0.03
        basis = found if isinstance(found, Derived) else None
        growth = min(max(raw, GROWTH_BOUNDS[0]), GROWTH_BOUNDS[1])
    debt = net_debt(analysis.statements, base_year)
    debt_value: Derived | float = debt if isinstance(debt, Derived) else 0.0
    try:
        result = dcf(fcf, growth, terminal_growth, discount_rate, debt_value, years)
        table = dcf_sensitivity(
            fcf, growth, SENSITIVITY_RATES, SENSITIVITY_GROWTHS, debt_value, years
        )
    except ValueError as error:
        return str(error)
    return Valuation(
        result,
        table,
        base_year,
        growth,
        basis,
        discount_rate,
        terminal_growth,
        years,
        debt if isinstance(debt, Derived) else None,
    )


def calendar_years(analysis: StatementAnalysis) -> dict[int, float]:
    """Revenue by the calendar year its fiscal year is named after."""
    return {
        year: value
        for label, value in analysis.statements.series("income_statement", "revenue").items()
        if is_annual(label) and (year := year_number(label)) is not None
    }


def annual_macro(observations: Sequence[tuple[dt.date, float | None]]) -> dict[int, float]:
    """Annual averages of a macro series' observations (years with no value are left out)."""
    sums: dict[int, list[float]] = {}
    for when, value in observations:
        if value is not None:
            sums.setdefault(when.year, []).append(value)
    return {year: sum(values) / len(values) for year, values in sorted(sums.items())}
