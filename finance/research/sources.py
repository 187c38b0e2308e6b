"""The workspace's documents and the data providers, as the research code needs them (Django)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from agents.models import Workspace
from finance.documents.ingest import ParsedDocument, ingest_html, ingest_pdf
from finance.documents.search import PageIndex, snippet, tokenize
from finance.documents.sections import squash
from finance.models import Document
from finance.reconcile import InlineXbrlDocument, parse_inline_xbrl
from finance.research.findings import Passage
from finance.services.documents import cache_dir
from finance.statements import extract_statements


class ResearchError(Exception):
    """Something the research cannot do, in words fit for the user and the agent."""


def ready_documents(workspace: Workspace, ids: Sequence[int] = ()) -> list[Document]:
    found = Document.objects.filter(workspace=workspace, status=Document.Status.READY)
    if ids:
        found = found.filter(pk__in=list(ids))
    documents = list(found.order_by("created_at"))
    missing = sorted(set(ids) - {d.pk for d in documents})
    if missing:
        raise ResearchError(
            f"no ready document with id {', '.join(map(str, missing))} in this workspace"
        )
    return documents


def document_bytes(document: Document) -> bytes:
    if not document.file:
        raise ResearchError(f"{document.name} has no stored file")
    with document.file.open("rb") as handle:
        return bytes(handle.read())


def parsed(document: Document) -> ParsedDocument:
    """Page texts and sections (from the ingestion cache; parsed again only if it was cleared)."""
    return _parsed(document.pk, document.sha256, document.kind, document.file.name)


@lru_cache(maxsize=8)
def _parsed(pk: int, sha256: str, kind: str, file_name: str) -> ParsedDocument:
    document = Document.objects.get(pk=pk)
    data = document_bytes(document)
    if kind == "html":
        return ingest_html(data, cache_dir=cache_dir("documents"))
    return ingest_pdf(data, cache_dir=cache_dir("documents"))


@lru_cache(maxsize=8)
def _index(pk: int, sha256: str) -> PageIndex:
    document = Document.objects.get(pk=pk)
    return PageIndex.for_document(parsed(document))


def item_pages(document: Document, query: str) -> range | None:
    """The pages of the 10-K Item a query names ("risk factors" -> Item 1A), if any."""
    wanted = squash(query)
    if len(wanted) < 5:
        return None
    for span in (document.sections or {}).get("items", []):
        if wanted in squash(str(span.get("title", ""))):
            return range(int(span["start_page"]), int(span["end_page"]) + 1)
    return None


def search(document: Document, query: str, k: int = 3) -> list[Passage]:
    """The best pages for a query; within the 10-K Item it names when it names one."""
    index = _index(document.pk, document.sha256)
    within = item_pages(document, query)
    if within is None:
        hits = index.search(query, k=k)
    else:
        hits = index.search(query, k=k, within=within)
        if not hits:
            start = within.start
            hits = [(start, 0.0, snippet(index.pages[start], tokenize(query)))]
    return [Passage(document.pk, document.name, page, text, query) for page, _, text in hits]


def inline_xbrl(document: Document) -> InlineXbrlDocument | None:
    """The filing's inline XBRL facts (SEC HTML filings only), parsed once per content."""
    if document.kind != "html":
        return None
    return _inline_xbrl(document.pk, document.sha256)


@lru_cache(maxsize=8)
def _inline_xbrl(pk: int, sha256: str) -> InlineXbrlDocument | None:
    try:
        return parse_inline_xbrl(document_bytes(Document.objects.get(pk=pk)))
    except ValueError:
        return None


def identify(document: Document, hint: str = "") -> tuple[str, int | None]:
    """(ticker, CIK) of a document's company: the person's hint, else the filing's own XBRL."""
    ticker, cik = hint.strip().upper(), None
    facts = inline_xbrl(document)
    if facts is not None:
        ticker = ticker or facts.dei.get("TradingSymbol", "").strip().upper()
        key = facts.dei.get("EntityCentralIndexKey", "").strip()
        cik = int(key) if key.isdigit() else None
    return ticker, cik


def statements(document: Document) -> dict[str, Any] | None:
    """Canonical statements of a PDF filing (kept at ingestion; extracted now if they were not)."""
    if document.statements is None and document.kind == "pdf":
        document.statements = extract_statements(
            document_bytes(document), name=document.name
        ).to_dict()
        document.save(update_fields=["statements"])
    return dict(document.statements) if document.statements else None
