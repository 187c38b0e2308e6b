"""Finance services: uploading and ingesting filings, their statements and their pages.

`finance.services.ingestion` (the worker's half: parsing, pdfplumber, XBRL) is not imported
here, so web processes do not load it.
"""

from finance.services.documents import (
    UploadError,
    document_delete,
    document_statements,
    document_upload,
    max_pages,
    max_upload_bytes,
)
from finance.services.pages import PageError, page_info, page_png

__all__ = [
    "PageError",
    "UploadError",
    "document_delete",
    "document_statements",
    "document_upload",
    "max_pages",
    "max_upload_bytes",
    "page_info",
    "page_png",
]
