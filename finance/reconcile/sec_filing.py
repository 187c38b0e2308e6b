"""Adapters from SEC sources to ``FigureSet``s, and 10-K vs companyfacts reconciliation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from finance.providers.sec import CompanyFacts
from finance.reconcile.ixbrl import InlineXbrlDocument, annual_figures
from finance.reconcile.table import (
    KEY_METRICS,
    Figure,
    FigureSet,
    Metric,
    PriorValue,
    ReconciliationTable,
    reconcile,
)


def figures_from_companyfacts(
    facts: CompanyFacts, name: str = "sec_companyfacts", location: str = ""
) -> FigureSet:
    figures = {
        key: Figure(
            value=fact.value,
            concept=fact.concept,
            end=fact.end,
            start=fact.start,
            citation=fact.citation,
            history=tuple(
                PriorValue(
                    h.value, f"SEC 10-K accession {h.accn}, filed {h.filed.isoformat()}", h.filed
                )
                for h in fact.history
            ),
        )
        for key, fact in facts.annual.items()
    }
    return FigureSet(name, figures, location)


def figures_from_filing(
    document: InlineXbrlDocument,
    name: str = "10-K",
    location: str = "",
    concepts: Iterable[str] | None = None,
) -> FigureSet:
    label = location or name
    figures = {
        key: Figure(
            value=fig.value,
            concept=fig.concept,
            end=fig.end,
            start=fig.start,
            citation=f"{label}, inline XBRL fact {fig.fact_id}",
            precision=fig.precision_musd,
        )
        for key, fig in annual_figures(document, concepts).items()
    }
    return FigureSet(name, figures, location)


def reconcile_filing_with_companyfacts(
    document: InlineXbrlDocument,
    facts: CompanyFacts,
    fiscal_years: Iterable[int],
    metrics: Sequence[Metric] = KEY_METRICS,
    *,
    filing_name: str = "10-K",
    filing_location: str = "",
    tolerance: float = 0.001,
) -> ReconciliationTable:
    """Reconcile a 10-K's own inline XBRL with companyfacts (the reference: latest filed)."""
    return reconcile(
        [
            figures_from_companyfacts(facts),
            figures_from_filing(document, filing_name, filing_location),
        ],
        fiscal_years,
        metrics,
        tolerance=tolerance,
    )
