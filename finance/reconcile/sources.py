"""Three-way reconciliation: the filing (inline XBRL or PDF statements), companyfacts, Yahoo.

companyfacts is the reference when present (it holds the latest filed value of every period);
otherwise the filing is. ``table_records`` gives each row as a plain JSON-able dict.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence

from finance.reconcile.statements_source import StatementFigure
from finance.reconcile.table import (
    KEY_METRICS,
    Cause,
    Figure,
    FigureSet,
    Metric,
    ReconciliationTable,
    Row,
    reconcile,
)
from finance.reconcile.yahoo_source import (
    YAHOO_CONCEPT_PREFIX,
    YAHOO_DEFINITION_NOTES,
    yahoo_concept,
)


def reconcile_sources(
    fiscal_years: Iterable[int],
    *,
    filing: FigureSet | None = None,
    companyfacts: FigureSet | None = None,
    yahoo: FigureSet | None = None,
    metrics: Sequence[Metric] = KEY_METRICS,
    tolerance: float = 0.001,
) -> ReconciliationTable:
    """Reconcile any two or three sources; companyfacts is the reference, else the filing."""
    reference = companyfacts if companyfacts is not None else filing
    if reference is None:
        raise ValueError("reconciliation needs companyfacts or a filing as the reference")
    others = [s for s in (filing, yahoo) if s is not None and s is not reference]
    if not others:
        raise ValueError("reconciliation needs at least two sources")
    years = list(fiscal_years)
    sources = [
        _align(reference, others, metrics, concepts=False),
        *(_align(s, [reference], metrics, concepts=True, yahoo=s is yahoo) for s in others),
    ]
    table = reconcile(sources, years, metrics, reference=reference.name, tolerance=tolerance)
    return dataclasses.replace(table, rows=tuple(_with_definition_notes(r) for r in table.rows))


def _untagged(figure: Figure, yahoo: bool) -> bool:
    """A figure whose concept is only the metric it stands for, not a tag its source chose."""
    if isinstance(figure, StatementFigure):
        return True
    return yahoo and not figure.concept.startswith(YAHOO_CONCEPT_PREFIX)


def _align(
    source: FigureSet,
    donors: Sequence[FigureSet],
    metrics: Sequence[Metric],
    *,
    concepts: bool,
    yahoo: bool = False,
) -> FigureSet:
    """Line up figures that carry no tag or no dates with a donor's figure for the same metric.

    PDF statements print no dates: their figures are matched by fiscal year alone and take the
    donor's period, so a difference is never blamed on nominal dates (see ``statements_source``).
    With ``concepts``, PDF figures and Yahoo rows of the same definition take the donor's concept,
    so a difference is not called a "different definition" because of a tag they never had.
    """
    figures: dict[tuple[str, int], Figure] = dict(source.figures)
    for (concept, year), figure in source.figures.items():
        adopt_period = isinstance(figure, StatementFigure) and not figure.period_known
        adopt_concept = concepts and _untagged(figure, yahoo)
        if not (adopt_period or adopt_concept):
            continue
        metric = next((m for m in metrics if concept in m.concepts), None)
        wanted = metric.concepts if metric is not None else (concept,)
        donor = next((f for d in donors if (f := d.find(wanted, year)) is not None), None)
        if donor is None:
            continue
        if adopt_period:
            figure = dataclasses.replace(figure, start=donor.start, end=donor.end)
        if adopt_concept:
            figure = dataclasses.replace(figure, concept=donor.concept)
        figures[(concept, year)] = figure
    return dataclasses.replace(source, figures=figures)


def _with_definition_notes(row: Row) -> Row:
    if row.cause is not Cause.DIFFERENT_DEFINITION:
        return row
    notes = [
        f"{yahoo_row}: {note}"
        for yahoo_row, note in YAHOO_DEFINITION_NOTES.items()
        if yahoo_concept(yahoo_row) in row.explanation
    ]
    if not notes:
        return row
    return dataclasses.replace(row, explanation=f"{row.explanation} ({'; '.join(notes)})")


def _finite(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def row_record(row: Row) -> dict[str, object]:
    """One row as plain JSON types (a relative difference to a zero reference becomes None)."""
    return {
        "metric": row.metric,
        "fiscal_year": row.fiscal_year,
        "reference": row.reference,
        "values": dict(row.values),
        "relative_difference": {k: _finite(v) for k, v in row.relative_difference.items()},
        "tolerance": row.tolerance,
        "status": str(row.status),
        "cause": None if row.cause is None else str(row.cause),
        "explanation": row.explanation,
        "citations": dict(row.citations),
    }


def table_records(table: ReconciliationTable) -> list[dict[str, object]]:
    """Every row as a JSON-able dict (``as_records`` is the flat, spreadsheet-shaped form)."""
    return [row_record(row) for row in table.rows]
