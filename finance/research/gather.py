"""Carry out a research plan: analyse the filings and call the data sources it asks for.

Every part that cannot be done is recorded in `Findings.limits` with the reason, so the note
and the agent's answer say it plainly instead of failing the whole run.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from agents.models import Workspace
from finance.models import Document
from finance.providers import ProviderError
from finance.research import sources
from finance.research.analysis import (
    StatementAnalysis,
    analyse_statements,
    annual_macro,
    calendar_years,
    valuation,
)
from finance.research.findings import Findings, MacroView, PriceView
from finance.research.plan import ResearchPlan
from finance.research.reconciliation import reconcile_document
from finance.statements.model import STATEMENTS

MACRO_SERIES = {"A191RL1A225NBEA": "US real GDP growth", "CPIAUCSL": "US CPI inflation"}


def analyse_document(document: Document, plan: ResearchPlan) -> StatementAnalysis | str:
    """The document's ratios, or why it was left out (naming it, its company and kind)."""
    found = sources.statements(document)
    if not found:
        if document.kind == "html":
            return (
                f"{document.name} was left out: it has no inline XBRL financial facts "
                "to compute ratios from"
            )
        return f"{document.name} was left out: no financial statements were found in it"
    company = document.company or str(found.get("company") or document.name)
    if not any(found.get(statement) for statement in STATEMENTS):
        return left_out(document.name, company, found)
    return analyse_statements(document.pk, document.name, company, found, plan.years)


def left_out(name: str, company: str, found: dict[str, Any]) -> str:
    """Why a filing with no statements (an 8-K, a press release) was left out, in words."""
    kind = str(found.get("doc_type") or "").strip()
    about = ", ".join(part for part in (company if company != name else "", kind) if part)
    why = str(found.get("note") or "").strip().rstrip(".") or "it has no financial statements"
    if why.startswith(name):  # the note names the document already
        return f"Left out: {why}" + (f" ({company})" if company not in (name, "") else "")
    return f"{name}{f' ({about})' if about else ''} was left out: {why}"


def not_ready(workspace: Workspace) -> list[str]:
    """The workspace's documents that could not be read (failed) or are still being read."""
    out = []
    pending = Document.objects.filter(workspace=workspace).exclude(status=Document.Status.READY)
    for document in pending.order_by("created_at"):
        if document.status == Document.Status.FAILED:
            why = document.message or "it could not be read"
            out.append(f"{document.name} was left out: {why.rstrip('.')}")
        else:
            out.append(f"{document.name} was left out: it was still being read")
    return out


def gather(workspace: Workspace, request: str, plan: ResearchPlan) -> Findings:
    findings = Findings(request=request, limits=list(plan.notes))
    findings.limits.extend(not_ready(workspace))
    try:
        documents = sources.ready_documents(workspace, plan.document_ids)
    except sources.ResearchError as error:
        findings.limits.append(str(error))
        return findings
    if not documents:
        findings.limits.append("no ready document in this workspace: upload a 10-K first")
        return findings
    findings.documents = {d.name: d.pk for d in documents}
    filings = [d for d in documents if d.kind != "csv"]  # CSV files are data, not filings
    findings.companies = list(dict.fromkeys(d.company or d.name for d in filings))
    for document in filings:
        analysed = analyse_document(document, plan)
        if isinstance(analysed, str):
            findings.limits.append(analysed)
            continue
        findings.analyses.append(analysed)
        if analysed.out_of_range:
            findings.limits.append(analysed.out_of_range)
        if plan.valuation and analysed.years:
            found = valuation(analysed)
            findings.valuations[document.pk] = found
            if isinstance(found, str):
                findings.limits.append(f"DCF for {analysed.company}: {found}")
        for question in plan.questions:
            findings.passages.extend(sources.search(document, question, k=2))
    if plan.cross_check:
        for document in filings:
            view, problems = reconcile_document(document, plan.ticker, plan.years)
            findings.limits.extend(problems)
            if view is not None:
                findings.reconciliations.append(view)
    if plan.prices:
        prices = (
            _prices_from_file(workspace, plan)
            if plan.price_document
            else price_view(plan.ticker or _ticker_of(filings), plan.years)
        )
        if isinstance(prices, str):
            findings.limits.append(prices)
        else:
            findings.prices = prices
    if plan.macro:
        for analysis in findings.analyses:
            for series_id in MACRO_SERIES:
                macro = macro_view(analysis, series_id)
                if isinstance(macro, str):
                    findings.limits.append(macro)
                else:
                    findings.macro.append(macro)
    return findings


def _prices_from_file(workspace: Workspace, plan: ResearchPlan) -> PriceView | str:
    assert plan.price_document is not None
    try:
        (found,) = sources.ready_documents(workspace, [plan.price_document])
    except sources.ResearchError as error:
        return str(error)
    if found.kind != "csv":
        return f"{found.name} is not a CSV data file"
    return price_view_from_file(found, plan.years)


def _ticker_of(documents: list[Document]) -> str:
    for document in documents:
        ticker, _ = sources.identify(document)
        if ticker:
            return ticker
    return ""


def price_view(ticker: str, years: tuple[int, int] | None) -> PriceView | str:
    from finance.modeling import price_metrics
    from finance.providers import PriceQuery
    from finance.providers.configured import yahoo_finance

    if not ticker:
        return (
            "price history needs a ticker or a CSV of prices: name the ticker, e.g. 'stock "
            "volatility of ticker NFLX', or upload the prices as CSV"
        )
    start = dt.date(years[0], 1, 1) if years else None
    end = dt.date(min(years[1], 9998) + 1, 1, 1) if years else None  # yfinance: end exclusive
    try:
        result = yahoo_finance().get_prices(PriceQuery(ticker, start=start, end=end))
        frame = result.data
        if years is not None:
            frame = frame.loc[str(years[0]) : str(years[1])]
        if len(frame) < 2:
            return f"Yahoo Finance has fewer than two prices for {ticker} in the period asked for"
        metrics = price_metrics(frame, source=f"{ticker} prices")
    except (ProviderError, ValueError, TypeError) as error:
        return f"price history for {ticker}: {error}"
    retrieved = result.retrieved_at.isoformat(timespec="seconds")
    source = {
        "kind": "api",
        "provider": "Yahoo Finance (yfinance)",
        "url": result.source.location,
        "retrieved_at": retrieved,
        "label": f"{ticker} adjusted closes",
    }
    return PriceView(ticker, metrics, source, month_ends(frame["adj_close"]))


def month_ends(series: Any) -> list[tuple[str, float]]:
    """The last price of each month (the chart), the latest ten years at most."""
    monthly = series.resample("ME").last().dropna()
    return [(ts.date().isoformat()[:7], float(v)) for ts, v in monthly.items()][-120:]


def price_view_from_file(document: Document, years: tuple[int, int] | None) -> PriceView | str:
    """Price metrics from a CSV the person uploaded (dates and a price column)."""
    from finance.documents.data_files import price_series, read_data_csv
    from finance.documents.ingest import DocumentError
    from finance.modeling import price_metrics

    label = f"{document.name} prices"
    try:
        series = price_series(read_data_csv(sources.document_bytes(document)), document.name)
        if years is not None:
            series = series.loc[str(years[0]) : str(years[1])]
        if len(series) < 2:
            return f"{document.name} has fewer than two prices in the period asked for"
        metrics = price_metrics(series, source=label)
    except (DocumentError, sources.ResearchError, ValueError, TypeError) as error:
        return f"prices from {document.name}: {error}"
    source = {
        "kind": "document",
        "document_id": document.pk,
        "document": document.name,
        "page": 0,
        "bbox": None,
        "label": f"{series.name} column of {document.name}",
    }
    return PriceView(document.name, metrics, source, month_ends(series))


def macro_view(analysis: StatementAnalysis, series_id: str) -> MacroView | str:
    from finance.modeling import growth_vs_macro
    from finance.providers import SeriesQuery
    from finance.providers.configured import fred

    name = MACRO_SERIES[series_id]
    revenue = calendar_years(analysis)
    if len(revenue) < 2:
        return f"macro overlay for {analysis.company}: fewer than two years of revenue"
    try:
        result = fred().get(SeriesQuery(series_id))
    except ProviderError as error:
        return f"{name} from FRED: {error}"
    levels = annual_macro([(o.date, o.value) for o in result.data.observations])
    is_growth = series_id != "CPIAUCSL"
    pairs, mean = growth_vs_macro(revenue, levels, macro_is_growth=is_growth)
    if not pairs:
        return f"{name} from FRED has no years in common with {analysis.company}'s revenue"
    source: dict[str, Any] = {
        "kind": "api",
        "provider": "FRED",
        "url": f"https://fred.stlouisfed.org/series/{series_id}",
        "retrieved_at": result.retrieved_at.isoformat(timespec="seconds"),
        "label": name,
    }
    return MacroView(series_id, name, pairs, mean, source, analysis.company, analysis.document_id)
