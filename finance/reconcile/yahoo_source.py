"""yfinance's annual statement frames (``income_stmt``, ``balance_sheet``, ``cashflow``) as a
FigureSet.

yfinance frames have one row per line item (its own standardised names, e.g. "Total Revenue")
and one column per period end (a ``Timestamp``), values in dollars. Yahoo's data are standardised
by its data vendor, not copied from the filing: where a row's definition is known to differ from
the us-gaap concept it is compared with, the figure's ``concept`` names the yfinance row, so a
difference is explained as ``Cause.DIFFERENT_DEFINITION`` (see ``YAHOO_DEFINITION_NOTES``).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd  # type: ignore[import-untyped]

from finance.providers.periods import default_fiscal_year
from finance.reconcile.fiscal import FiscalCalendar
from finance.reconcile.table import Figure, FigureSet

INCOME = "income_stmt"
BALANCE = "balance_sheet"
CASHFLOW = "cashflow"
_STATEMENT_ALIASES = {"income": INCOME, "balance": BALANCE, "cash_flow": CASHFLOW}


@dataclass(frozen=True)
class YahooRow:
    """One yfinance row and the us-gaap concept it is compared with."""

    statement: str
    rows: tuple[str, ...]  # alternatives, first found wins
    concept: str
    same_definition: bool = True
    sign: float = 1.0  # -1: yfinance prints an outflow as negative


YAHOO_ROWS: tuple[YahooRow, ...] = (
    YahooRow(INCOME, ("Total Revenue",), "Revenues"),
    YahooRow(INCOME, ("Cost Of Revenue",), "CostOfRevenue"),
    YahooRow(INCOME, ("Gross Profit",), "GrossProfit"),
    YahooRow(INCOME, ("Research And Development",), "ResearchAndDevelopmentExpense"),
    YahooRow(INCOME, ("Operating Income",), "OperatingIncomeLoss", same_definition=False),
    YahooRow(INCOME, ("Tax Provision",), "IncomeTaxExpenseBenefit"),
    YahooRow(INCOME, ("Net Income",), "NetIncomeLoss"),
    YahooRow(INCOME, ("Net Income Common Stockholders",), "NetIncomeLoss", same_definition=False),
    YahooRow(BALANCE, ("Cash And Cash Equivalents",), "CashAndCashEquivalentsAtCarryingValue"),
    YahooRow(BALANCE, ("Total Assets",), "Assets"),
    YahooRow(
        BALANCE, ("Total Liabilities Net Minority Interest",), "Liabilities", same_definition=False
    ),
    YahooRow(BALANCE, ("Stockholders Equity",), "StockholdersEquity"),
    YahooRow(CASHFLOW, ("Operating Cash Flow",), "NetCashProvidedByUsedInOperatingActivities"),
    YahooRow(
        CASHFLOW, ("Capital Expenditure",), "PaymentsToAcquirePropertyPlantAndEquipment", sign=-1
    ),
)

# Why a row is not the us-gaap concept it is compared with; shown next to a discrepancy.
YAHOO_DEFINITION_NOTES: dict[str, str] = {
    "Operating Income": (
        "Yahoo's standardised operating income, which can reclassify items the filing reports "
        "inside or outside operating income (e.g. restructuring, other operating income)"
    ),
    "Net Income Common Stockholders": (
        "net income after preferred dividends, not net income attributable to the parent"
    ),
    "Total Liabilities Net Minority Interest": (
        "Yahoo's total liabilities, rebuilt from its own line items, excluding minority interest; "
        "it can differ where the filing prints no total or classifies items differently"
    ),
}


YAHOO_CONCEPT_PREFIX = "yfinance "


def yahoo_concept(row: str) -> str:
    """The ``Figure.concept`` used for a yfinance row whose definition differs."""
    return f"{YAHOO_CONCEPT_PREFIX}{row!r}"


def _fiscal_year(end: dt.date, calendar: FiscalCalendar | None) -> int:
    return calendar.fiscal_year(end) if calendar is not None else default_fiscal_year(end)


def _start(end: dt.date, statement: str) -> dt.date | None:
    if statement == BALANCE:
        return None
    # yfinance gives no start; a year before the end is within the week of slack matching allows.
    try:
        year_before = end.replace(year=end.year - 1)
    except ValueError:  # 29 February
        year_before = end.replace(year=end.year - 1, day=28)
    return year_before + dt.timedelta(days=1)


def figures_from_yahoo(
    frames: Mapping[str, pd.DataFrame],
    *,
    retrieved_at: dt.datetime,
    location: str,
    name: str = "yahoo_finance",
    calendar: FiscalCalendar | None = None,
) -> FigureSet:
    """Key-metric figures, USD millions, from yfinance's annual statement frames.

    ``frames`` maps ``income_stmt``/``balance_sheet``/``cashflow`` (or ``income``/``balance``/
    ``cash_flow``) to frames as yfinance returns them. Fiscal years come from ``calendar`` when
    given, otherwise from the period end's calendar year.
    """
    by_statement = {_STATEMENT_ALIASES.get(key, key): frame for key, frame in frames.items()}
    figures: dict[tuple[str, int], Figure] = {}
    for spec in YAHOO_ROWS:
        frame = by_statement.get(spec.statement)
        if frame is None:
            continue
        row = next((r for r in spec.rows if r in frame.index), None)
        if row is None:
            continue
        concept = spec.concept if spec.same_definition else yahoo_concept(row)
        for column, raw in frame.loc[row].items():
            if raw is None or pd.isna(raw):
                continue
            end = pd.Timestamp(column).date()
            fiscal_year = _fiscal_year(end, calendar)
            if (spec.concept, fiscal_year) in figures:
                continue  # an earlier alternative row already gave this concept and year
            value = spec.sign * float(raw) / 1_000_000
            if not math.isfinite(value):
                continue
            figures[(spec.concept, fiscal_year)] = Figure(
                value=value + 0.0,
                concept=concept,
                end=end,
                start=_start(end, spec.statement),
                citation=(
                    f"Yahoo Finance {spec.statement} row {row!r}, period ending "
                    f"{end.isoformat()}, retrieved {retrieved_at.date().isoformat()}"
                ),
            )
    return FigureSet(name, figures, location)
