"""Canonical statements read from a 10-K PDF (``extract_statements(...).to_dict()``) as a FigureSet.

A PDF statement prints fiscal-year column labels ("FY2017"), not period dates, so each figure's
period comes from one of two honest places:

* a ``FiscalCalendar`` (e.g. from ``fiscal_calendar_from_companyfacts`` or the company's known
  year end): the fiscal year's end is the anchor's month and day in that year, so a 52/53-week
  year lands within the week of slack that period matching allows;
* nothing: the figure is marked ``period_known=False`` and carries a nominal 31 December end.
  ``reconcile_sources`` then matches it by fiscal year alone and adopts the reference's period,
  so a difference is never blamed on a period the PDF did not state.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from finance.providers.sec import CompanyFacts
from finance.reconcile.fiscal import FiscalCalendar
from finance.reconcile.table import Figure, FigureSet

# Canonical line item -> the us-gaap concept it stands for (what KEY_METRICS looks up).
CANONICAL_CONCEPTS: dict[str, str] = {
    "revenue": "Revenues",
    "cost_of_revenue": "CostOfRevenue",
    "gross_profit": "GrossProfit",
    "operating_income": "OperatingIncomeLoss",
    "interest_expense": "InterestExpense",
    "income_before_tax": (
        "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest"
    ),
    "income_tax": "IncomeTaxExpenseBenefit",
    "net_income": "NetIncomeLoss",
    "cash_and_equivalents": "CashAndCashEquivalentsAtCarryingValue",
    "accounts_receivable": "AccountsReceivableNetCurrent",
    "inventories": "InventoryNet",
    "total_current_assets": "AssetsCurrent",
    "ppe_net": "PropertyPlantAndEquipmentNet",
    "total_assets": "Assets",
    "accounts_payable": "AccountsPayableCurrent",
    "total_current_liabilities": "LiabilitiesCurrent",
    "long_term_debt": "LongTermDebtNoncurrent",
    "total_liabilities": "Liabilities",
    "shareholders_equity": "StockholdersEquity",
    "operating_cash_flow": "NetCashProvidedByUsedInOperatingActivities",
    "depreciation_amortization": "DepreciationDepletionAndAmortization",
    "capital_expenditure": "PaymentsToAcquirePropertyPlantAndEquipment",
    "dividends_paid": "PaymentsOfDividends",
    "share_repurchases": "PaymentsForRepurchaseOfCommonStock",
    "investing_cash_flow": "NetCashProvidedByUsedInInvestingActivities",
    "financing_cash_flow": "NetCashProvidedByUsedInFinancingActivities",
}
INSTANT_STATEMENTS = frozenset({"balance_sheet"})
STATEMENT_NAMES = ("income_statement", "balance_sheet", "cash_flow")
_YEAR = re.compile(r"(\d{4})")


@dataclass(frozen=True)
class StatementFigure(Figure):
    """A figure read off a PDF statement, with where it was printed (for linking to the page)."""

    statement: str = ""
    line_item: str = ""  # canonical key, e.g. "net_income"
    page: int = 0  # 1-based PDF page
    bbox: tuple[float, ...] = ()  # pdfplumber (x0, top, x1, bottom) on that page
    period_known: bool = True  # False: dates are nominal, only the fiscal year is known


def fiscal_year_from_label(label: str) -> int:
    """The fiscal year of a column label: "FY2017" -> 2017."""
    match = _YEAR.search(label)
    if match is None:
        raise ValueError(f"no fiscal year in column label {label!r}")
    return int(match.group(1))


def fiscal_year_end(calendar: FiscalCalendar, fiscal_year: int) -> dt.date:
    """The anchor's month and day in ``fiscal_year``'s end year (within a week for 52/53 weeks)."""
    anchor = calendar.anchor_end
    year = anchor.year + (fiscal_year - calendar.anchor_fiscal_year)
    day = min(anchor.day, 28) if (anchor.month, anchor.day) == (2, 29) else anchor.day
    return dt.date(year, anchor.month, day)


def fiscal_calendar_from_companyfacts(facts: CompanyFacts) -> FiscalCalendar:
    """Anchor the company's calendar on its latest fiscal year's reported period end."""
    if not facts.annual:
        raise ValueError(f"companyfacts for CIK {facts.cik} hold no annual facts")
    latest = max(facts.annual.values(), key=lambda fact: (fact.fiscal_year, fact.end))
    return FiscalCalendar(latest.end, latest.fiscal_year)


def printed_precision(value: float) -> float:
    """Half a unit of the value's last printed digit, in $M ("11,692.7" -> 0.05, "3,000" -> 0.5).

    The JSON form keeps the value, not the printed text, so the digits are read off the value:
    a trailing printed zero ("2,679,800" thousands) reads as coarser rounding, which only widens
    the comparison slightly.
    """
    exponent = Decimal(repr(round(value, 6))).normalize().as_tuple().exponent
    if not isinstance(exponent, int):
        return 0.0
    return 0.5 * 10.0 ** min(exponent, 0)


def _period(
    statement: str, fiscal_year: int, calendar: FiscalCalendar | None
) -> tuple[dt.date | None, dt.date]:
    if calendar is None:
        end = dt.date(fiscal_year, 12, 31)
        previous_end = dt.date(fiscal_year - 1, 12, 31)
    else:
        end = fiscal_year_end(calendar, fiscal_year)
        previous_end = fiscal_year_end(calendar, fiscal_year - 1)
    if statement in INSTANT_STATEMENTS:
        return None, end
    return previous_end + dt.timedelta(days=1), end


def figures_from_statements(
    statements: Mapping[str, Any],
    *,
    name: str = "10-K PDF",
    location: str = "",
    document_id: str | None = None,
    calendar: FiscalCalendar | None = None,
) -> FigureSet:
    """Every canonical line item with a us-gaap counterpart, keyed by (concept, fiscal year).

    Citations name the document and the 1-based page ("NETFLIX_2017_10K.pdf p. 42");
    ``document_id`` overrides the document name taken from ``statements["document"]``.
    """
    document = document_id or PurePath(str(statements.get("document") or name)).name
    figures: dict[tuple[str, int], Figure] = {}
    for statement in STATEMENT_NAMES:
        for line_item, years in (statements.get(statement) or {}).items():
            concept = CANONICAL_CONCEPTS.get(line_item)
            if concept is None:
                continue
            for label, cell in years.items():
                fiscal_year = fiscal_year_from_label(label)
                start, end = _period(statement, fiscal_year, calendar)
                value = float(cell["value"])
                page = int(cell["page"]) + 1  # the JSON contract's pages are 0-indexed
                figures[(concept, fiscal_year)] = StatementFigure(
                    value=value,
                    concept=concept,
                    end=end,
                    start=start,
                    citation=f"{document} p. {page}",
                    precision=printed_precision(value),
                    statement=statement,
                    line_item=line_item,
                    page=page,
                    bbox=tuple(float(v) for v in cell.get("bbox", ())),
                    period_known=calendar is not None,
                )
    return FigureSet(name, figures, location or document)


def statement_cells(figures: FigureSet) -> dict[tuple[str, int], StatementFigure]:
    """The PDF figures of a set by (concept, fiscal year), each with its page and box."""
    return {
        key: figure
        for key, figure in figures.figures.items()
        if isinstance(figure, StatementFigure)
    }
