"""The note as an HTML fragment: an <article> whose every number links to its source."""

from __future__ import annotations

import base64
from html import escape

from finance.note.charts import chart_alt_text, chart_png
from finance.note.citations import (
    Citations,
    collect_citations,
    describe_source,
    external_url,
    page_label,
    source_credit,
)
from finance.note.links import NoteLinks
from finance.note.model import (
    AssumptionSource,
    Block,
    Bullets,
    Cell,
    Chart,
    DerivedSource,
    Inline,
    Link,
    Note,
    Number,
    Paragraph,
    Quote,
    Source,
    Table,
)

DERIVATIONS_ID = "note-derivations"
ASSUMPTIONS_ID = "note-assumptions"
SOURCES_ID = "note-sources"


def render_html(note: Note, links: NoteLinks) -> str:
    """The note as an HTML fragment for the app's page template; all text is escaped."""
    return _HtmlNote(links, collect_citations(note)).article(note)


def derived_anchor(number: int) -> str:
    return f"note-derived-{number}"


def assumption_anchor(number: int) -> str:
    return f"note-assumption-{number}"


class _HtmlNote:
    def __init__(self, links: NoteLinks, citations: Citations) -> None:
        self.links = links
        self.citations = citations

    def article(self, note: Note) -> str:
        appendices = [
            (DERIVATIONS_ID, "How the numbers were derived", self.derivations()),
            (ASSUMPTIONS_ID, "Assumptions", self.assumptions()),
            (SOURCES_ID, "Sources", self.sources()),
        ]
        appendices = [(id_, heading, body) for id_, heading, body in appendices if body]
        toc = [(s.id, s.heading) for s in note.sections] + [(i, h) for i, h, _ in appendices]
        parts = [
            '<article class="research-note">',
            "<header>",
            f"<h1>{escape(note.title)}</h1>",
            f'<p class="subtitle">{escape(note.subtitle)}</p>' if note.subtitle else "",
            f'<p class="created">Created <time datetime="{escape(note.created_at)}">'
            f"{escape(note.created_at[:10])}</time></p>",
            "</header>",
            '<nav class="toc" aria-label="Contents"><h2>Contents</h2><ol>',
            *(f'<li><a href="#{escape(i)}">{escape(h)}</a></li>' for i, h in toc),
            "</ol></nav>",
        ]
        for section in note.sections:
            parts.append(f'<section id="{escape(section.id)}">')
            parts.append(f"<h2>{escape(section.heading)}</h2>")
            parts.extend(self.block(block) for block in section.blocks)
            parts.append("</section>")
        for id_, heading, body in appendices:
            parts.append(f'<section id="{id_}" class="appendix"><h2>{heading}</h2>{body}</section>')
        parts.append("</article>")
        return "\n".join(part for part in parts if part)

    # --- blocks ------------------------------------------------------------------------------

    def block(self, block: Block) -> str:
        if isinstance(block, Paragraph):
            return f"<p>{self.inlines(block.content)}</p>"
        if isinstance(block, Bullets):
            items = "".join(f"<li>{self.inlines(item)}</li>" for item in block.items)
            return f"<ul>{items}</ul>"
        if isinstance(block, Table):
            return self.table(block)
        if isinstance(block, Chart):
            return self.chart(block)
        return self.quote(block)

    def table(self, table: Table) -> str:
        head = "".join(f'<th scope="col">{escape(c)}</th>' for c in table.columns)
        body = "".join(
            "<tr>" + "".join(self.cell(cell, first=i == 0) for i, cell in enumerate(row)) + "</tr>"
            for row in table.rows
        )
        notes = f'<p class="table-notes">{self.inlines(table.notes)}</p>' if table.notes else ""
        return (
            f'<figure class="note-table"><table><caption>{escape(table.caption)}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{notes}</figure>"
        )

    def cell(self, cell: Cell, *, first: bool) -> str:
        if isinstance(cell, Number):
            return f'<td class="numeric" style="text-align: right">{self.number(cell)}</td>'
        content = escape(cell) if isinstance(cell, str) else self.inlines(cell)
        if first and isinstance(cell, str):
            return f'<th scope="row">{content}</th>'
        return f"<td>{content}</td>"

    def chart(self, chart: Chart) -> str:
        png = base64.b64encode(chart_png(chart)).decode("ascii")
        caption = f" {self.inlines(chart.caption)}" if chart.caption else ""
        return (
            f'<figure class="note-chart"><img src="data:image/png;base64,{png}" '
            f'alt="{escape(chart_alt_text(chart))}" width="600" height="300">'
            f"<figcaption><strong>{escape(chart.title)}</strong>{caption}</figcaption></figure>"
        )

    def quote(self, quote: Quote) -> str:
        cite = self.linked(escape(source_credit(quote.source)), quote.source, "source-link")
        return (
            f"<blockquote><p>{self.inlines(quote.content)}</p><footer>{cite}</footer></blockquote>"
        )

    # --- inline content ----------------------------------------------------------------------

    def inlines(self, items: tuple[Inline, ...]) -> str:
        return "".join(self.inline(item) for item in items)

    def inline(self, item: Inline) -> str:
        if isinstance(item, Number):
            return self.number(item)
        if isinstance(item, Link):
            return self.linked(escape(item.text), item.source, "source-link")
        return escape(item)

    def number(self, number: Number) -> str:
        return self.linked(escape(number.display), number.source, "num")

    def linked(self, html_text: str, source: Source, css_class: str) -> str:
        return (
            f'<a class="{css_class}" href="{escape(self.href(source))}" data-kind="{source.kind}" '
            f'title="{escape(describe_source(source))}">{html_text}</a>'
        )

    def href(self, source: Source) -> str:
        if isinstance(source, DerivedSource):
            return "#" + derived_anchor(self.citations.number_of(source))
        if isinstance(source, AssumptionSource):
            return "#" + assumption_anchor(self.citations.number_of(source))
        return external_url(source, self.links)

    # --- appendices --------------------------------------------------------------------------

    def derivations(self) -> str:
        entries = []
        for source, n in self.citations.derived.items():
            inputs = "".join(
                f"<li>{escape(i.source.label or 'Input')}: {self.number(i)}</li>"
                for i in source.inputs
            )
            entries.append(
                f'<li id="{derived_anchor(n)}"><strong>{escape(source.label)}</strong> '
                f"<code>{escape(source.formula)}</code><ul>{inputs}</ul></li>"
            )
        return f"<ol>{''.join(entries)}</ol>" if entries else ""

    def assumptions(self) -> str:
        entries = "".join(
            f'<li id="{assumption_anchor(n)}">{escape(label)}</li>'
            for label, n in self.citations.assumptions.items()
        )
        return f"<ol>{entries}</ol>" if entries else ""

    def sources(self) -> str:
        entries = [
            f'<li><a href="{escape(self.links.page(p.document_id, p.page, None, p.document))}">'
            f"{escape(p.document)}, {page_label(p.page)}</a></li>"
            for p in self.citations.document_pages()
        ]
        entries += [
            f'<li>{escape(api.provider)}: <a href="{escape(api.url)}">{escape(api.url)}</a> '
            f'(retrieved <time datetime="{escape(api.retrieved_at)}">'
            f"{escape(api.retrieved_at)}</time>)</li>"
            for api in self.citations.apis.values()
        ]
        return f"<ul>{''.join(entries)}</ul>" if entries else ""
