"""Did the run retrieve the evidence? Read from what its `search_document` calls returned.

The verifier does not search by itself: it reads the run's own `tool.call` events (which
document, which query) and the matching `tool.result` events (the pages, best first), so it
judges what the agent actually had in front of it. A run that never searched the document
fails, whatever the product's search would have found.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from agents.models import Run
from agents.selectors import shown_events
from finance.evaluation.task_documents import judged, task_document

SEARCH_TOOL = "search_document"
_PAGE = re.compile(r'"page":\s*(\d+)')


@dataclass(frozen=True)
class Search:
    document_id: int
    query: str
    pages: tuple[int, ...]  # best first, 0-indexed


def run_searches(run: Run) -> list[Search]:
    """Every document search of a run, in order, with the pages it returned."""
    events = shown_events(run_id=run.pk, types=["tool.call", "tool.result"])
    calls: dict[str, dict[str, Any]] = {}
    out = []
    for event in events:
        payload = event.payload or {}
        if payload.get("name") != SEARCH_TOOL:
            continue
        if event.type == "tool.call":
            calls[str(payload.get("id"))] = dict(payload.get("arguments") or {})
            continue
        arguments = calls.get(str(payload.get("id")), {})
        if not payload.get("ok", True) or "document_id" not in arguments:
            continue
        out.append(
            Search(
                int(arguments["document_id"]),
                str(arguments.get("query", "")),
                result_pages(str(payload.get("content", ""))),
            )
        )
    return out


def result_pages(content: str) -> tuple[int, ...]:
    """The hit pages of a search result, best first (from the JSON, or its cut preview)."""
    try:
        hits = json.loads(content).get("hits") or []
        return tuple(int(hit["page"]) for hit in hits)
    except (ValueError, AttributeError, KeyError, TypeError):
        return tuple(int(page) for page in _PAGE.findall(content))


@judged
def evidence_retrieved(context: VerifierContext, params: dict[str, Any]) -> Verdict:
    """An evidence page is among the top `k` pages a search of the document returned.

    Params: `document`, `pages` (0-indexed evidence pages), `k` (default 5). Passing needs one
    evidence page found; the score is the share of evidence pages found.
    """
    document = task_document(context, str(params["document"]))
    evidence = sorted({int(page) for page in params["pages"]})
    k = int(params.get("k", 5))
    searches = [s for s in run_searches(context.run) if s.document_id == document.pk]
    if not searches:
        return Verdict.fail(f"the run did not search {document.name}", evidence=evidence)
    retrieved = sorted({page for search in searches for page in search.pages[:k]})
    found = [page for page in evidence if page in retrieved]
    outputs: dict[str, Any] = {
        "evidence": evidence,
        "retrieved": retrieved,
        "queries": [search.query for search in searches],
    }
    if not found:
        shown = ", ".join(f"p. {p + 1}" for p in retrieved) or "nothing"
        wanted = ", ".join(f"p. {p + 1}" for p in evidence)
        return Verdict.fail(
            f"evidence {wanted} not among the top {k} of {len(searches)} search(es): {shown}",
            **outputs,
        )
    return Verdict(True, score=len(found) / len(evidence), outputs={**outputs, "found": found})
