"""Reconciliation of the same figures from two or more sources.

Each source contributes a ``FigureSet``: figures in USD millions keyed by (concept, fiscal year).
A ``Metric`` names the concepts that can stand for it (first found wins) so sources that tag a
figure differently still line up. Every row compares each source with the reference source.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from finance.reconcile.fiscal import same_period


class Status(enum.StrEnum):
    AGREE = "agree"
    DISCREPANCY = "discrepancy"
    MISSING = "missing"


class Cause(enum.StrEnum):
    RESTATEMENT = "restatement"
    DIFFERENT_DEFINITION = "different definition"
    PERIOD_MISMATCH = "period mismatch"


@dataclass(frozen=True)
class PriorValue:
    """An earlier report of the same figure for the same period (e.g. an older 10-K)."""

    value: float
    citation: str
    filed: dt.date | None = None


@dataclass(frozen=True)
class Figure:
    value: float  # USD millions
    concept: str
    end: dt.date
    start: dt.date | None = None
    citation: str = ""
    precision: float = 0.0  # half the rounding step of the reported value, in $M
    history: tuple[PriorValue, ...] = ()  # every report for this period, oldest first


@dataclass(frozen=True)
class FigureSet:
    name: str
    figures: Mapping[tuple[str, int], Figure]
    location: str = ""

    def find(self, concepts: Sequence[str], fiscal_year: int) -> Figure | None:
        for concept in concepts:
            figure = self.figures.get((concept, fiscal_year))
            if figure is not None:
                return figure
        return None


@dataclass(frozen=True)
class Metric:
    name: str
    concepts: tuple[str, ...]


KEY_METRICS: tuple[Metric, ...] = (
    Metric(
        "Revenue",
        (
            "RevenueFromContractWithCustomerExcludingAssessedTax",
            "Revenues",
            "SalesRevenueNet",
        ),
    ),
    Metric("Cost of revenue", ("CostOfGoodsAndServicesSold", "CostOfRevenue")),
    Metric("Gross profit", ("GrossProfit",)),
    Metric("Research and development", ("ResearchAndDevelopmentExpense",)),
    Metric("Operating income", ("OperatingIncomeLoss",)),
    Metric("Income tax expense", ("IncomeTaxExpenseBenefit",)),
    Metric("Net income", ("NetIncomeLoss",)),
    Metric("Cash and cash equivalents", ("CashAndCashEquivalentsAtCarryingValue",)),
    Metric("Total assets", ("Assets",)),
    Metric("Total liabilities", ("Liabilities",)),
    Metric("Shareholders' equity", ("StockholdersEquity",)),
    Metric("Operating cash flow", ("NetCashProvidedByUsedInOperatingActivities",)),
    Metric("Capital expenditure", ("PaymentsToAcquirePropertyPlantAndEquipment",)),
)


@dataclass(frozen=True)
class Row:
    metric: str
    fiscal_year: int
    reference: str
    values: dict[str, float | None]
    relative_difference: dict[str, float | None]  # (value - reference) / |reference|
    tolerance: float
    status: Status
    cause: Cause | None = None
    explanation: str = ""
    citations: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ReconciliationTable:
    reference: str
    sources: tuple[str, ...]
    rows: tuple[Row, ...]

    def row(self, metric: str, fiscal_year: int) -> Row:
        for row in self.rows:
            if row.metric == metric and row.fiscal_year == fiscal_year:
                return row
        raise KeyError((metric, fiscal_year))

    def as_records(self) -> list[dict[str, object]]:
        records: list[dict[str, object]] = []
        for row in self.rows:
            record: dict[str, object] = {"metric": row.metric, "fiscal_year": row.fiscal_year}
            for source in self.sources:
                record[source] = row.values.get(source)
                if source != self.reference:
                    record[f"rel_diff_{source}"] = row.relative_difference.get(source)
            record.update(
                tolerance=row.tolerance,
                status=str(row.status),
                explanation=row.explanation,
            )
            records.append(record)
        return records

    def to_text(self) -> str:
        header = ["metric", "FY", *self.sources, "status", "explanation"]
        lines = [" | ".join(header)]
        for row in self.rows:
            cells = [row.metric, str(row.fiscal_year)]
            for source in self.sources:
                value = row.values.get(source)
                cells.append("—" if value is None else f"{value:,.0f}")
            cells += [str(row.status), row.explanation]
            lines.append(" | ".join(cells))
        return "\n".join(lines)


def _close(a: float, b: float, tolerance: float, precision: float) -> bool:
    return abs(a - b) <= max(tolerance * abs(b), precision, 1e-9)


def _relative(value: float, reference: float) -> float:
    if reference == 0:
        return 0.0 if value == 0 else float("inf")
    return (value - reference) / abs(reference)


def _explain(
    reference_name: str, ref: Figure, other_name: str, other: Figure, tolerance: float
) -> tuple[Cause | None, str]:
    if not same_period(ref.start, ref.end, other.start, other.end):
        return Cause.PERIOD_MISMATCH, (
            f"period mismatch: {reference_name} covers {_period(ref)}, "
            f"{other_name} covers {_period(other)}"
        )
    precision = max(ref.precision, other.precision)
    for older, newer, older_name, newer_name in (
        (other, ref, other_name, reference_name),
        (ref, other, reference_name, other_name),
    ):
        for prior in newer.history:
            if _close(prior.value, older.value, tolerance, precision) and not _close(
                prior.value, newer.value, tolerance, precision
            ):
                return Cause.RESTATEMENT, (
                    f"restatement: {older_name} matches {prior.value:,.0f} as first reported "
                    f"({prior.citation}); {newer_name} has the later {newer.value:,.0f} "
                    f"({newer.citation})"
                )
    if ref.concept != other.concept:
        return Cause.DIFFERENT_DEFINITION, (
            f"different definition: {reference_name} reports {ref.concept}, "
            f"{other_name} reports {other.concept}"
        )
    return None, "unexplained difference"


def _period(figure: Figure) -> str:
    if figure.start is None:
        return f"as of {figure.end.isoformat()}"
    return f"{figure.start.isoformat()} to {figure.end.isoformat()}"


def reconcile(
    sources: Sequence[FigureSet],
    fiscal_years: Iterable[int],
    metrics: Sequence[Metric] = KEY_METRICS,
    *,
    reference: str | None = None,
    tolerance: float = 0.001,
) -> ReconciliationTable:
    """Compare every metric and fiscal year across ``sources`` against the reference source.

    ``tolerance`` is relative to the reference value; the reported rounding (XBRL ``decimals``)
    widens it, so "$7.7 billion" agrees with 7,728 $M.
    """
    if len(sources) < 2:
        raise ValueError("reconciliation needs at least two sources")
    names = tuple(s.name for s in sources)
    if len(set(names)) != len(names):
        raise ValueError(f"source names must be unique: {names}")
    reference_name = reference or names[0]
    if reference_name not in names:
        raise ValueError(f"unknown reference source {reference_name!r}")
    by_name = {s.name: s for s in sources}
    rows: list[Row] = []
    for fiscal_year in fiscal_years:
        for metric in metrics:
            found = {name: by_name[name].find(metric.concepts, fiscal_year) for name in names}
            if all(f is None for f in found.values()):
                continue
            values = {name: (f.value if f else None) for name, f in found.items()}
            citations = {name: f.citation for name, f in found.items() if f and f.citation}
            ref = found[reference_name]
            relative: dict[str, float | None] = {}
            causes: list[tuple[Cause | None, str]] = []
            agree = True
            for name, figure in found.items():
                if name == reference_name:
                    continue
                if ref is None or figure is None:
                    relative[name] = None
                    continue
                relative[name] = _relative(figure.value, ref.value)
                precision = max(ref.precision, figure.precision)
                if not _close(figure.value, ref.value, tolerance, precision):
                    agree = False
                    causes.append(_explain(reference_name, ref, name, figure, tolerance))
            missing = [name for name, f in found.items() if f is None]
            if missing:
                status = Status.MISSING
                explanation = "missing in " + ", ".join(missing)
                if causes:
                    explanation += "; " + "; ".join(text for _, text in causes)
                cause = causes[0][0] if causes else None
            elif agree:
                status, cause, explanation = Status.AGREE, None, ""
            else:
                status = Status.DISCREPANCY
                cause = causes[0][0]
                explanation = "; ".join(text for _, text in causes)
            rows.append(
                Row(
                    metric=metric.name,
                    fiscal_year=fiscal_year,
                    reference=reference_name,
                    values=values,
                    relative_difference=relative,
                    tolerance=tolerance,
                    status=status,
                    cause=cause,
                    explanation=explanation,
                    citations=citations,
                )
            )
    return ReconciliationTable(reference_name, names, tuple(rows))
