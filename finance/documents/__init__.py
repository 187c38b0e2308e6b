"""Long-document ingestion for 10-K filings: fast page text, a content-hash cache, sections, search.

Plain Python (no Django): `ingest.ingest_pdf` / `ingest.ingest_html` turn bytes into a
`ParsedDocument`; `sections.locate_sections` finds the 10-K Items and the three primary
statements by page; `search.PageIndex` ranks pages with BM25.
"""

from finance.documents.ingest import DocumentError, ParsedDocument, ingest_html, ingest_pdf

__all__ = ["DocumentError", "ParsedDocument", "ingest_html", "ingest_pdf"]
