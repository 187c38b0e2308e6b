from __future__ import annotations

import pytest

from finance.documents.ingest import ParsedDocument, ingest_pdf
from tests.finance.documents.helpers import FILINGS, filing_pdfs, require


@pytest.fixture(scope="session")
def doc_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("doc-cache")


@pytest.fixture(scope="session")
def parsed(doc_cache):
    """name -> ParsedDocument for every shared 10-K PDF, ingested once per session."""
    require(FILINGS)
    docs: dict[str, ParsedDocument] = {}

    def get(name: str) -> ParsedDocument:
        if name not in docs:
            path = require(FILINGS / f"{name}.pdf")
            docs[name] = ingest_pdf(path.read_bytes(), cache_dir=doc_cache, workers=1)
        return docs[name]

    return get


@pytest.fixture(scope="session")
def all_filings():
    pdfs = filing_pdfs()
    if not pdfs:
        pytest.skip(f"no 10-K PDFs in {FILINGS} (set SHARED_DATA to the data folder)")
    return [p.stem for p in pdfs]
