"""Where a number came from, and the inline content (text, numbers, links) that cites it."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeAlias
from urllib.parse import urlsplit

from finance.note.validation import (
    fail,
    join,
    kind_of,
    read_choice,
    read_float,
    read_int,
    read_list,
    read_object,
    read_str,
    read_timestamp,
)

# --- sources ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DocumentSource:
    """A box on a page of an uploaded filing (page is 0-indexed, bbox in PDF points)."""

    kind: ClassVar[str] = "document"

    document_id: int
    document: str
    page: int
    bbox: tuple[float, float, float, float] | None
    label: str

    @classmethod
    def from_dict(cls, data: Any, path: str) -> DocumentSource:
        keys = ("kind", "document_id", "document", "page", "bbox", "label")
        d = read_object(data, path, keys)
        bbox = None
        if d["bbox"] is not None:
            values = read_list(d["bbox"], join(path, "bbox"))
            if len(values) != 4:
                fail(join(path, "bbox"), f"expected [x0, top, x1, bottom], got {len(values)} items")
            x0, top, x1, bottom = (
                read_float(v, f"{join(path, 'bbox')}[{i}]") for i, v in enumerate(values)
            )
            bbox = (x0, top, x1, bottom)
        return cls(
            document_id=read_int(d["document_id"], join(path, "document_id")),
            document=read_str(d["document"], join(path, "document")),
            page=read_int(d["page"], join(path, "page")),
            bbox=bbox,
            label=read_str(d["label"], join(path, "label")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "document_id": self.document_id,
            "document": self.document,
            "page": self.page,
            "bbox": None if self.bbox is None else list(self.bbox),
            "label": self.label,
        }


@dataclass(frozen=True)
class ApiSource:
    """A value fetched from a data provider (e.g. SEC EDGAR) at a known time."""

    kind: ClassVar[str] = "api"

    provider: str
    url: str
    retrieved_at: str
    label: str

    @classmethod
    def from_dict(cls, data: Any, path: str) -> ApiSource:
        d = read_object(data, path, ("kind", "provider", "url", "retrieved_at", "label"))
        url = read_str(d["url"], join(path, "url"))
        # The url becomes an href; anything but http(s) (javascript:, data:) would be an injection.
        if urlsplit(url).scheme.lower() not in ("http", "https"):
            fail(join(path, "url"), f"expected an http(s) URL, got {url!r}")
        return cls(
            provider=read_str(d["provider"], join(path, "provider")),
            url=url,
            retrieved_at=read_timestamp(d["retrieved_at"], join(path, "retrieved_at")),
            label=read_str(d["label"], join(path, "label")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "provider": self.provider,
            "url": self.url,
            "retrieved_at": self.retrieved_at,
            "label": self.label,
        }


@dataclass(frozen=True)
class DerivedSource:
    """A number computed from other numbers, e.g. a margin from profit and revenue."""

    kind: ClassVar[str] = "derived"

    formula: str
    inputs: tuple[Number, ...]
    label: str

    @classmethod
    def from_dict(cls, data: Any, path: str) -> DerivedSource:
        d = read_object(data, path, ("kind", "formula", "inputs", "label"))
        inputs_path = join(path, "inputs")
        return cls(
            formula=read_str(d["formula"], join(path, "formula")),
            inputs=tuple(
                Number.from_dict(item, f"{inputs_path}[{i}]")
                for i, item in enumerate(read_list(d["inputs"], inputs_path))
            ),
            label=read_str(d["label"], join(path, "label")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "formula": self.formula,
            "inputs": [number.to_dict() for number in self.inputs],
            "label": self.label,
        }


@dataclass(frozen=True)
class AssumptionSource:
    """A number the analyst chose, stated as an assumption."""

    kind: ClassVar[str] = "assumption"

    label: str

    @classmethod
    def from_dict(cls, data: Any, path: str) -> AssumptionSource:
        d = read_object(data, path, ("kind", "label"))
        return cls(label=read_str(d["label"], join(path, "label")))

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "label": self.label}


Source: TypeAlias = DocumentSource | ApiSource | DerivedSource | AssumptionSource

_SOURCE_KINDS: dict[str, type[Source]] = {
    kind.kind: kind for kind in (DocumentSource, ApiSource, DerivedSource, AssumptionSource)
}
_ALL_SOURCE_KEYS = {f.name for kind in _SOURCE_KINDS.values() for f in fields(kind)}


def source_from_dict(data: Any, path: str) -> Source:
    # Check the kind first, so that a typo there is reported rather than its missing fields.
    kind = read_object(data, path, ("kind",), _ALL_SOURCE_KEYS)["kind"]
    return _SOURCE_KINDS[read_choice(kind, join(path, "kind"), _SOURCE_KINDS)].from_dict(data, path)


# --- inline content --------------------------------------------------------------------------


@dataclass(frozen=True)
class Number:
    """A figure as displayed (e.g. "38.2%") with its value and where it came from."""

    value: float
    display: str
    source: Source

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Number:
        d = read_object(data, path, ("value", "display", "source"))
        return cls(
            value=read_float(d["value"], join(path, "value")),
            display=read_str(d["display"], join(path, "display")),
            source=source_from_dict(d["source"], join(path, "source")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "display": self.display, "source": self.source.to_dict()}


@dataclass(frozen=True)
class Link:
    """Words linked to a source, e.g. "the segment note" pointing at a filing page."""

    text: str
    source: Source

    @classmethod
    def from_dict(cls, data: Any, path: str) -> Link:
        d = read_object(data, path, ("text", "source"))
        return cls(
            text=read_str(d["text"], join(path, "text")),
            source=source_from_dict(d["source"], join(path, "source")),
        )

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "source": self.source.to_dict()}


Inline: TypeAlias = str | Number | Link
Cell: TypeAlias = str | Number | tuple[Inline, ...]


def inline_from_dict(data: Any, path: str) -> Inline:
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and set(data) == {"number"}:
        return Number.from_dict(data["number"], join(path, "number"))
    if isinstance(data, dict) and set(data) == {"link"}:
        return Link.from_dict(data["link"], join(path, "link"))
    fail(path, f'expected text, {{"number": ...}} or {{"link": ...}}, got {_describe(data)}')


def inline_to_dict(item: Inline) -> Any:
    if isinstance(item, Number):
        return {"number": item.to_dict()}
    if isinstance(item, Link):
        return {"link": item.to_dict()}
    return item


def inlines_from_list(data: Any, path: str) -> tuple[Inline, ...]:
    return tuple(inline_from_dict(x, f"{path}[{i}]") for i, x in enumerate(read_list(data, path)))


def cell_from_dict(data: Any, path: str) -> Cell:
    if isinstance(data, list):
        return inlines_from_list(data, path)
    if isinstance(data, dict) and set(data) == {"number"}:
        return Number.from_dict(data["number"], join(path, "number"))
    if isinstance(data, str):
        return data
    fail(path, f'expected text, {{"number": ...}} or a list of inline items, got {_describe(data)}')


def cell_to_dict(cell: Cell) -> Any:
    if isinstance(cell, tuple):
        return [inline_to_dict(item) for item in cell]
    if isinstance(cell, Number):
        return {"number": cell.to_dict()}
    return cell


def _describe(data: Any) -> str:
    if isinstance(data, dict):
        return "an object with keys " + ", ".join(sorted(map(str, data))) if data else "{}"
    return kind_of(data)
