"""Canonical statements: the JSON contract other code relies on.

`extract_statements(...).to_dict()` (and `manage.py extract_statements FILE --json`, and the
statements endpoint) give:

* `document`, `company` (from the document's cover, never its file name), `doc_type` (10-K,
  10-Q, 8-K, earnings release, other), `ticker`, `note` (why there are no statements, when there
  are none), `currency` ("USD"), `unit` ("millions": every value is USD millions,
  whatever the filing printed; `units_as_printed` names what each statement printed, e.g.
  {"income_statement": "thousands"}); per-share lines (`eps_basic`, `eps_diluted`) are as printed.
* `fiscal_years`: the period labels carried, newest first. `FY2022` is fiscal year 2022 (named
  by the calendar year it ends in; a 52/53-week year ending in the first days of January belongs
  to the year before) or a balance at its end; `Q2 2023` the second quarter of FY2023 (or a
  balance at its end); `6M 2023` and `9M 2023` six and nine months of FY2023 (see `periods.py`).
* `income_statement`, `balance_sheet`, `cash_flow`: canonical key -> period label ->
  {value, page (0-indexed), bbox (pdfplumber x0, top, x1, bottom)}; the keys are
  `CANONICAL_KEYS`, each present only when the filing prints it.
* `validation`: statement -> period -> {status: verified | failed | unchecked, identity, detail}
  (`validate.py`); `unverified`: statement -> period -> why, for the failed ones. An unverified
  period's figures are flagged wherever they are used.
* `pages`: statement -> pages parsed.
* `rows`: statement -> every row as printed ({label, section (the heading above it), page,
  cells: period -> USD millions}), for lines no canonical key stands for ("Services" under
  "Net sales").
* `period_ends`: period label -> the date its column header prints as its end (ISO), where it
  prints one: "Q2 2023" -> "2022-12-31" for a fiscal year ending in June.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATEMENTS = ("income_statement", "balance_sheet", "cash_flow")
CANONICAL_KEYS: dict[str, frozenset[str]] = {
    "income_statement": frozenset(
        [
            "revenue",
            "cost_of_revenue",
            "gross_profit",
            "research_and_development",
            "selling_general_administrative",
            "total_operating_expenses",
            "operating_income",
            "interest_expense",
            "net_interest_income",
            "noninterest_expense",
            "provision_for_credit_losses",
            "income_before_tax",
            "income_tax",
            "net_income",
            "eps_basic",
            "eps_diluted",
        ]
    ),
    "balance_sheet": frozenset(
        [
            "cash_and_equivalents",
            "accounts_receivable",
            "inventories",
            "total_current_assets",
            "ppe_net",
            "total_assets",
            "accounts_payable",
            "total_current_liabilities",
            "long_term_debt",
            "short_term_debt",
            "current_debt",
            "total_liabilities",
            "shareholders_equity",
            "total_equity",
            "noncontrolling_interests",
            "temporary_equity",
            "total_liabilities_and_equity",
        ]
    ),
    "cash_flow": frozenset(
        [
            "net_income",
            "operating_cash_flow",
            "depreciation_amortization",
            "stock_based_compensation",
            "capital_expenditure",
            "dividends_paid",
            "share_repurchases",
            "investing_cash_flow",
            "financing_cash_flow",
            "fx_effect_on_cash",
            "other_changes_in_cash",
            "net_change_in_cash",
        ]
    ),
}


@dataclass(frozen=True)
class CellValue:
    """One value of one canonical line item for one fiscal year, with where it was printed."""

    value: float  # USD millions
    page: int  # 0-indexed
    bbox: tuple[float, float, float, float]  # pdfplumber (x0, top, x1, bottom)
    text: str = ""  # the cell as printed, e.g. "(1,577)"
    label: str = ""  # the row label as printed

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "page": self.page, "bbox": [round(v, 2) for v in self.bbox]}


@dataclass
class FinancialStatements:
    document: str
    company: str  # as the document prints it (its cover); "" when it names none
    currency: str = "USD"
    unit: str = "millions"
    fiscal_years: list[str] = field(default_factory=list)
    income_statement: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    balance_sheet: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    cash_flow: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    pages: dict[str, list[int]] = field(default_factory=dict)  # statement -> pages parsed
    units: dict[str, str] = field(default_factory=dict)  # statement -> unit as printed
    doc_type: str = ""  # 10-K | 10-Q | 8-K | earnings release | other ("" when not read)
    ticker: str | None = None
    note: str = ""  # why there are no statements, when there are none
    validation: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    """statement -> period -> {status: verified | failed | unchecked, identity, detail}"""
    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """statement -> every row as printed: {label, section, page, cells: {period: USD millions}}"""
    period_ends: dict[str, str] = field(default_factory=dict)
    """period label -> the date it ends on, ISO ("Q2 2023": "2022-12-31"), where printed"""

    def unverified(self) -> dict[str, dict[str, str]]:
        """statement -> period -> why, where an accounting identity failed."""
        out: dict[str, dict[str, str]] = {}
        for statement, periods in self.validation.items():
            for period, check in periods.items():
                if check.get("status") == "failed":
                    out.setdefault(statement, {})[period] = str(check.get("detail", ""))
        return out

    def statement(self, name: str) -> dict[str, dict[str, CellValue]]:
        if name not in STATEMENTS:
            raise KeyError(name)
        result: dict[str, dict[str, CellValue]] = getattr(self, name)
        return result

    def get(self, statement: str, key: str, year: str) -> float | None:
        cell = self.statement(statement).get(key, {}).get(year)
        return None if cell is None else cell.value

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "document": self.document,
            "company": self.company,
            "doc_type": self.doc_type,
            "ticker": self.ticker,
            "currency": self.currency,
            "unit": self.unit,
            "fiscal_years": list(self.fiscal_years),
            "units_as_printed": dict(self.units),
            "period_ends": dict(self.period_ends),
            "rows": {k: list(v) for k, v in self.rows.items()},
            "validation": {k: dict(v) for k, v in self.validation.items()},
            "unverified": self.unverified(),
        }
        if self.note:
            out["note"] = self.note
        for name in STATEMENTS:
            out[name] = {
                key: {year: cell.to_dict() for year, cell in years.items()}
                for key, years in self.statement(name).items()
            }
        return out
