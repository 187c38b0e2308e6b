"""Accepting an upload (cheap checks only, then the background task), deleting, statements."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import get_valid_filename

from agents.models import Workspace
from agents.services.queueing import enqueue_on_commit
from agents.services.quotas import check_stored_bytes
from finance.documents.data_files import read_data_csv
from finance.documents.ingest import DocumentError, check_pdf_bytes, pdf_error
from finance.documents.pdf_bounds import check_page_sizes
from finance.models import Document
from finance.services.bounds import pdf_bounds
from finance.services.locks import PDFIUM_LOCK

KINDS = {".pdf": "pdf", ".htm": "html", ".html": "html", ".csv": "csv"}
DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024
DEFAULT_MAX_PAGES = 1000


class UploadError(DocumentError):
    """An upload refused before anything is stored; the message says why."""


class NotReady(DocumentError):
    """The document is still processing, or failed; the message says which."""


def max_upload_bytes() -> int:
    return int(getattr(settings, "FINANCE_MAX_UPLOAD_BYTES", DEFAULT_MAX_UPLOAD_BYTES))


def max_pages() -> int:
    return int(getattr(settings, "FINANCE_MAX_PAGES", DEFAULT_MAX_PAGES))


def cache_dir(name: str) -> Path:
    return Path(settings.VAR_DIR) / "cache" / name


def upload_kind(filename: str) -> str:
    """ "pdf", "html" or "csv" from the file name; anything else is refused."""
    suffix = Path(filename).suffix.lower()
    if suffix not in KINDS:
        raise UploadError(
            f"unsupported file type {suffix or '(none)'!r}: upload a 10-K as .pdf or SEC "
            ".htm/.html, or your own data as .csv"
        )
    return KINDS[suffix]


def check_upload(data: bytes, kind: str) -> None:
    """Refuse what ingestion would refuse anyway, in milliseconds, before anything is stored."""
    if not data:
        raise UploadError("the file is empty (0 bytes)")
    limit = max_upload_bytes()
    if len(data) > limit:
        raise UploadError(f"the file is larger than {limit // 2**20} MB ({len(data):,} bytes)")
    if kind == "csv":
        try:
            read_data_csv(data)
        except DocumentError as error:
            raise UploadError(str(error)) from error
        return
    if kind == "html":
        head = data[:4096].lstrip().lower()
        if head.startswith(b"%pdf") or b"<" not in head:
            raise UploadError("the file is not HTML (no markup in its first 4 KB)")
        return
    try:
        check_pdf_bytes(data)
    except DocumentError as error:
        raise UploadError(str(error)) from error
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    with PDFIUM_LOCK:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as error:
            raise UploadError(str(pdf_error(error))) from error
        try:
            pages = len(pdf)
            if pages > max_pages():
                raise UploadError(f"the PDF has {pages} pages; the limit is {max_pages()}")
            check_page_sizes(pdf, pdf_bounds())  # reads each page's MediaBox, not its content
        except DocumentError as error:
            raise UploadError(str(error)) from error
        finally:
            pdf.close()
    if pages == 0:
        raise UploadError("the PDF has no pages")


def document_upload(*, workspace: Workspace, data: bytes, filename: str) -> tuple[Document, bool]:
    """Store a filing and queue its ingestion; the same bytes again return the stored document.

    Raises UploadError for a file that cannot be a filing, and QuotaExceeded when it would take
    the owner past their stored-bytes quota; nothing is stored then. A previous failed upload of
    the same bytes is replaced by a fresh attempt.
    """
    kind = upload_kind(filename)
    check_upload(data, kind)
    sha = hashlib.sha256(data).hexdigest()
    existing = Document.objects.filter(workspace=workspace, sha256=sha).first()
    if existing is not None:
        if existing.status != Document.Status.FAILED:
            return existing, False
        document_delete(document=existing)
    check_stored_bytes(user=workspace.owner, adding=len(data))
    name = get_valid_filename(Path(filename).name) or f"document.{kind}"
    document = Document(
        workspace=workspace,
        name=name[:255],
        sha256=sha,
        kind=kind,
        status=Document.Status.PROCESSING,
        progress=0.0,
        message="Queued",
    )
    document.file.save(name, ContentFile(data), save=False)
    try:
        with transaction.atomic():
            document.save()
    except IntegrityError:  # the same bytes uploaded twice at once: keep the first
        document.file.delete(save=False)
        return Document.objects.get(workspace=workspace, sha256=sha), False
    document_enqueue(document_id=document.pk)
    return document, True


def document_enqueue(*, document_id: int, countdown: float | None = None) -> None:
    """Ingest in the background once the row is committed (the task takes the id only), not
    before `countdown` seconds where given; a send that fails leaves it marked never sent, for
    the sweeper's next pass (services/rescue.py)."""
    Document.objects.filter(pk=document_id).update(enqueued_at=timezone.now())
    enqueue_on_commit(
        "finance.ingest_document",
        document_id,
        on_failure=lambda: Document.objects.filter(pk=document_id).update(enqueued_at=None),
        countdown=countdown,
    )


def document_delete(*, document: Document) -> None:
    """Remove a document, its stored file and, unless another upload shares them, its caches."""
    sha = document.sha256
    if document.file:
        document.file.delete(save=False)
    document.delete()
    if not Document.objects.filter(sha256=sha).exists():
        shutil.rmtree(cache_dir("pages") / sha, ignore_errors=True)
        for kept in ("documents", "statements"):  # parsed text and statements of these bytes
            (cache_dir(kept) / f"{sha}.json").unlink(missing_ok=True)


def document_ready(document: Document) -> None:
    """Raise NotReady unless the document has been ingested."""
    if document.status == Document.Status.PROCESSING:
        raise NotReady(f"the document is still being processed ({round(document.progress * 100)}%)")
    if document.status == Document.Status.FAILED:
        raise NotReady(f"the document could not be processed: {document.message}")


FILING_TYPES = ("10-K", "10-Q")
STATEMENT_KEYS = ("income_statement", "balance_sheet", "cash_flow")


def document_statements(*, document: Document) -> dict[str, Any]:
    """The canonical statements of a filing, extracted at ingestion (PDFs: or now, once).

    A CSV data file, or a PDF that is no filing and prints no statements, is answered labelled
    rather than refused: `kind`, `doc_type` ("data file", "other", ...), `applicable: false` and
    the reason in `note`, with empty statements. A filing's answer is its statements as stored."""
    document_ready(document)
    if document.kind == "csv":
        return not_applicable(
            document,
            doc_type="data file",
            note=f"{document.name} is a CSV data file, not a filing: financial statements do "
            "not apply (its rows are on its pages)",
        )
    if document.statements is None:
        from finance.services.ingestion import statements_of

        if document.kind != "pdf":
            raise DocumentError(
                "this HTML filing has no inline XBRL financial facts to read statements from; "
                "upload the PDF or the filing's inline-XBRL HTML from EDGAR"
            )
        with document.file.open("rb") as handle:
            data = handle.read()
        document.statements = statements_of(data, name=document.name)
        document.save(update_fields=["statements"])
    statements = dict(document.statements)
    found = any(statements.get(key) for key in STATEMENT_KEYS)
    doc_type = str(statements.get("doc_type") or profile_of(document).get("doc_type") or "other")
    if not found and doc_type not in FILING_TYPES:
        label = "a financial filing" if doc_type == "other" else "a filing with statements"
        return not_applicable(
            document,
            doc_type=doc_type,
            note=f"{document.name} is not {label} (document type: {doc_type}): it prints no "
            "income statement, balance sheet or cash flow statement, so none apply",
            base=statements,
        )
    return statements


def profile_of(document: Document) -> dict[str, Any]:
    """The profile ingestion read off the document's cover (`sections["profile"]`), or {}."""
    profile = (document.sections or {}).get("profile")
    return dict(profile) if isinstance(profile, dict) else {}


def not_applicable(
    document: Document, *, doc_type: str, note: str, base: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A statements answer for a document that has none to have: labelled, with the reason."""
    profile = profile_of(document)
    return {
        **(base or {}),
        "document": document.name,
        "kind": document.kind,
        "doc_type": doc_type,
        "company": (base or {}).get("company") or document.company or profile.get("company", ""),
        "ticker": (base or {}).get("ticker") or profile.get("ticker"),
        "applicable": False,
        "note": note,
        "fiscal_years": [],
        **{key: {} for key in STATEMENT_KEYS},
        "validation": {},
        "unverified": {},
    }
