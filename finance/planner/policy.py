"""The research planner: a fixed, documented plan carried out through the finance tools.

1. `list_documents`; with no ready filing, say how to upload one and stop.
2. For each ready filing the request is about (all of them unless it names companies):
   `analyse_financials` for the years asked for (PDF filings), `search_document` for each
   question, `cross_check` when the request asks to check against SEC/market data.
3. `price_history` and `macro_overlay` when asked for.
4. `write_note` with the same plan; the answer summarises it, links the note, and says plainly
   what could not be done.
5. A metric question (`planner.metrics`): `get_statements` for the statements the metric
   needs; the answers (or "could not" with the reason) go to `submit_answer`, the contract
   every policy answers through, and the reply leads with the value.

It decides from the conversation alone, so a resumed run carries on where it stopped. Requests
with no research words and no question (arithmetic such as "what is 17 * 23?" is none) are
handed to the general offline planner, with a hint.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from agents.runtime import (
    Decision,
    OfflinePlanner,
    PolicyInput,
    answer_decision,
    call_decision,
    first_user_text,
    tool_results,
)
from finance.documents.matching import match_documents
from finance.documents.profile import DocumentProfile
from finance.planner.intent import DEFAULT_QUESTIONS, Intent, read_intent
from finance.planner.metric_answer import metric_answer, part_asked, submission_of
from finance.planner.metric_catalogue import STATEMENT_OF

HELP = (
    "In this workspace I research filings: upload a 10-K (PDF or SEC HTML) and ask, for example, "
    "'analyse this 10-K', 'compare margins 2017-2019', 'cross-check ticker NFLX with SEC data' "
    "or 'what does the filing say about competition?'."
)
MAX_DOCUMENTS = 6
SEARCH_HITS = 5  # passages the run reads per question (the answer quotes the best one)


@dataclass
class ResearchPlanner:
    name: str = "offline"

    def decide(self, context: PolicyInput) -> Decision:
        request = first_user_text(context)
        intent = read_intent(request)
        if not intent.research:
            return OfflinePlanner(help_text=HELP).decide(context)
        results = tool_results(context)
        if "docs" not in results:
            return call_decision(context, "docs", "list_documents", {}, "Looking at your filings.")
        documents = _json(results["docs"])
        if not isinstance(documents, list):
            return answer_decision(context, f"I could not list the filings: {results['docs']}")
        ready = [d for d in documents if d.get("status") == "ready"]
        if not ready:
            return answer_decision(context, _no_documents(documents))
        filings = [d for d in ready if d.get("kind") != "csv"]
        data_files = [d for d in ready if d.get("kind") == "csv"]
        if not filings and not (intent.prices and data_files):
            return answer_decision(context, _no_documents(documents))
        chosen = _chosen(filings, request)[:MAX_DOCUMENTS] if filings else []
        price_file = _chosen(data_files, request)[0] if intent.prices and data_files else None
        for call_id, tool, arguments, text in self.steps(intent, chosen, price_file):
            if call_id not in results:
                return call_decision(context, call_id, tool, arguments, text)
        note = _json(results.get("note", ""))
        if not isinstance(note, dict):
            return answer_decision(context, f"I could not write the note: {results.get('note')}")
        answer = _summary(note, intent)
        passages = _passages(results, chosen, intent)
        text = answer + ("\n" + passages if passages else "")
        if intent.metric is None:
            return answer_decision(context, text)
        lead, result = metric_answer(intent.metric, request, chosen, results)
        if "answer" not in results:  # what is judged: the submission, never the wording
            submission = submission_of(intent.metric.title, result["answers"], lead)
            return call_decision(context, "answer", "submit_answer", submission, lead)
        text = f"{lead}\n{text}"
        return replace(answer_decision(context, text), result={"text": text, **result})

    def steps(
        self,
        intent: Intent,
        documents: list[dict[str, Any]],
        price_file: dict[str, Any] | None = None,
    ) -> list[tuple[str, str, dict[str, Any], str]]:
        years = _years(intent)
        out: list[tuple[str, str, dict[str, Any], str]] = []
        for d in documents:
            pk, name = d["id"], d["name"]
            if d.get("fiscal_years"):
                out.append(
                    (
                        f"analyse-{pk}",
                        "analyse_financials",
                        {"document_id": pk, **years},
                        f"Computing ratios from {name}.",
                    )
                )
            for n, question in enumerate(intent.questions, start=1):
                out.append(
                    (
                        f"search-{pk}-{n}",
                        "search_document",
                        {"document_id": pk, "query": question, "k": SEARCH_HITS},
                        f"Searching {name} for {question!r}.",
                    )
                )
            if intent.cross_check:
                # A document's own ticker (from its cover); the request's only for a lone one.
                own = d.get("ticker") or (intent.ticker if len(documents) == 1 else "")
                ticker = {"ticker": own} if own else {}
                out.append(
                    (
                        f"check-{pk}",
                        "cross_check",
                        {"document_id": pk, **ticker, **years},
                        f"Cross-checking {name} with SEC XBRL and Yahoo Finance.",
                    )
                )
            if intent.metric is not None and d.get("fiscal_years"):
                part = part_asked(intent.metric, d)
                for statement in sorted(intent.metric.statements):
                    arguments: dict[str, Any] = {"document_id": pk, "statement": statement}
                    if part and STATEMENT_OF.get(intent.metric.name) == statement:
                        arguments |= {"line": intent.metric.name, "part": part}
                    out.append(
                        (
                            f"statements-{pk}-{statement}",
                            "get_statements",
                            arguments,
                            f"Reading the {statement.replace('_', ' ')} of {name}.",
                        )
                    )
            if intent.macro and d.get("fiscal_years"):
                out.append(
                    (
                        f"macro-{pk}",
                        "macro_overlay",
                        {"document_id": pk},
                        f"Comparing {name}'s growth with GDP from FRED.",
                    )
                )
        if price_file is not None:
            out.append(
                (
                    "prices",
                    "price_history",
                    {"document_id": price_file["id"], **years},
                    f"Reading the prices in {price_file['name']}.",
                )
            )
        elif intent.prices and intent.ticker:
            out.append(
                (
                    "prices",
                    "price_history",
                    {"ticker": intent.ticker, **years},
                    f"Reading {intent.ticker}'s price history.",
                )
            )
        plan: dict[str, Any] = {
            "document_ids": [d["id"] for d in documents],
            **years,
            "cross_check": intent.cross_check,
            "prices": intent.prices,
            "macro": intent.macro,
            "valuation": intent.valuation,
            "questions": list(intent.questions),
            "notes": list(intent.unsupported),
        }
        if intent.ticker:
            plan["ticker"] = intent.ticker
        if price_file is not None:
            plan["price_document_id"] = price_file["id"]
        # With no ticker named, the note takes the filing's own (from its cover); when it has
        # none either, the note says so, once.
        out.append(("note", "write_note", plan, "Writing the research note."))
        return out


def _years(intent: Intent) -> dict[str, int]:
    if intent.years is None:
        return {}
    low, high = intent.years
    return {"start_year": low, "end_year": min(high, 2100)}


def _chosen(ready: list[dict[str, Any]], request: str) -> list[dict[str, Any]]:
    """The documents a request names by ticker or company (fuzzy, `match_documents`), or by
    file name; all of them when it names none. A ticker named in the request picks its own
    document, never every one."""
    profiles = {
        n: DocumentProfile(company=str(d.get("company") or ""), ticker=d.get("ticker") or None)
        for n, d in enumerate(ready)
    }
    named = set(match_documents(request, profiles))
    words = request.lower().split()
    named |= {n for n, d in enumerate(ready) if str(d["name"]).lower().split("_")[0] in words}
    return [d for n, d in enumerate(ready) if n in named] or ready


def _no_documents(documents: list[dict[str, Any]]) -> str:
    lines = ["No filing is ready in this workspace yet. " + HELP]
    if any(d.get("kind") == "csv" and d.get("status") == "ready" for d in documents):
        lines.append(
            "Your CSV data files are used for prices: ask, e.g., 'volatility of my prices'."
        )
    for d in documents:
        reason = f": {d['message']}" if d.get("message") else ""
        lines.append(f"- {d['name']} is {d['status']}{reason}")
    return "\n".join(lines)


def _pct(value: Any) -> str:
    return f"{value * 100:.1f}%" if isinstance(value, int | float) else "n/a"


def _passages(results: dict[str, str], documents: list[dict[str, Any]], intent: Intent) -> str:
    """The best passage for each question, with its page, quoted in the answer itself."""
    lines = []
    for d in documents:
        for n, question in enumerate(intent.questions, start=1):
            found = _json(results.get(f"search-{d['id']}-{n}", ""))
            hits = found.get("hits") if isinstance(found, dict) else None
            if not hits:
                continue
            best = hits[0]
            snippet = " ".join(str(best.get("snippet", "")).split())
            if len(snippet) > 280:
                snippet = snippet[:277].rstrip() + "…"
            lines.append(f"- {question} ({d['name']} {best.get('page_label', '')}): “{snippet}”")
    if not lines:
        return ""
    asked = [q for q in intent.questions if q not in DEFAULT_QUESTIONS]
    plain = (
        "\nThese are the passages that bear on your question, with their pages; the offline "
        "planner quotes them and computes from the statements, it does not write an answer from "
        "them (a model server does)."
        if asked and intent.metric is None
        else ""
    )
    return "From the filing:\n" + "\n".join(lines) + plain


def _summary(note: dict[str, Any], intent: Intent) -> str:
    lines = [
        f'I wrote the note "{note["title"]}": {note["url"]} (every number links to its '
        "page or data source)."
    ]
    for a in note.get("analysed", []):
        years = a.get("years") or []
        if not years:
            continue
        latest, ratios = years[0], a["ratios"].get(years[0], {})
        parts = [
            f"{name.replace('_', ' ')} {_pct(ratios[name])}"
            for name in ("gross_margin", "operating_margin", "net_margin", "revenue_growth")
            if name in ratios
        ]
        if "fcf_conversion" in ratios:
            parts.append(f"FCF/net income {ratios['fcf_conversion']:.2f}x")
        lines.append(f"- {a['company']} {latest}: " + (", ".join(parts) or "no ratios computed"))
        if len(years) > 1 and "operating_margin" in ratios:
            first = a["ratios"].get(years[-1], {}).get("operating_margin")
            if first is not None:
                change = (ratios["operating_margin"] - first) * 100
                lines.append(f"  operating margin {years[-1]}→{latest}: {change:+.1f} pp")
    prices = note.get("prices")
    if isinstance(prices, dict):
        lines.append(
            f"- Prices ({prices['prices']}, {prices.get('period', '')}): total return "
            f"{_pct(prices.get('total_return'))}, annualised volatility "
            f"{_pct(prices.get('annualised_volatility'))}, maximum drawdown "
            f"{_pct(prices.get('max_drawdown'))}."
        )
    for check in note.get("cross_checks", []):
        counts = ", ".join(f"{n} {status}" for status, n in sorted(check["counts"].items()))
        lines.append(f"- Cross-check against {check['reference']}: {counts}.")
        for bad in check.get("discrepancies", [])[:5]:
            lines.append(
                f"  discrepancy {bad['metric']} FY{bad['fiscal_year']}: "
                f"{bad.get('explanation') or 'cause unknown'}"
            )
    limits = note.get("limits") or []
    if limits:
        lines.append("What I could not do:")
        lines.extend(f"- {limit}" for limit in limits)
    return "\n".join(lines)


def _json(content: str) -> Any:
    try:
        return json.loads(content)
    except json.JSONDecodeError:
        return None
