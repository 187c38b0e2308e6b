"""Finance services: uploading and ingesting filings, their statements and their pages."""

from finance.services.documents import (
    UploadError,
    document_delete,
    document_statements,
    document_upload,
    max_pages,
    max_upload_bytes,
)
from finance.services.ingestion import document_ingest
from finance.services.pages import PageError, page_info, page_png

__all__ = [
    "PageError",
    "UploadError",
    "document_delete",
    "document_ingest",
    "document_statements",
    "document_upload",
    "max_pages",
    "max_upload_bytes",
    "page_info",
    "page_png",
]
