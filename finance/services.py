"""Uploading documents and deriving their canonical statements."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.text import get_valid_filename

from agents.models import Workspace
from finance.documents.ingest import DocumentError, ingest_html, ingest_pdf
from finance.models import Document
from finance.statements import extract_statements

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_PAGES = 1000


def _cache_dir() -> Path:
    return Path(settings.VAR_DIR) / "cache" / "documents"


def document_upload(*, workspace: Workspace, data: bytes, filename: str) -> tuple[Document, bool]:
    """Parse and store a filing; the same bytes again return the stored document (created=False).

    Raises DocumentError with the reason for files that cannot be read; nothing is saved then.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise DocumentError(f"the file is larger than {MAX_UPLOAD_BYTES // 2**20} MB")
    sha = hashlib.sha256(data).hexdigest()
    existing = Document.objects.filter(workspace=workspace, sha256=sha).first()
    if existing is not None:
        return existing, False
    suffix = Path(filename).suffix.lower()
    if suffix in (".htm", ".html"):
        parsed, kind = ingest_html(data), "html"
    else:
        parsed = ingest_pdf(data, cache_dir=_cache_dir(), max_pages=MAX_PAGES)
        kind = "pdf"
    name = get_valid_filename(Path(filename).name) or f"document.{kind}"
    with transaction.atomic():
        document = Document(
            workspace=workspace,
            name=name,
            sha256=sha,
            kind=kind,
            pages=parsed.page_count,
            sections=parsed.to_dict().get("sections") or {},
        )
        document.file.save(name, ContentFile(data), save=False)
        document.save()
    return document, True


def document_statements(*, document: Document) -> dict[str, Any]:
    """The canonical statements of a PDF filing, extracted once and kept."""
    if document.statements is None:
        if document.kind != "pdf":
            raise DocumentError("statements are extracted from PDF filings; this is HTML")
        with document.file.open("rb") as handle:
            data = handle.read()
        document.statements = extract_statements(data, name=document.name).to_dict()
        document.save(update_fields=["statements"])
    return dict(document.statements)
