"""The background half of an upload: parse the filing, extract its statements, mark it ready."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import tempfile
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError

from agents.storage_files import local_copy
from finance.documents.child import run_child
from finance.documents.data_files import ingest_csv
from finance.documents.ingest import DocumentError, ParsedDocument, cache_load, ingest_html
from finance.models import Document
from finance.reconcile.ixbrl import InlineXbrlError, parse_inline_xbrl
from finance.services.bounds import pdf_bounds, read_budget, setting
from finance.services.documents import cache_dir, max_pages
from finance.services.progress import ProgressReporter, progress_save
from finance.services.rescue import (
    document_claim,
    document_defer,
    document_release,
    heartbeat,
    max_attempts,
    owner_is_busy,
)
from finance.statements.cache import stored_statements
from finance.statements.inline_xbrl import statements_from_inline_xbrl

logger = logging.getLogger(__name__)
INTERNAL_ERROR = "processing failed because of an internal error; delete it and upload it again"
# Share of the progress bar per stage: reading pages is fast, the statement tables are slower.
READ_END = 0.7


def statements_of(data: bytes, *, name: str) -> dict[str, Any]:
    """Statements of a PDF filing: kept from before, or extracted in a bounded child."""
    sha = hashlib.sha256(data).hexdigest()
    stored = stored_statements(sha, name=name, cache_dir=cache_dir("statements"))
    if stored is not None:
        return stored
    job = {
        "command": "statements",
        "name": name,
        "statements": str(cache_dir("statements")),
        "bounds": pdf_bounds().to_dict(),
    }
    with tempfile.NamedTemporaryFile(suffix=".pdf") as copy:
        copy.write(data)
        copy.flush()
        out = run_child(
            {**job, "path": copy.name},
            budget=read_budget(max_pages()),
            what="extracting the statements",
        )
    return dict(json.loads(out))


def html_statements(data: bytes, parsed: ParsedDocument, *, name: str) -> dict[str, Any] | None:
    """Statements of an SEC HTML filing from its inline XBRL (None for plain HTML)."""
    try:
        facts = parse_inline_xbrl(data)
    except InlineXbrlError:
        return None
    return statements_from_inline_xbrl(
        facts,
        parsed.pages,
        name=name,
        company=parsed.company,
        statement_pages=parsed.statement_pages,
    )


def parse(
    document: Document, data: bytes, reporter: ProgressReporter
) -> tuple[ParsedDocument, dict[str, Any] | None]:
    """The document's pages and sections, and its statements where a filing has them."""
    if document.kind == "pdf":
        return read_pdf(document, data, reporter)
    if document.kind == "csv":
        reporter.report(0.05, "Reading the CSV file", force=True)
        return ingest_csv(data, cache_dir=cache_dir("documents")), None
    reporter.report(0.05, "Reading the HTML filing", force=True)
    parsed = ingest_html(data, cache_dir=cache_dir("documents"))
    reporter.report(READ_END + 0.05, "Extracting statements", force=True)
    return parsed, html_statements(data, parsed, name=document.name)


def read_pdf(
    document: Document, data: bytes, reporter: ProgressReporter
) -> tuple[ParsedDocument, dict[str, Any]]:
    """Pages and statements of a PDF filing, from the caches or read in a bounded child: a file
    that passes its bounds (pdf_bounds) or its child's memory or CPU fails with the reason."""
    sha = hashlib.sha256(data).hexdigest()
    parsed = cache_load(cache_dir("documents"), sha)
    statements = stored_statements(sha, name=document.name, cache_dir=cache_dir("statements"))
    pages = reporter.pages(0.02, READ_END)
    if parsed is not None and statements is not None:  # read before: no child to start
        pages(parsed.page_count, parsed.page_count)
        reporter.report(READ_END + 0.05, "Extracting statements", force=True)
        return parsed, statements

    def on_event(line: str) -> None:
        kind, _, rest = line.partition(" ")
        if kind == "progress":
            done, total = rest.split()
            pages(int(done), int(total))
        elif kind == "stage":
            reporter.report(READ_END + 0.05, "Extracting statements", force=True)

    job = {
        "command": "read",
        "name": document.name,
        "documents": str(cache_dir("documents")),
        "statements": str(cache_dir("statements")),
        "max_pages": max_pages(),
        "bounds": pdf_bounds().to_dict(),
        "cpu_base": setting("FINANCE_PARSE_CPU_SECONDS_BASE"),
        "cpu_per_page": setting("FINANCE_PARSE_CPU_SECONDS_PER_PAGE"),
    }
    with local_copy(document.file) as path:
        out = run_child(
            {**job, "path": str(path)},
            budget=read_budget(max_pages()),
            what="reading the file",
            on_event=on_event,
        )
    result = json.loads(out)
    return ParsedDocument.from_dict(result["document"]), dict(result["statements"])


def document_ingest(*, document_id: int) -> str:
    """Ingest one document to `ready`, or `failed` with the reason; never half-saved."""
    document = Document.objects.filter(pk=document_id).first()
    if document is None:  # deleted before its turn came
        return "missing"
    if document.status != Document.Status.PROCESSING:
        return str(document.status)  # already done: a redelivered task changes nothing
    if owner_is_busy(document):
        document_defer(document_id=document_id)
        return "deferred"  # the owner's other documents first; this worker takes the next task
    if not document_claim(document_id=document_id):
        return "busy"  # another worker is reading it; the sweeper resends it if that one dies
    document.refresh_from_db()
    if document.attempts > max_attempts():
        document_fail(document, gave_up(document.attempts - 1))
        return "failed"
    try:
        with heartbeat(document_id=document_id):
            return _ingest(document)
    except DatabaseError:
        with contextlib.suppress(DatabaseError):
            document_release(document_id=document_id)
        raise  # transient: the task retries


def gave_up(stops: int) -> str:
    return (
        f"reading the file stopped its worker {stops} times before it finished (the worker "
        "was killed, perhaps for lack of memory); delete it and upload a smaller file"
    )


def _ingest(document: Document) -> str:
    reporter = ProgressReporter(document)
    try:
        with document.file.open("rb") as handle:
            data = handle.read()
        reporter.report(0.01, "Opening the filing", force=True)
        parsed, statements = parse(document, data, reporter)
    except DocumentError as error:
        document_fail(document, str(error))
        return "failed"
    except DatabaseError:
        raise  # transient: the task retries, the document stays processing
    except SoftTimeLimitExceeded:
        limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
        document_fail(document, f"reading the file ran past the {limit:g} s time limit")
        return "failed"
    except Exception:
        logger.exception("ingesting document %s failed", document.pk)
        document_fail(document, INTERNAL_ERROR)
        return "failed"
    progress_save(
        document,
        fields={
            "status": Document.Status.READY,
            "progress": 1.0,
            "message": "",
            "pages": parsed.page_count,
            "company": parsed.company[:200],
            "title": (parsed.title or document.name)[:300],
            "sections": sections_of(document, parsed),
            "statements": statements,
        },
    )
    return "ready"


def sections_of(document: Document, parsed: ParsedDocument) -> dict[str, Any]:
    """The parsed sections, and for a filing its profile (type, company, ticker, period)."""
    if document.kind == "csv":
        return dict(parsed.sections)
    return {**parsed.sections, "profile": parsed.profile.to_dict()}


def document_fail(document: Document, reason: str) -> None:
    """Mark failed with the reason and keep nothing of it but the row that says so."""
    if document.file:
        document.file.delete(save=False)
    progress_save(
        document,
        fields={
            "status": Document.Status.FAILED,
            "progress": 0.0,
            "message": reason[:500],
            "file": "",
            "pages": 0,
            "company": "",
            "title": "",
            "sections": {},
            "statements": None,
        },
    )
