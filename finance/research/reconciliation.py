"""Cross-check one filing against SEC XBRL companyfacts and Yahoo Finance, for the note.

The filing side is the PDF's canonical statements (each value linked to its page and box) or an
HTML filing's own inline XBRL (linked to the page chunk that prints the value).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from finance.models import Document
from finance.providers import CompanyFactsQuery, ProviderError
from finance.providers.sec import CompanyFacts
from finance.reconcile import (
    KEY_METRICS,
    FigureSet,
    ReconciliationTable,
    figures_from_companyfacts,
    figures_from_filing,
)
from finance.reconcile.sources import reconcile_sources
from finance.reconcile.statements_source import (
    StatementFigure,
    figures_from_statements,
    fiscal_calendar_from_companyfacts,
)
from finance.reconcile.yahoo_source import figures_from_yahoo
from finance.research import sources
from finance.research.analysis import YearRange, select_years
from finance.research.citations import Number, Source, api_source, document_source, number
from finance.research.findings import ReconRow, ReconView
from finance.statements.inline_xbrl import printing_page

FILING = "10-K filing"
SEC = "SEC XBRL"
YAHOO = "Yahoo Finance"
METRICS = {metric.name: metric for metric in KEY_METRICS}


class _Sources:
    """The figure sets found for one document, and what went wrong fetching the others."""

    def __init__(self) -> None:
        self.sets: dict[str, FigureSet] = {}
        self.links: dict[str, Source] = {}
        self.problems: list[str] = []


def reconcile_document(
    document: Document, ticker: str = "", years: YearRange | None = None
) -> tuple[ReconView | None, list[str]]:
    """The cross-check table for a filing (None if it cannot be made), and what went wrong.

    A source that fails (SEC unreachable, unknown ticker) does not stop the others.
    """
    ticker, cik = sources.identify(document, ticker)
    found = _Sources()
    if not ticker and cik is None:
        return None, [
            f"cross-checking {document.name} needs the company's ticker; name it, e.g. "
            "'cross-check ticker NFLX with SEC data'"
        ]
    facts = _companyfacts(found, ticker, cik)
    calendar = fiscal_calendar_from_companyfacts(facts) if facts and facts.annual else None
    fiscal_years = _filing(found, document, calendar, years)
    if ticker:
        _yahoo(found, ticker, calendar)
    if FILING not in found.sets or len(found.sets) < 2:
        reasons = "; ".join(found.problems) or "no other source had figures"
        return None, [f"cross-check of {document.name} not possible: {reasons}"]
    table = reconcile_sources(
        fiscal_years,
        filing=found.sets.get(FILING),
        companyfacts=found.sets.get(SEC),
        yahoo=found.sets.get(YAHOO),
    )
    return _view(document, table, found), found.problems


def _companyfacts(found: _Sources, ticker: str, cik: int | None) -> CompanyFacts | None:
    from finance.providers.configured import sec_cik_for_ticker, sec_companyfacts

    try:
        if cik is None:
            cik = sec_cik_for_ticker(ticker)
        result = sec_companyfacts().get(CompanyFactsQuery(cik))
    except ProviderError as error:
        found.problems.append(f"SEC XBRL: {error}")
        return None
    found.sets[SEC] = figures_from_companyfacts(result.data, SEC, result.source.location)
    found.links[SEC] = api_source(
        "SEC EDGAR XBRL companyfacts",
        result.source.location,
        result.retrieved_at.isoformat(timespec="seconds"),
        "",
    )
    return result.data


def _filing(
    found: _Sources, document: Document, calendar: Any, years: YearRange | None
) -> list[int]:
    facts = sources.inline_xbrl(document)
    if facts is not None:
        found.sets[FILING] = figures_from_filing(facts, FILING, document.name)
        focus = facts.fiscal_year_focus or max(y for _, y in found.sets[FILING].figures)
        wanted = [focus, focus - 1]
        return [y for y in wanted if years is None or years[0] <= y <= years[1]] or wanted
    statements = sources.statements(document)
    if not statements:
        found.problems.append(f"{document.name}: no statements were found")
        return []
    found.sets[FILING] = figures_from_statements(
        statements, name=FILING, document_id=document.name, calendar=calendar
    )
    labels = select_years(list(statements.get("fiscal_years") or []), years)
    return sorted({int(label[-4:]) for label in labels if label[-4:].isdigit()}, reverse=True)


def _yahoo(found: _Sources, ticker: str, calendar: Any) -> None:
    from finance.providers.configured import yahoo_finance
    from finance.providers.yahoo import StatementQuery

    provider = yahoo_finance()
    frames = {}
    retrieved: dt.datetime | None = None
    location = ""
    try:
        for query, key in (
            (StatementQuery(ticker, "income"), "income_stmt"),
            (StatementQuery(ticker, "balance"), "balance_sheet"),
            (StatementQuery(ticker, "cashflow"), "cashflow"),
        ):
            result = provider.get_statement(query)
            frames[key] = result.data
            retrieved, location = result.retrieved_at, result.source.location
    except ProviderError as error:
        found.problems.append(f"Yahoo Finance: {error}")
        return
    assert retrieved is not None
    found.sets[YAHOO] = figures_from_yahoo(
        frames, retrieved_at=retrieved, location=location, name=YAHOO, calendar=calendar
    )
    found.links[YAHOO] = api_source(
        "Yahoo Finance (yfinance)", location, retrieved.isoformat(timespec="seconds"), ""
    )


def _view(document: Document, table: ReconciliationTable, found: _Sources) -> ReconView:
    rows = []
    for row in table.rows:
        metric = METRICS.get(row.metric)
        values: dict[str, Number | None] = {}
        for name in table.sources:
            value = row.values.get(name)
            if value is None or metric is None:
                values[name] = None
                continue
            figure = found.sets[name].find(metric.concepts, row.fiscal_year)
            label = f"{row.metric} FY{row.fiscal_year} ({name})"
            values[name] = number(
                value, "USD millions", _link(document, name, figure, label, found)
            )
        differences = {
            name: diff for name, diff in row.relative_difference.items() if name != table.reference
        }
        rows.append(
            ReconRow(
                row.metric, row.fiscal_year, values, differences, str(row.status), row.explanation
            )
        )
    tolerance = table.rows[0].tolerance if table.rows else 0.001
    return ReconView(
        document.pk, document.name, table.reference, list(table.sources), tolerance, rows
    )


def _link(document: Document, name: str, figure: Any, label: str, found: _Sources) -> Source:
    if isinstance(figure, StatementFigure):
        return document_source(document.pk, document.name, figure.page - 1, figure.bbox, label)
    if name == FILING:
        page = _page_printing(document, figure.value if figure else None)
        citation = figure.citation if figure else ""
        return document_source(document.pk, document.name, page, None, f"{label}; {citation}")
    link = dict(found.links[name])
    link["label"] = f"{label}; {figure.citation}" if figure and figure.citation else label
    return link


def _page_printing(document: Document, value: float | None) -> int:
    """The page (chunk) of an HTML filing that prints the value: a statement page first."""
    if value is None:
        return 0
    statements: dict[str, Any] = (document.sections or {}).get("statements") or {}
    preferred = sorted(int(p) for p in statements.values() if isinstance(p, int))
    found = printing_page(sources.parsed(document).pages, value, preferred)
    return found or 0
