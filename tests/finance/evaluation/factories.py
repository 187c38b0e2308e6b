"""Small synthetic filings for the finance verifiers: a document with page texts and statements,
and a finished run with a submitted answer and search events."""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import Any

from django.core.files.base import ContentFile
from django.utils import timezone

from agents.evaluation.spec import Task, Turn
from agents.evaluation.verdicts import VerifierContext
from agents.models import Event, Run
from finance.documents.ingest import ParsedDocument, cache_store
from finance.models import Document
from finance.services.documents import cache_dir

INCOME_PAGE = """Consolidated Statements of Income
(In millions) 2020 2019
Revenue $ 2,000 $ 1,800
Net income 150 120
"""
BALANCE_PAGE = """Consolidated Balance Sheets
(In millions) 2020 2019
Cash and cash equivalents $ 120 $ 100
Property and equipment, net 500 460
Total assets $ 1,000 $ 900
Total liabilities 600 560
Total shareholders' equity 390 335
Noncontrolling interests 10 5
Total equity 400 340
Total liabilities and equity $ 1,000 $ 900
"""
CASH_FLOW_PAGE = """Consolidated Statements of Cash Flows
(In millions) 2020 2019
Net cash provided by operating activities 200 150
Net cash used in investing activities (120 ) (100 )
Net cash used in financing activities (65) (40)
Effect of exchange rate changes on cash 5 (2)
Net increase in cash and cash equivalents 20 8
Cash and cash equivalents at end of year $ 120 $ 100
"""
_UPLOADS = itertools.count()
PAGES = [
    INCOME_PAGE,
    BALANCE_PAGE,
    CASH_FLOW_PAGE,
    "Item 1A. Risk Factors\nCompetition is intense.",
]


def cell(value: float, page: int) -> dict[str, Any]:
    return {"value": value, "page": page, "bbox": [10.0, 10.0, 20.0, 20.0]}


def line(page: int, **years: float) -> dict[str, Any]:
    return {year: cell(value, page) for year, value in years.items()}


def statements(**changes: Any) -> dict[str, Any]:
    """Canonical statements of the synthetic filing (FY2020, FY2019); `changes` replace lines."""
    data: dict[str, Any] = {
        "document": "SYNTH_2020_10K.pdf",
        "company": "Synth",
        "currency": "USD",
        "unit": "millions",
        "fiscal_years": ["FY2020", "FY2019"],
        "income_statement": {
            "revenue": line(0, FY2020=2000.0, FY2019=1800.0),
            "net_income": line(0, FY2020=150.0, FY2019=120.0),
        },
        "balance_sheet": {
            "cash_and_equivalents": line(1, FY2020=120.0, FY2019=100.0),
            "ppe_net": line(1, FY2020=500.0, FY2019=460.0),
            "total_assets": line(1, FY2020=1000.0, FY2019=900.0),
            "total_liabilities": line(1, FY2020=600.0, FY2019=560.0),
            "shareholders_equity": line(1, FY2020=390.0, FY2019=335.0),
        },
        "cash_flow": {
            "operating_cash_flow": line(2, FY2020=200.0, FY2019=150.0),
            "investing_cash_flow": line(2, FY2020=-120.0, FY2019=-100.0),
            "financing_cash_flow": line(2, FY2020=-65.0, FY2019=-40.0),
        },
    }
    for path, value in changes.items():
        statement, key = path.split("__")
        if value is None:
            data[statement].pop(key, None)
        else:
            data[statement][key] = value
    return data


def make_document(
    workspace: Any, name: str = "SYNTH_2020_10K.pdf", pages: list[str] | None = None, **fields: Any
) -> Document:
    """A ready document whose page texts sit in the ingestion cache, as after a real upload."""
    pages = PAGES if pages is None else pages
    data = b"%PDF-1.4 synthetic " + json.dumps([next(_UPLOADS), name, pages]).encode()
    sha = hashlib.sha256(data).hexdigest()
    cache_store(cache_dir("documents"), ParsedDocument(sha, list(pages), len(pages)))
    document = Document(
        workspace=workspace,
        name=name,
        sha256=sha,
        pages=len(pages),
        statements=fields.pop("statements", statements()),
        **fields,
    )
    document.file.save(name, ContentFile(data), save=False)
    document.save()
    return document


def make_context(
    workspace: Any,
    documents: dict[str, Document],
    *,
    prompt: str = "What were total assets in FY2020?",
    result: Any = None,
    events: list[tuple[str, dict[str, Any]]] = (),  # type: ignore[assignment]
) -> VerifierContext:
    """A finished run of one turn in `workspace`, and the context its checks see."""
    run = Run.objects.create(
        workspace=workspace, prompt=prompt, status="succeeded", result=result, message="done"
    )
    for seq, (kind, payload) in enumerate(events, start=1):
        Event.objects.create(run=run, seq=seq, type=kind, ts=timezone.now(), payload=payload)
    task = Task(id="t", suite="finance", kind="finance", turns=(Turn(prompt=prompt),))
    inputs = {"documents": {name.rsplit(".", 1)[0]: d.pk for name, d in documents.items()}}
    return VerifierContext(task=task, workspace=workspace, runs=[run], turn=1, inputs=inputs)


def answer_events(document: Document, **answer: Any) -> list[tuple[str, dict[str, Any]]]:
    """A run's accepted `submit_answer` call carrying one answer (what the verifiers read)."""
    entry = {
        "question": "What were total assets in FY2020?",
        "metric": "total assets",
        "value": 1000.0,
        "unit": "USD millions",
        "period": "FY2020",
        "document_id": document.pk,
        "page": 1,
        "label": "total assets FY2020",
        **answer,
    }
    return submission_events({"answers": [entry]})


def submission_events(
    arguments: dict[str, Any], *, ok: bool = True, call_id: str = "answer-1"
) -> list[tuple[str, dict[str, Any]]]:
    call = {"id": call_id, "name": "submit_answer", "arguments": arguments}
    result = {"id": call_id, "name": "submit_answer", "ok": ok, "content": "{}"}
    return [("tool.call", call), ("tool.result", result)]


def search_events(document: Document, *pages: int) -> list[tuple[str, dict[str, Any]]]:
    hits = [{"page": page, "page_label": f"p. {page + 1}", "snippet": "..."} for page in pages]
    arguments = {"document_id": document.pk, "query": "risk factors", "k": 3}
    return [
        ("tool.call", {"id": "search-1", "name": "search_document", "arguments": arguments}),
        (
            "tool.result",
            {
                "id": "search-1",
                "name": "search_document",
                "ok": True,
                "content": json.dumps({"document": document.name, "hits": hits}),
            },
        ),
    ]
