"""What a note cites: the appendix entries every renderer lists, numbered in reading order."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from finance.note.links import NoteLinks
from finance.note.model import (
    ApiSource,
    AssumptionSource,
    Block,
    Bullets,
    Chart,
    DerivedSource,
    DocumentSource,
    Inline,
    Link,
    Note,
    Number,
    Paragraph,
    Quote,
    Source,
    Table,
)


@dataclass(frozen=True)
class DocumentPage:
    document_id: int
    document: str
    page: int  # 0-indexed

    @property
    def label(self) -> str:
        return f"{self.document}, {page_label(self.page)}"


@dataclass
class Citations:
    """Distinct sources of a note; derivations and assumptions numbered from 1 as first cited."""

    derived: dict[DerivedSource, int] = field(default_factory=dict)
    assumptions: dict[str, int] = field(default_factory=dict)
    pages: dict[DocumentPage, None] = field(default_factory=dict)  # an ordered set
    apis: dict[tuple[str, str, str], ApiSource] = field(default_factory=dict)

    def add(self, source: Source) -> None:
        if isinstance(source, DocumentSource):
            self.pages.setdefault(DocumentPage(source.document_id, source.document, source.page))
        elif isinstance(source, ApiSource):
            self.apis.setdefault((source.provider, source.url, source.retrieved_at), source)
        elif isinstance(source, AssumptionSource):
            self.assumptions.setdefault(source.label, len(self.assumptions) + 1)
        elif source not in self.derived:
            self.derived[source] = len(self.derived) + 1
            for number in source.inputs:
                self.add(number.source)

    def document_pages(self) -> list[DocumentPage]:
        """Cited pages, grouped by document and in page order."""
        return sorted(self.pages, key=lambda p: (p.document, p.document_id, p.page))

    def number_of(self, source: DerivedSource | AssumptionSource) -> int:
        """The appendix entry number of a derivation or assumption."""
        if isinstance(source, DerivedSource):
            return self.derived[source]
        return self.assumptions[source.label]


def collect_citations(note: Note) -> Citations:
    """Every source the note cites, nested derivation inputs included."""
    citations = Citations()
    for source in note_sources(note):
        citations.add(source)
    return citations


def note_sources(note: Note) -> Iterator[Source]:
    for section in note.sections:
        for block in section.blocks:
            yield from _block_sources(block)


def _block_sources(block: Block) -> Iterator[Source]:
    if isinstance(block, Paragraph):
        yield from _inline_sources(block.content)
    elif isinstance(block, Bullets):
        for item in block.items:
            yield from _inline_sources(item)
    elif isinstance(block, Table):
        for row in block.rows:
            for cell in row:
                yield from _inline_sources(cell if isinstance(cell, tuple) else (cell,))
        yield from _inline_sources(block.notes or ())
    elif isinstance(block, Chart):
        yield from _inline_sources(block.caption or ())
    elif isinstance(block, Quote):
        yield from _inline_sources(block.content)
        yield block.source


def _inline_sources(items: tuple[Inline, ...]) -> Iterator[Source]:
    for item in items:
        if isinstance(item, Number | Link):
            yield item.source


def page_label(page: int) -> str:
    """The page as people count it: "p. 38" for 0-indexed page 37."""
    return f"p. {page + 1}"


def external_url(source: DocumentSource | ApiSource, links: NoteLinks) -> str:
    """Where a document or API source lives: the page viewer with the box, or the API URL."""
    if isinstance(source, DocumentSource):
        return links.page(source.document_id, source.page, source.bbox, source.label)
    return source.url


def describe_source(source: Source) -> str:
    """One line saying where a number came from, e.g. for a tooltip."""
    if isinstance(source, DocumentSource):
        where = f"{source.document}, {page_label(source.page)}"
    elif isinstance(source, ApiSource):
        where = f"{source.provider}, retrieved {source.retrieved_at}"
    elif isinstance(source, DerivedSource):
        where = f"derived: {source.formula}"
    else:
        return f"Assumption: {source.label}"
    return f"{source.label} ({where})" if source.label else where


def source_credit(source: Source) -> str:
    """Who said it, for a quote: "Acme 10-K 2024, p. 30", the API provider, or the label."""
    if isinstance(source, DocumentSource):
        return f"{source.document}, {page_label(source.page)}"
    if isinstance(source, ApiSource):
        return source.provider
    return source.label
