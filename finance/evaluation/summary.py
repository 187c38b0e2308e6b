"""What the harness records besides verdicts: key outputs, leftovers, and the environment."""

from __future__ import annotations

from importlib import metadata
from typing import Any

from django.conf import settings

from agents.evaluation.verdicts import VerifierContext
from agents.models import Workspace
from finance.evaluation.answers import AnswerError, run_answers
from finance.evaluation.identities import cells
from finance.evaluation.statement_checks import CORE_LINES
from finance.evaluation.task_documents import document_id_names
from finance.models import Document, Note

PACKAGES = ("pdfplumber", "pypdfium2", "bm25s", "yfinance", "pandas")


def key_outputs(context: VerifierContext) -> dict[str, Any]:
    """Answer values and statement totals per year, by document name (no ids: they differ)."""
    names = document_id_names(context)
    out: dict[str, Any] = {}
    try:
        answers = run_answers(context.run)
    except AnswerError:
        answers = []
    if answers:
        out["answers"] = [
            {
                "value": round(answer.value, 6),
                "unit": answer.unit,
                "document": names.get(answer.document_id, "?"),
                "page": answer.page,
            }
            for answer in answers
        ]
    documents = Document.objects.filter(workspace=context.workspace, pk__in=list(names))
    out["documents"] = {
        names[document.pk]: _totals(document) for document in documents.order_by("name")
    }
    return out


def _totals(document: Document) -> dict[str, Any]:
    statements = document.statements or {}
    totals: dict[str, Any] = {
        "status": document.status,
        "fiscal_years": statements.get("fiscal_years", []),
    }
    for statement, key in CORE_LINES:
        values = cells(statements, statement, key)
        if values:
            totals[key] = {year: round(value, 3) for year, value in sorted(values.items())}
    return totals


def leftovers(workspace: Workspace) -> list[str]:
    """Finance objects already in a workspace: a fresh task's workspace has none."""
    found = [
        f"document {name}"
        for name in Document.objects.filter(workspace=workspace).values_list("name", flat=True)
    ]
    found += [
        f"note {title}"
        for title in Note.objects.filter(workspace=workspace).values_list("title", flat=True)
    ]
    return found


def environment() -> dict[str, Any]:
    """Library versions the finance results depend on, and where market data comes from."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "absent"
    recorded = str(getattr(settings, "FINANCE_RECORDED_DIR", "") or "")
    providers = f"recorded responses from {recorded}" if recorded else "live providers (network)"
    return {"packages": versions, "providers": providers, "recorded_dir": recorded}
