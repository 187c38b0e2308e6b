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

# Sources beyond SEC: PDF statements, Yahoo Finance, and the three-way entry point.
from finance.reconcile.sources import reconcile_sources, row_record, table_records
from finance.reconcile.statements_source import (
    StatementFigure,
    figures_from_statements,
    fiscal_calendar_from_companyfacts,
)
from finance.reconcile.yahoo_source import figures_from_yahoo

__all__ += [
    "StatementFigure",
    "figures_from_statements",
    "figures_from_yahoo",
    "fiscal_calendar_from_companyfacts",
    "reconcile_sources",
    "row_record",
    "table_records",
]
