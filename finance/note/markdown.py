"""The note as Markdown: numbers link to sources; derivations and assumptions are footnotes."""

from __future__ import annotations

from collections.abc import Sequence

from finance.note.charts import format_value
from finance.note.citations import (
    Citations,
    collect_citations,
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
    Source,
    Table,
)

_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>|#"} | {"\n": " ", "\r": " "})


def render_markdown(note: Note, links: NoteLinks) -> str:
    """The note as GitHub-flavoured Markdown; charts become tables of their data."""
    return _MarkdownNote(links, collect_citations(note)).document(note)


def escape_markdown(text: str) -> str:
    """Text that Markdown shows as written: no emphasis, links, HTML or table breaks."""
    return text.translate(_SPECIAL)


class _MarkdownNote:
    def __init__(self, links: NoteLinks, citations: Citations) -> None:
        self.links = links
        self.citations = citations

    def document(self, note: Note) -> str:
        parts = [f"# {escape_markdown(note.title)}"]
        if note.subtitle:
            parts.append(f"*{escape_markdown(note.subtitle)}*")
        parts.append(f"Created {escape_markdown(note.created_at[:10])}")
        for section in note.sections:
            parts.append(f"## {escape_markdown(section.heading)}")
            parts.extend(self.block(block) for block in section.blocks)
        parts.extend(self.appendices())
        return "\n\n".join(parts) + "\n"

    def block(self, block: Block) -> str:
        if isinstance(block, Paragraph):
            return self.inlines(block.content)
        if isinstance(block, Bullets):
            return "\n".join(f"- {self.inlines(item)}" for item in block.items)
        if isinstance(block, Table):
            table = self.table(
                block.columns,
                [[self.cell(cell) for cell in row] for row in block.rows],
                numeric=block.numeric_columns(),
            )
            notes = f"\n\n{self.inlines(block.notes)}" if block.notes else ""
            return f"**{escape_markdown(block.caption)}**\n\n{table}{notes}"
        if isinstance(block, Chart):
            return self.chart(block)
        quoted = self.inlines(block.content)
        credit = self.linked(escape_markdown(source_credit(block.source)), block.source)
        return f"> {quoted}\n>\n> — {credit}"

    def chart(self, chart: Chart) -> str:
        unit = f" ({escape_markdown(chart.unit)})" if chart.unit else ""
        rows = [
            [escape_markdown(x)] + [format_value(s.values[i], chart.unit) for s in chart.series]
            for i, x in enumerate(chart.x)
        ]
        table = self.table(
            ["", *(s.name for s in chart.series)],
            rows,
            numeric=[False] + [True] * len(chart.series),
        )
        caption = f"\n\n{self.inlines(chart.caption)}" if chart.caption else ""
        return f"**Chart: {escape_markdown(chart.title)}**{unit}\n\n{table}{caption}"

    def table(self, columns: Sequence[str], rows: list[list[str]], *, numeric: list[bool]) -> str:
        lines = [
            "| " + " | ".join(escape_markdown(c) for c in columns) + " |",
            "| " + " | ".join("---:" if right else ":---" for right in numeric) + " |",
        ]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)

    def cell(self, cell: Cell) -> str:
        if isinstance(cell, str):
            return escape_markdown(cell)
        return self.inlines(cell if isinstance(cell, tuple) else (cell,))

    def inlines(self, items: Sequence[Inline]) -> str:
        return "".join(self.inline(item) for item in items)

    def inline(self, item: Inline) -> str:
        if isinstance(item, Number):
            return self.linked(escape_markdown(item.display), item.source)
        if isinstance(item, Link):
            return self.linked(escape_markdown(item.text), item.source)
        return escape_markdown(item)

    def linked(self, text: str, source: Source) -> str:
        if isinstance(source, DerivedSource):
            return f"{text}[^d{self.citations.number_of(source)}]"
        if isinstance(source, AssumptionSource):
            return f"{text}[^a{self.citations.number_of(source)}]"
        return f"[{text}]({_url(external_url(source, self.links))})"

    def appendices(self) -> list[str]:
        parts = []
        if self.citations.derived:
            parts.append("## How the numbers were derived")
            for source, n in self.citations.derived.items():
                inputs = "\n".join(
                    f"    - {escape_markdown(i.source.label or 'Input')}: {self.inline(i)}"
                    for i in source.inputs
                )
                parts.append(
                    f"[^d{n}]: **{escape_markdown(source.label)}** = "
                    f"{escape_markdown(source.formula)}" + (f"\n\n{inputs}" if inputs else "")
                )
        if self.citations.assumptions:
            parts.append("## Assumptions")
            parts.extend(
                f"[^a{n}]: {escape_markdown(label)}"
                for label, n in self.citations.assumptions.items()
            )
        if self.citations.pages or self.citations.apis:
            entries = [
                f"- [{escape_markdown(p.document)}, {page_label(p.page)}]"
                f"({_url(self.links.page(p.document_id, p.page, None, p.document))})"
                for p in self.citations.document_pages()
            ]
            entries += [
                f"- {escape_markdown(api.provider)}: <{_url(api.url)}> "
                f"(retrieved {escape_markdown(api.retrieved_at)})"
                for api in self.citations.apis.values()
            ]
            parts += ["## Sources", "\n".join(entries)]
        return parts


def _url(url: str) -> str:
    # Characters that would end a Markdown link destination early.
    for char, code in ((" ", "%20"), ("(", "%28"), (")", "%29"), ("<", "%3C"), (">", "%3E")):
        url = url.replace(char, code)
    return url
