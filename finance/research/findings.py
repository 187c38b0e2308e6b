"""What a research run found, gathered for the note (plain data, no Django)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from finance.modeling.macro import YearPair
from finance.modeling.prices import PriceMetrics
from finance.research.analysis import StatementAnalysis, Valuation
from finance.research.citations import Number, Source


@dataclass(frozen=True)
class Passage:
    """A passage of a filing that answers part of the request, with its page."""

    document_id: int
    document: str
    page: int  # 0-indexed
    text: str
    query: str


@dataclass(frozen=True)
class ReconRow:
    metric: str
    fiscal_year: int
    values: dict[str, Number | None]  # source name -> linked number (None: missing there)
    differences: dict[str, float | None]  # source name -> relative difference to the reference
    status: str  # agree | discrepancy | missing
    explanation: str = ""


@dataclass(frozen=True)
class ReconView:
    """A reconciliation table ready for the note: linked values per source."""

    document_id: int
    document: str
    reference: str
    sources: list[str]
    tolerance: float
    rows: list[ReconRow]

    def discrepancies(self) -> list[ReconRow]:
        return [row for row in self.rows if row.status == "discrepancy"]

    def summary(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for row in self.rows:
            counts[row.status] = counts.get(row.status, 0) + 1
        return {
            "document_id": self.document_id,
            "reference": self.reference,
            "sources": self.sources,
            "counts": counts,
            "discrepancies": [
                {
                    "metric": row.metric,
                    "fiscal_year": row.fiscal_year,
                    "values": {k: (v or {}).get("value") for k, v in row.values.items()},
                    "explanation": row.explanation,
                }
                for row in self.discrepancies()
            ],
        }


@dataclass(frozen=True)
class PriceView:
    ticker: str
    metrics: PriceMetrics
    source: Source
    closes: list[tuple[str, float]]  # month-end adjusted closes for the chart


@dataclass(frozen=True)
class MacroView:
    series_id: str
    series_name: str
    pairs: list[YearPair]
    mean_spread: float | None
    source: Source
    company: str
    document_id: int


@dataclass
class Findings:
    request: str
    analyses: list[StatementAnalysis] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    reconciliations: list[ReconView] = field(default_factory=list)
    prices: PriceView | None = None
    macro: list[MacroView] = field(default_factory=list)
    valuations: dict[int, Valuation | str] = field(default_factory=dict)
    limits: list[str] = field(default_factory=list)
    """Plain statements of what could not be done, and why."""
    documents: dict[str, int] = field(default_factory=dict)  # name -> id
    companies: list[str] = field(default_factory=list)
    """Every covered company, in document order (HTML filings included)."""
