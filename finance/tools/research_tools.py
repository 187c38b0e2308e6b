"""Tools that compute ratios, cross-checks, prices, macro and a DCF; and the note writer."""

from __future__ import annotations

import json
from typing import Any

from django.urls import reverse

from agents.runtime import Tool, ToolContext, ToolError
from agents.runtime.compression import Compressor
from finance.models import Note
from finance.note.model import Note as NoteDocument
from finance.note.validation import NoteError
from finance.research.analysis import StatementAnalysis, Valuation, valuation
from finance.research.compose import write_note as compose_note
from finance.research.findings import PriceView
from finance.research.gather import (
    analyse_document,
    gather,
    macro_view,
    price_view,
    price_view_from_file,
)
from finance.research.plan import PLAN_PARAMETERS, ResearchPlan
from finance.research.reconciliation import reconcile_document
from finance.tools.document_tools import DOCUMENT_ID
from finance.tools.workspace import document_of, run_of, workspace_of

YEARS = {
    "start_year": {"type": "integer", "minimum": 1900, "maximum": 2100},
    "end_year": {"type": "integer", "minimum": 1900, "maximum": 2100},
}


def _years(arguments: dict[str, Any]) -> tuple[int, int] | None:
    return ResearchPlan.from_arguments(arguments).years


def analyse_financials(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    plan = ResearchPlan(years=_years(arguments))
    analysed = analyse_document(document, plan)
    if isinstance(analysed, str):
        raise ToolError(analysed)
    return analysed.summary()


def cross_check(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    view, problems = reconcile_document(document, arguments.get("ticker", ""), _years(arguments))
    if view is None:
        raise ToolError("; ".join(problems))
    return {**view.summary(), "problems": problems}


def price_history(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    years = _years(arguments)
    if arguments.get("document_id"):
        document = document_of(context, arguments["document_id"])
        if document.kind != "csv":
            raise ToolError(f"{document.name} is not a CSV data file; give a ticker instead")
        found = price_view_from_file(document, years)
    elif arguments.get("ticker"):
        found = price_view(arguments["ticker"].strip().upper(), years)
    else:
        raise ToolError("give a ticker, or the id of an uploaded CSV of prices")
    if isinstance(found, str):
        raise ToolError(found)
    return price_summary(found)


def price_summary(found: PriceView) -> dict[str, Any]:
    metrics = found.metrics.to_dict()
    return {
        "prices": found.ticker,
        "source": found.source,
        "period": found.metrics.total_return.period,
        **{k: v for k, v in metrics.items() if not isinstance(v, dict)},
        **{name: round(m["value"], 4) for name, m in metrics.items() if isinstance(m, dict)},
    }


def macro_overlay(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    analysed = analyse_document(document, ResearchPlan())
    if isinstance(analysed, str):
        raise ToolError(analysed)
    found = macro_view(analysed, arguments.get("series_id", "A191RL1A225NBEA"))
    if isinstance(found, str):
        raise ToolError(found)
    return {
        "series": found.series_name,
        "pairs": [pair.to_dict() for pair in found.pairs],
        "mean_spread_pp": found.mean_spread,
        "source": found.source,
    }


def dcf_valuation(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    document = document_of(context, arguments["document_id"])
    analysed = analyse_document(document, ResearchPlan())
    if isinstance(analysed, str):
        raise ToolError(analysed)
    found = valuation(
        analysed,
        discount_rate=arguments.get("discount_rate", 0.09),
        terminal_growth=arguments.get("terminal_growth", 0.025),
        growth=arguments.get("growth"),
        years=arguments.get("years", 5),
    )
    if not isinstance(found, Valuation):
        raise ToolError(found)
    return {
        "base_year": found.base_year,
        "growth": round(found.growth, 4),
        "discount_rate": found.discount_rate,
        "terminal_growth": found.terminal_growth,
        "enterprise_value": round(found.result.enterprise_value.value, 1),
        "equity_value": round(found.result.equity_value.value, 1),
        "sensitivity": found.sensitivity.to_dict(),
        "unit": "USD millions",
    }


def write_note(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    run = run_of(context)
    plan = ResearchPlan.from_arguments(arguments)
    context.progress(0.1, "Gathering figures for the note")
    findings = gather(workspace_of(context), run.prompt, plan)
    context.progress(0.7, "Writing the note")
    body = compose_note(findings)
    try:
        NoteDocument.from_dict(body)
    except NoteError as error:  # a bug in composition must not store a broken note
        raise ToolError(f"the note could not be written: {error}") from error
    note = Note.objects.create(workspace=run.workspace, run=run, title=body["title"], body=body)
    url = reverse("finance-note-page", args=[note.pk])
    context.emit("note.created", {"note": note.pk, "title": note.title, "url": url})
    return note_result(
        {
            "note_id": note.pk,
            "url": url,
            "title": note.title,
            "sections": [s["heading"] for s in body["sections"]],
            "analysed": [_headline(a) for a in findings.analyses],
            "cross_checks": [_short(v.summary()) for v in findings.reconciliations],
            **({"prices": price_summary(findings.prices)} if findings.prices else {}),
            "limits": list(dict.fromkeys(findings.limits)),
        }
    )


# Below the runtime's observation cap: a longer result would be compressed to a text summary,
# which planners could not read as the note's result, and a run that wrote the note would then
# answer that it could not.
NOTE_RESULT_CHARS = Compressor.observation_cap - 500


def note_result(result: dict[str, Any], limit: int = NOTE_RESULT_CHARS) -> dict[str, Any]:
    """The write_note result, shortened until it fits `limit` characters as JSON: the note's
    id, link and title always stay; long lists keep their first items and say how many more
    the note holds."""

    def size(value: dict[str, Any]) -> int:
        return len(json.dumps(value, default=str))

    out = dict(result)
    for key, keep in (
        ("sections", 12),
        ("limits", 8),
        ("cross_checks", 2),
        ("analysed", 3),
        ("limits", 3),
        ("sections", 0),
        ("cross_checks", 0),
        ("analysed", 1),
        ("limits", 1),
    ):
        if size(out) <= limit:
            return out
        items = list(result.get(key) or [])
        if len(items) > keep:
            out[key] = items[:keep]
            out[f"{key}_not_shown"] = f"{len(items) - keep} more in the note"
    if size(out) > limit:  # very long single items: keep what identifies the note
        out = {k: out[k] for k in ("note_id", "url", "title") if k in result}
        out["not_shown"] = "the result was too long to show; everything is in the note"
    return out


HEADLINE_RATIOS = (
    "gross_margin",
    "operating_margin",
    "net_margin",
    "revenue_growth",
    "fcf_conversion",
    "roe",
)


def _short(check: dict[str, Any]) -> dict[str, Any]:
    return {**check, "discrepancies": check["discrepancies"][:5]}


def _headline(analysis: StatementAnalysis) -> dict[str, Any]:
    """The few figures an answer quotes, per year (the note holds every derivation)."""
    return {
        "document_id": analysis.document_id,
        "company": analysis.company,
        "years": analysis.years,
        "ratios": {
            year: {
                name: round(report.derived[name].value, 4)
                for name in HEADLINE_RATIOS
                if name in report.derived
            }
            for year, report in analysis.ratios.items()
            if year in analysis.years[:1] + analysis.years[-1:]  # latest and earliest
        },
    }


RESEARCH_TOOLS = (
    Tool(
        "analyse_financials",
        "Margins, growth, returns, turnover, DSO/DIO/DPO/CCC, leverage and FCF by fiscal year.",
        {
            "type": "object",
            "properties": {"document_id": DOCUMENT_ID, **YEARS},
            "required": ["document_id"],
            "additionalProperties": False,
        },
        analyse_financials,
    ),
    Tool(
        "cross_check",
        "Reconcile a filing's figures with SEC XBRL companyfacts and Yahoo Finance.",
        {
            "type": "object",
            "properties": {
                "document_id": DOCUMENT_ID,
                "ticker": {"type": "string", "maxLength": 10},
                **YEARS,
            },
            "required": ["document_id"],
            "additionalProperties": False,
        },
        cross_check,
    ),
    Tool(
        "price_history",
        "Return, volatility and maximum drawdown from daily prices: Yahoo Finance for a ticker, "
        "or an uploaded CSV.",
        {
            "type": "object",
            "properties": {
                "ticker": {"type": "string", "minLength": 1, "maxLength": 10},
                "document_id": {**DOCUMENT_ID, "description": "An uploaded CSV of prices."},
                **YEARS,
            },
            "additionalProperties": False,
        },
        price_history,
    ),
    Tool(
        "macro_overlay",
        "Company revenue growth against a FRED series (real GDP growth or CPI) year by year.",
        {
            "type": "object",
            "properties": {
                "document_id": DOCUMENT_ID,
                "series_id": {"enum": ["A191RL1A225NBEA", "CPIAUCSL"]},
            },
            "required": ["document_id"],
            "additionalProperties": False,
        },
        macro_overlay,
    ),
    Tool(
        "dcf_valuation",
        "A DCF from the latest free cash flow with a sensitivity table (rates are fractions).",
        {
            "type": "object",
            "properties": {
                "document_id": DOCUMENT_ID,
                "discount_rate": {"type": "number", "exclusiveMinimum": 0, "maximum": 0.5},
                "terminal_growth": {"type": "number", "minimum": -0.05, "maximum": 0.1},
                "growth": {"type": "number", "minimum": -0.5, "maximum": 1},
                "years": {"type": "integer", "minimum": 1, "maximum": 15},
            },
            "required": ["document_id"],
            "additionalProperties": False,
        },
        dcf_valuation,
    ),
    Tool(
        "write_note",
        "Write the cited research note (tables, charts, cross-checks) and return its link.",
        PLAN_PARAMETERS,
        write_note,
        effects=True,  # stores the note
    ),
)
