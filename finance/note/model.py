"""The research note: frozen dataclasses for the JSON contract, read with `Note.from_dict`.

Every number carries its source, so renderers can link it to a filing page, an API, a derivation
or an assumption. `Note.from_dict(x).to_dict() == x` for every valid `x`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast

from finance.note.sources import (
    ApiSource,
    AssumptionSource,
    Cell,
    DerivedSource,
    DocumentSource,
    Inline,
    Link,
    Number,
    Source,
    cell_from_dict,
    cell_to_dict,
    inline_to_dict,
    inlines_from_list,
    source_from_dict,
)
from finance.note.validation import (
    NoteError,
    fail,
    join,
    read_choice,
    read_float,
    read_list,
    read_object,
    read_str,
    read_timestamp,
)

__all__ = [
    "ApiSource",
    "AssumptionSource",
    "Block",
    "Bullets",
    "Cell",
    "Chart",
    "DerivedSource",
    "DocumentSource",
    "Inline",
    "Link",
    "Note",
    "NoteError",
    "Number",
    "Paragraph",
    "Quote",
    "Section",
    "Series",
    "Source",
    "Table",
]

_SLUG = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")


def _inlines(items: tuple[Inline, ...]) -> list[Any]:
    return [inline_to_dict(item) for item in items]


@dataclass(frozen=True)
class Paragraph:
    content: tuple[Inline, ...]

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> Paragraph:
        read_object(d, path, ("type", "content"))
        return cls(content=inlines_from_list(d["content"], join(path, "content")))

    def to_dict(self) -> dict[str, Any]:
        return {"type": "paragraph", "content": _inlines(self.content)}


@dataclass(frozen=True)
class Bullets:
    items: tuple[tuple[Inline, ...], ...]

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> Bullets:
        read_object(d, path, ("type", "items"))
        items_path = join(path, "items")
        items = read_list(d["items"], items_path)
        return cls(
            items=tuple(inlines_from_list(x, f"{items_path}[{i}]") for i, x in enumerate(items))
        )

    def to_dict(self) -> dict[str, Any]:
        return {"type": "bullets", "items": [_inlines(item) for item in self.items]}


@dataclass(frozen=True)
class Table:
    """A captioned table; the first column is usually the row label."""

    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[Inline, ...] | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> Table:
        read_object(d, path, ("type", "caption", "columns", "rows"), ("notes",))
        columns_path, rows_path = join(path, "columns"), join(path, "rows")
        columns = tuple(
            read_str(c, f"{columns_path}[{i}]")
            for i, c in enumerate(read_list(d["columns"], columns_path))
        )
        rows = []
        for r, row in enumerate(read_list(d["rows"], rows_path)):
            row_path = f"{rows_path}[{r}]"
            cells = read_list(row, row_path)
            if len(cells) != len(columns):
                fail(row_path, f"has {len(cells)} cells for {len(columns)} columns")
            rows.append(tuple(cell_from_dict(c, f"{row_path}[{i}]") for i, c in enumerate(cells)))
        notes = None if "notes" not in d else inlines_from_list(d["notes"], join(path, "notes"))
        return cls(
            caption=read_str(d["caption"], join(path, "caption")),
            columns=columns,
            rows=tuple(rows),
            notes=notes,
        )

    def numeric_columns(self) -> list[bool]:
        """For each column, whether it holds numbers (which renderers right-align)."""
        return [
            any(isinstance(row[i], Number) for row in self.rows) for i in range(len(self.columns))
        ]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "table",
            "caption": self.caption,
            "columns": list(self.columns),
            "rows": [[cell_to_dict(cell) for cell in row] for row in self.rows],
        }
        if self.notes is not None:
            out["notes"] = _inlines(self.notes)
        return out


@dataclass(frozen=True)
class Series:
    name: str
    values: tuple[float | None, ...]

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Series:
        d = read_object(data, path, ("name", "values"))
        values_path = join(path, "values")
        return cls(
            name=read_str(d["name"], join(path, "name")),
            values=tuple(
                None if v is None else read_float(v, f"{values_path}[{i}]")
                for i, v in enumerate(read_list(d["values"], values_path))
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "values": list(self.values)}


@dataclass(frozen=True)
class Chart:
    """A line or grouped-bar chart; values are in `unit` (38.2 with unit "%" means 38.2%)."""

    title: str
    kind: Literal["line", "bar"]
    unit: str
    x: tuple[str, ...]
    series: tuple[Series, ...]
    caption: tuple[Inline, ...] | None = None

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> Chart:
        read_object(d, path, ("type", "title", "kind", "unit", "x", "series"), ("caption",))
        x_path, series_path = join(path, "x"), join(path, "series")
        x = tuple(read_str(v, f"{x_path}[{i}]") for i, v in enumerate(read_list(d["x"], x_path)))
        series = []
        for i, item in enumerate(read_list(d["series"], series_path)):
            one = Series.from_dict(item, f"{series_path}[{i}]")
            if len(one.values) != len(x):
                fail(f"{series_path}[{i}].values", f"has {len(one.values)} values for {len(x)} x")
            series.append(one)
        caption = (
            None if "caption" not in d else inlines_from_list(d["caption"], join(path, "caption"))
        )
        return cls(
            title=read_str(d["title"], join(path, "title")),
            kind=cast(
                Literal["line", "bar"], read_choice(d["kind"], join(path, "kind"), ("line", "bar"))
            ),
            unit=read_str(d["unit"], join(path, "unit")),
            x=x,
            series=tuple(series),
            caption=caption,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "chart",
            "title": self.title,
            "kind": self.kind,
            "unit": self.unit,
            "x": list(self.x),
            "series": [s.to_dict() for s in self.series],
        }
        if self.caption is not None:
            out["caption"] = _inlines(self.caption)
        return out


@dataclass(frozen=True)
class Quote:
    """A passage quoted from a filing, with where it was printed."""

    content: tuple[Inline, ...]
    source: Source

    @classmethod
    def from_dict(cls, d: dict[str, Any], path: str) -> Quote:
        read_object(d, path, ("type", "content", "source"))
        return cls(
            content=inlines_from_list(d["content"], join(path, "content")),
            source=source_from_dict(d["source"], join(path, "source")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"type": "quote", "content": _inlines(self.content), "source": self.source.to_dict()}


Block: TypeAlias = Paragraph | Bullets | Table | Chart | Quote

_BLOCK_TYPES: dict[str, type[Block]] = {
    "paragraph": Paragraph,
    "bullets": Bullets,
    "table": Table,
    "chart": Chart,
    "quote": Quote,
}


def block_from_dict(data: Any, path: str) -> Block:
    # Check the type first, so that a typo there is reported rather than its missing fields.
    if not isinstance(data, dict) or "type" not in data:
        read_object(data, path, ("type",))
    kind = read_choice(data["type"], join(path, "type"), _BLOCK_TYPES)
    return _BLOCK_TYPES[kind].from_dict(data, path)


@dataclass(frozen=True)
class Section:
    id: str  # a slug, used as the HTML anchor
    heading: str
    blocks: tuple[Block, ...]

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Section:
        d = read_object(data, path, ("id", "heading", "blocks"))
        section_id = read_str(d["id"], join(path, "id"))
        if not _SLUG.match(section_id):
            fail(
                join(path, "id"), f"expected a slug (letters, digits, - and _), got {section_id!r}"
            )
        blocks_path = join(path, "blocks")
        return cls(
            id=section_id,
            heading=read_str(d["heading"], join(path, "heading")),
            blocks=tuple(
                block_from_dict(b, f"{blocks_path}[{i}]")
                for i, b in enumerate(read_list(d["blocks"], blocks_path))
            ),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "heading": self.heading,
            "blocks": [block.to_dict() for block in self.blocks],
        }


@dataclass(frozen=True)
class Note:
    """A research note: titled sections of blocks whose every number cites its source."""

    title: str
    subtitle: str
    created_at: str  # ISO-8601
    sections: tuple[Section, ...]

    @classmethod
    def from_dict(cls, data: Any) -> Note:
        """Read and validate a note dict; `NoteError` names the path of the first problem."""
        d = read_object(data, "", ("title", "subtitle", "created_at", "sections"))
        sections = tuple(
            Section.from_dict(s, f"sections[{i}]")
            for i, s in enumerate(read_list(d["sections"], "sections"))
        )
        seen: set[str] = set()
        for i, section in enumerate(sections):
            if section.id in seen:
                fail(f"sections[{i}].id", f"{section.id!r} is used by an earlier section")
            seen.add(section.id)
        return cls(
            title=read_str(d["title"], "title"),
            subtitle=read_str(d["subtitle"], "subtitle"),
            created_at=read_timestamp(d["created_at"], "created_at"),
            sections=sections,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "subtitle": self.subtitle,
            "created_at": self.created_at,
            "sections": [section.to_dict() for section in self.sections],
        }
