"""A task's documents as the verifiers need them: the row, its statements, its page texts.

Loads are kept in the task's `memo`, so the checks of one task read each document once.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from agents.evaluation.verdicts import Verdict, VerifierContext
from finance.models import Document


class CheckError(Exception):
    """A check cannot judge (no such document, not ingested...): the verdict fails with this."""


def judged(
    verify: Callable[[VerifierContext, dict[str, Any]], Verdict],
) -> Callable[[VerifierContext, dict[str, Any]], Verdict]:
    """Turn a CheckError raised by a verifier into a failed verdict with its message."""

    @wraps(verify)
    def run(context: VerifierContext, params: dict[str, Any]) -> Verdict:
        try:
            return verify(context, params)
        except CheckError as error:
            return Verdict.fail(str(error))

    return run


def task_document(context: VerifierContext, name: str) -> Document:
    """The task's document `name` (as `prepare` returned it), ingested; CheckError otherwise."""
    ids = (context.inputs or {}).get("documents") or {}
    if name not in ids:
        raise CheckError(f"the task has no document {name!r} (inputs: {sorted(ids)})")
    document = Document.objects.filter(pk=ids[name], workspace=context.workspace).first()
    if document is None:
        raise CheckError(f"document {name} is no longer in the task's workspace")
    if document.status != Document.Status.READY:
        raise CheckError(f"document {name} is {document.status}: {document.message}")
    return document


def statements_of(document: Document) -> dict[str, Any]:
    """The canonical statements kept at ingestion ({} when the document has none)."""
    return dict(document.statements or {})


def page_texts(context: VerifierContext, document: Document) -> list[str]:
    """The document's page texts, from the ingestion cache (loaded once per task)."""
    key = f"finance.pages.{document.pk}"
    if key not in context.memo:
        from finance.research.sources import parsed

        context.memo[key] = list(parsed(document).pages)
    pages: list[str] = context.memo[key]
    return pages


def document_id_names(context: VerifierContext) -> dict[int, str]:
    """Document id -> the name the suite calls it by."""
    ids = (context.inputs or {}).get("documents") or {}
    return {int(pk): str(name) for name, pk in ids.items()}
