"""The accounting identities, checked on a document's canonical statements for every year.

* Balance sheet: total assets = total liabilities + equity. Equity is always the canonical
  shareholders' equity, plus what the page prints beside it: lines named non-controlling or
  temporary equity, the lines between that equity total and the printed total equity, and the
  lines between total liabilities and the equity section (temporary equity). A wrong canonical
  equity cannot pass on the printed total alone. A filing that prints no total liabilities is
  checked against its printed total of liabilities and equity instead (and says so).
* Cash flow: operating + investing + financing + every line printed between the last of those
  totals and the net change in cash (the effect of exchange rates, cash held for sale...)
  = the printed net change in cash; without a printed change row, the change of the balance
  sheet's cash between two year-ends (and says so).

"Within rounding": each printed term may be off by half a unit of the page's rounding, so a sum
of n terms may miss its printed total by (n + 1) / 2 units.

Pure Python: `balance_checks` and `cash_flow_checks` take the statements dict (the canonical
JSON contract) and the page texts by page number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from finance.evaluation.printed_rows import (
    Columns,
    PrintedRow,
    find_columns,
    matching,
    normalise,
    page_rows,
    row_index,
)

Statements = Mapping[str, Any]

BETWEEN_EQUITY = re.compile(
    r"^(?!total)(redeemable )?(non-?controlling|minority) interests?\b|"
    r"^(?!total)(redeemable|temporary|mezzanine) (equity|non-?controlling|preferred)|"
    r"^noncontrolling interests? in subsidiaries"
)
LIABILITIES_AND_EQUITY = re.compile(r"^total liabilities,? .*\b(equity|deficit|investment)\b")
EXCHANGE_EFFECT = re.compile(r"\b(exchange[- ]rates?|foreign currency|currency translation)\b")
# "Net increase (decrease) in cash ...", "Net change in cash ...", "Cash and equivalents increase
# (decrease)"; never the balance at the beginning or end of the period.
CHANGE_IN_CASH = re.compile(
    r"^(?!.*\b(beginning|end) of)(?!.*\b(held.for.sale|discontinued)\b)(?=.*\bcash\b)"
    r"(net |total )?(\(?(increase|decrease|change)\b|"
    r"cash\b.*\b(increase|decrease)\b)"
)
CASH_BALANCE = re.compile(r"\bcash\b.*\b(beginning|end) of")
TOTALS_BELOW_EQUITY = re.compile(r"^total (equity|liabilities)|^total .*\bequity$")
EQUITY_SECTION = re.compile(
    r"equity|deficit|\bstock\b|\bshares\b|capital|retained|paid-in|treasury|comprehensive"
)


@dataclass(frozen=True)
class YearCheck:
    """One identity in one year: the two sides, the tolerance, and what was used."""

    year: str
    left: float
    right: float
    tolerance: float
    basis: str

    @property
    def holds(self) -> bool:
        return abs(self.left - self.right) <= self.tolerance

    def describe(self) -> str:
        if math.isnan(self.right):  # a side could not be formed: say what is missing, no sums
            return f"{self.year}: {self.basis}"
        return (
            f"{self.year}: {self.left:,.3f} vs {self.right:,.3f} (off by "
            f"{self.left - self.right:,.3f}, tolerance {self.tolerance:,.3f}; {self.basis})"
        )


def cells(statements: Statements, statement: str, key: str) -> dict[str, float]:
    found = (statements.get(statement) or {}).get(key) or {}
    return {year: float(cell["value"]) for year, cell in found.items()}


def cell_pages(statements: Statements, statement: str) -> list[int]:
    pages = {
        int(cell["page"])
        for years in (statements.get(statement) or {}).values()
        for cell in years.values()
    }
    return sorted(pages)


def statement_rows(
    statements: Statements, statement: str, pages: Mapping[int, str]
) -> list[PrintedRow]:
    """The printed rows of a statement's pages, and of the page after (statements run over)."""
    cited = cell_pages(statements, statement)
    if not cited:
        return []
    wanted = sorted({*cited, cited[-1] + 1})
    return [row for page in wanted if page in pages for row in page_rows(page, pages[page])]


def _columns(rows: list[PrintedRow], anchors: list[dict[str, float]]) -> Columns | None:
    for anchor in anchors:
        columns = find_columns(rows, anchor)
        if columns is not None:
            return columns
    return None


def _tolerance(columns: Columns | None, terms: int, values: list[float]) -> float:
    step = columns.step if columns is not None else _finest_step(values)
    return (terms + 1) * step / 2


def _finest_step(values: list[float]) -> float:
    decimals = 0
    for value in values:
        text = f"{value:.6f}".rstrip("0")
        decimals = max(decimals, len(text.split(".")[1]) if "." in text else 0)
    return 10.0**-decimals


def _printed(rows: list[PrintedRow], columns: Columns | None, year: str) -> list[float]:
    if columns is None:
        return []
    found = [columns.value(row, year) for row in rows]
    return [value for value in found if value is not None]


def balance_checks(statements: Statements, pages: Mapping[int, str]) -> list[YearCheck]:
    """Assets = liabilities + equity for every year the balance sheet has total assets."""
    assets = cells(statements, "balance_sheet", "total_assets")
    liabilities = cells(statements, "balance_sheet", "total_liabilities")
    equity = cells(statements, "balance_sheet", "shareholders_equity")
    rows = statement_rows(statements, "balance_sheet", pages)
    columns = _columns(rows, [assets, liabilities, equity])
    out = []
    for year, total in assets.items():
        if year in liabilities and year in equity:
            tolerance = _tolerance(columns, 4, [total, liabilities[year], equity[year]])
            sides = _equity_sides(rows, columns, year, equity, liabilities)
            checks = [
                YearCheck(year, total, liabilities[year] + value, tolerance, basis)
                for value, basis in sides
            ]
            out.append(next((c for c in checks if c.holds), checks[0]))
            continue
        printed = _printed(matching(rows, LIABILITIES_AND_EQUITY), columns, year)
        if printed:
            tolerance = _tolerance(columns, 1, [total])
            basis = "no total liabilities extracted: against the printed liabilities and equity"
            out.append(YearCheck(year, total, printed[-1], tolerance, basis))
        else:
            missing = "total liabilities" if year not in liabilities else "shareholders' equity"
            out.append(YearCheck(year, total, float("nan"), 0.0, f"{missing} missing"))
    return out


def _equity_sides(
    rows: list[PrintedRow],
    columns: Columns | None,
    year: str,
    equity: Mapping[str, float],
    liabilities: Mapping[str, float],
) -> list[tuple[float, str]]:
    """What may stand between total liabilities and total assets, best reading first.

    Always the canonical shareholders' equity, plus what the page prints beside it: lines
    named as non-controlling or temporary equity, the lines between the equity total and the
    printed total equity, and the lines between total liabilities and the equity section.
    """
    own = equity[year]
    sides = [(own, "liabilities + shareholders' equity")]
    minority = sum(_printed(matching(rows, BETWEEN_EQUITY), columns, year))
    if minority:
        sides.append((own + minority, "+ non-controlling/temporary equity"))
    below = sum(_printed(_rows_after(rows, columns, equity, TOTALS_BELOW_EQUITY), columns, year))
    if below:
        sides.append((own + below, "+ the lines between it and total equity"))
    above = sum(_printed(_rows_after(rows, columns, liabilities, EQUITY_SECTION), columns, year))
    if above:
        sides += [(value + above, basis + " + temporary equity") for value, basis in list(sides)]
    return sides


def _rows_after(
    rows: list[PrintedRow],
    columns: Columns | None,
    values: Mapping[str, float],
    stop: re.Pattern[str],
) -> list[PrintedRow]:
    """The rows printed after the row of `values`, up to the first whose label matches `stop`."""
    start = row_index(rows, columns, values) if columns is not None and values else None
    if start is None:
        return []
    out = []
    for row in rows[start + 1 :]:
        if stop.search(normalise(row.label)):
            break
        out.append(row)
    return out


def _prints_total(rows: list[PrintedRow], section: str) -> bool:
    """Whether the statement prints a cash total for `section` ("investing", "financing")."""
    pattern = re.compile(rf"^(net )?cash\b.*\b{section}\b")
    return any(pattern.search(normalise(row.label)) for row in rows)


def cash_flow_checks(statements: Statements, pages: Mapping[int, str]) -> list[YearCheck]:
    """Operating + investing + financing (+ what the page reconciles) = change in cash."""
    operating = cells(statements, "cash_flow", "operating_cash_flow")
    investing = cells(statements, "cash_flow", "investing_cash_flow")
    financing = cells(statements, "cash_flow", "financing_cash_flow")
    cash = cells(statements, "balance_sheet", "cash_and_equivalents")
    rows = statement_rows(statements, "cash_flow", pages)
    columns = _columns(rows, [operating, investing, financing])
    reconciling, change_row = _reconciliation(rows, columns, [operating, investing, financing])
    out = []
    for year, cfo in operating.items():
        missing = [
            name
            for name, found in (("investing", investing), ("financing", financing))
            if year not in found
        ]
        if missing and not any(_prints_total(rows, name) for name in missing):
            continue  # a condensed statement (a release) that prints no such total: unchecked
        if missing:
            basis = f"{' and '.join(missing)} cash flow missing"
            out.append(YearCheck(year, cfo, float("nan"), 0.0, basis))
            continue
        extra = _printed(reconciling, columns, year)
        sections = cfo + investing[year] + financing[year] + sum(extra)
        terms = 4 + len(extra)
        tolerance = _tolerance(columns, terms, [cfo, investing[year], financing[year]])
        others = f" + {len(extra)} reconciling line(s)" if any(extra) else ""
        change = _printed([change_row], columns, year) if change_row is not None else []
        if change:
            basis = f"operating + investing + financing{others} vs the printed change in cash"
            out.append(YearCheck(year, sections, change[0], tolerance, basis))
            continue
        previous = _previous_year(year, cash)
        if year in cash and previous is not None:
            basis = (
                f"operating + investing + financing{others} vs the balance sheet's change in "
                "cash (no change row printed; restricted cash not counted)"
            )
            out.append(YearCheck(year, sections, cash[year] - cash[previous], tolerance, basis))
        else:
            out.append(YearCheck(year, sections, float("nan"), 0.0, "no change in cash found"))
    return out


def _reconciliation(
    rows: list[PrintedRow], columns: Columns | None, sections: list[dict[str, float]]
) -> tuple[list[PrintedRow], PrintedRow | None]:
    """The rows between the last section total and the net change in cash, and that row.

    Whatever a statement prints there (the effect of exchange rates, cash held for sale, cash
    flows of discontinued operations) is part of the reconciliation to the change in cash.
    """
    if columns is None:
        return [], None
    found = [row_index(rows, columns, values) for values in sections if values]
    if not found or any(index is None for index in found):
        fx = matching(rows, EXCHANGE_EFFECT)
        change = matching(rows, CHANGE_IN_CASH)
        return fx[-1:], (change[0] if change else None)
    last = max(index for index in found if index is not None)
    between: list[PrintedRow] = []
    for row in rows[last + 1 :]:
        if CHANGE_IN_CASH.search(normalise(row.label)):
            return between, row
        if CASH_BALANCE.search(normalise(row.label)):
            break
        between.append(row)
    return matching(between, EXCHANGE_EFFECT)[-1:], None


def _previous_year(year: str, values: Mapping[str, float]) -> str | None:
    match = re.fullmatch(r"(FY|Q[1-4] |[69]M )(\d{4})", year)
    if match is None:
        return None
    previous = f"{match.group(1)}{int(match.group(2)) - 1}"
    return previous if previous in values else None
