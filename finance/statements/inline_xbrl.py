"""Canonical statements of an SEC HTML filing, read from its own inline XBRL facts.

Same JSON contract as the PDF extraction, with two differences a reader should know: values are
the tagged facts (consolidated, annual, USD), and each cites the page (text chunk) of the HTML
that prints it, a statement page first, with no bounding box (HTML has no fixed layout).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from finance.reconcile.ixbrl import InlineXbrlDocument, annual_figures

# Canonical key -> us-gaap concepts that stand for it, the most specific first.
CONCEPTS: dict[str, dict[str, tuple[str, ...]]] = {
    "income_statement": {
        "revenue": (
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "Revenues",
            "SalesRevenueNet",
        ),
        "cost_of_revenue": ("CostOfGoodsAndServicesSold", "CostOfRevenue"),
        "gross_profit": ("GrossProfit",),
        "operating_income": ("OperatingIncomeLoss",),
        "interest_expense": ("InterestExpense", "InterestExpenseNonoperating"),
        "income_before_tax": (
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest",
            "IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments",
        ),
        "income_tax": ("IncomeTaxExpenseBenefit",),
        "net_income": ("NetIncomeLoss",),
    },
    "balance_sheet": {
        "cash_and_equivalents": ("CashAndCashEquivalentsAtCarryingValue",),
        "accounts_receivable": ("AccountsReceivableNetCurrent",),
        "inventories": ("InventoryNet",),
        "total_current_assets": ("AssetsCurrent",),
        "ppe_net": ("PropertyPlantAndEquipmentNet",),
        "total_assets": ("Assets",),
        "accounts_payable": ("AccountsPayableCurrent",),
        "total_current_liabilities": ("LiabilitiesCurrent",),
        "long_term_debt": ("LongTermDebtNoncurrent",),
        "total_liabilities": ("Liabilities",),
        "shareholders_equity": ("StockholdersEquity",),
    },
    "cash_flow": {
        "operating_cash_flow": ("NetCashProvidedByUsedInOperatingActivities",),
        "depreciation_amortization": (
            "DepreciationDepletionAndAmortization",
            "DepreciationAndAmortization",
        ),
        "capital_expenditure": ("PaymentsToAcquirePropertyPlantAndEquipment",),
        "dividends_paid": ("PaymentsOfDividends", "PaymentsOfDividendsCommonStock"),
        "share_repurchases": ("PaymentsForRepurchaseOfCommonStock",),
        "investing_cash_flow": ("NetCashProvidedByUsedInInvestingActivities",),
        "financing_cash_flow": ("NetCashProvidedByUsedInFinancingActivities",),
    },
}
POSITIVE = {"capital_expenditure", "dividends_paid", "share_repurchases", "income_tax"}


def printing_page(pages: Sequence[str], value: float, preferred: Sequence[int]) -> int | None:
    """The page that prints `value` (USD millions, as "391,035"): a preferred page first."""
    text = f"{abs(value):,.0f}"
    for index in [*preferred, *range(len(pages))]:
        if 0 <= index < len(pages) and text in pages[index]:
            return int(index)
    return None


def statements_from_inline_xbrl(
    facts: InlineXbrlDocument,
    pages: Sequence[str],
    *,
    name: str,
    company: str = "",
    statement_pages: dict[str, int | None] | None = None,
) -> dict[str, Any] | None:
    """The canonical statements JSON of an inline-XBRL filing, or None when it tags none."""
    wanted = {c for items in CONCEPTS.values() for concepts in items.values() for c in concepts}
    figures = annual_figures(facts, wanted)
    if not figures:
        return None
    located = statement_pages or {}
    out: dict[str, Any] = {
        "document": name,
        "company": company or facts.dei.get("EntityRegistrantName", ""),
        "currency": "USD",
        "unit": "millions",
        "source": "inline XBRL",
    }
    years: set[int] = set()
    for statement, items in CONCEPTS.items():
        page = located.get(statement)
        preferred = [page] if isinstance(page, int) else []
        table: dict[str, dict[str, Any]] = {}
        for key, concepts in items.items():
            cells: dict[str, Any] = {}
            for (concept, year), figure in figures.items():
                if concept != next((c for c in concepts if (c, year) in figures), None):
                    continue
                value = abs(figure.value) if key in POSITIVE else figure.value
                cell: dict[str, Any] = {"value": round(value, 6) + 0.0, "bbox": None}
                where = printing_page(pages, figure.value, preferred)
                if where is None and preferred:
                    where = preferred[0]  # tagged but printed differently (e.g. rounded)
                if where is not None:
                    cell["page"] = where
                cells[f"FY{year}"] = cell
                years.add(year)
            if cells:
                table[key] = dict(sorted(cells.items(), reverse=True))
        out[statement] = table
    out["fiscal_years"] = [f"FY{year}" for year in sorted(years, reverse=True)]
    return out
