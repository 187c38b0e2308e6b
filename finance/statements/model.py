"""Plain dataclasses for canonical statements, serialisable to the JSON contract."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

STATEMENTS = ("income_statement", "balance_sheet", "cash_flow")


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
    company: str
    currency: str = "USD"
    unit: str = "millions"
    fiscal_years: list[str] = field(default_factory=list)
    income_statement: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    balance_sheet: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    cash_flow: dict[str, dict[str, CellValue]] = field(default_factory=dict)
    pages: dict[str, list[int]] = field(default_factory=dict)  # statement -> pages parsed

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
            "currency": self.currency,
            "unit": self.unit,
            "fiscal_years": list(self.fiscal_years),
        }
        for name in STATEMENTS:
            out[name] = {
                key: {year: cell.to_dict() for year, cell in years.items()}
                for key, years in self.statement(name).items()
            }
        return out
