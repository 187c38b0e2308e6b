"""Reconcile the same financial figures across sources, explaining known causes."""

from finance.reconcile.ixbrl import InlineXbrlDocument, parse_inline_xbrl
from finance.reconcile.sec_filing import (
    figures_from_companyfacts,
    figures_from_filing,
    reconcile_filing_with_companyfacts,
)
from finance.reconcile.table import (
    KEY_METRICS,
    Cause,
    Figure,
    FigureSet,
    Metric,
    ReconciliationTable,
    Row,
    Status,
    reconcile,
)

__all__ = [
    "KEY_METRICS",
    "Cause",
    "Figure",
    "FigureSet",
    "InlineXbrlDocument",
    "Metric",
    "ReconciliationTable",
    "Row",
    "Status",
    "figures_from_companyfacts",
    "figures_from_filing",
    "parse_inline_xbrl",
    "reconcile",
    "reconcile_filing_with_companyfacts",
]
