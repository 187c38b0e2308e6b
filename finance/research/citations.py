"""Computed numbers (`Derived`/`Input`) as the note's numbers: display text plus a source."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from finance.modeling.core import Derived, Input, unverified_reasons

Number = dict[str, Any]
Source = dict[str, Any]

PERCENT_UNITS = {"ratio", "%"}
UNVERIFIED_MARK = "†"
"""After a number computed from (or read in) a statement period whose accounting identity failed;
the table's notes and the note's last section say why."""


def display(value: float, unit: str) -> str:
    """How a number reads in the note: 38.2% for ratios, 1,234.5 for USD millions."""
    if not math.isfinite(value):
        return "n/a"
    if unit in PERCENT_UNITS:
        return f"{value * 100:.1f}%" if unit == "ratio" else f"{value:.1f}%"
    if unit == "days":
        return f"{value:,.1f} days"
    if unit == "x":
        return f"{value:,.2f}x"
    if unit == "pp":
        return f"{value:+.1f} pp"
    if unit == "USD":
        return f"${value:,.2f}"
    if unit == "raw":
        return f"{value:.4g}"
    if abs(value) >= 100 or value == int(value):
        return f"{value:,.0f}" if value == int(value) else f"{value:,.1f}"
    return f"{value:,.2f}"


def document_source(document_id: int, document: str, page: int, bbox: Any, label: str) -> Source:
    box = [float(v) for v in bbox] if isinstance(bbox, list | tuple) and len(bbox) == 4 else None
    return {
        "kind": "document",
        "document_id": document_id,
        "document": document,
        "page": int(page),
        "bbox": box,
        "label": label,
    }


def api_source(provider: str, url: str, retrieved_at: str, label: str) -> Source:
    return {
        "kind": "api",
        "provider": provider,
        "url": url,
        "retrieved_at": retrieved_at,
        "label": label,
    }


def assumption(label: str) -> Source:
    return {"kind": "assumption", "label": label}


def number(value: float, unit: str, source: Source) -> Number:
    return {"value": float(value), "display": display(float(value), unit), "source": source}


class Citer:
    """Turns model outputs into note numbers, resolving where each input came from.

    `documents` maps a document's name to its id (citations from statements carry the name);
    `apis` maps a citation's `source` text (e.g. "AAPL prices") to an API source.
    """

    def __init__(
        self,
        documents: Mapping[str, int] | None = None,
        apis: Mapping[str, Source] | None = None,
    ) -> None:
        self.documents = dict(documents or {})
        self.apis = dict(apis or {})

    def derived(self, item: Derived, unit: str | None = None) -> Number:
        label = item.name.replace("_", " ") + (f" {item.period}" if item.period else "")
        if item.basis:
            label += f" ({item.basis} balances)"
        source: Source = {
            "kind": "derived",
            "formula": item.formula,
            "inputs": [self.input(i) for i in item.inputs],
            "label": label,
        }
        return _flagged(number(item.value, unit or item.unit, source), item.unverified())

    def input(self, item: Input, unit: str = "USD millions") -> Number:
        citation = item.citation
        nested = citation.get("derived")
        if isinstance(nested, Mapping):
            return self.derived(_derived_from_dict(nested))
        shown = _unit_of(item, unit)
        label = item.label
        if shown == "USD millions":
            label = f"{label}: {display(item.value, shown)} USD millions"
        found = number(item.value, shown, self.source(label, citation))
        return _flagged(found, unverified_reasons(item))

    def source(self, label: str, citation: Mapping[str, Any]) -> Source:
        document = str(citation.get("document") or "")
        if "page" in citation and document in self.documents:
            return document_source(
                self.documents[document],
                document,
                int(citation["page"]),
                citation.get("bbox"),
                label.replace("_", " "),
            )
        origin = str(citation.get("source") or "")
        if origin in self.apis:
            api = dict(self.apis[origin])
            when = citation.get("date")
            api["label"] = f"{label} ({when})" if when else label
            return api
        formula = citation.get("formula")
        if formula:
            return {"kind": "derived", "formula": str(formula), "inputs": [], "label": label}
        return assumption(f"{label}: {origin or 'computed in this note'}")


def _flagged(found: Number, reasons: list[str]) -> Number:
    """The number marked unverified (a dagger after it, the reasons in its source's label)."""
    if not reasons:
        return found
    source = dict(found["source"])
    if "label" in source:
        source["label"] = f"{source['label']} ({UNVERIFIED_MARK} {'; '.join(reasons)})"
    return {**found, "display": found["display"] + UNVERIFIED_MARK, "source": source}


def is_unverified(found: Number) -> bool:
    return str(found.get("display", "")).endswith(UNVERIFIED_MARK)


def _unit_of(item: Input, default: str) -> str:
    citation = item.citation
    if citation.get("count"):
        return "count"
    if citation.get("date") is not None:
        return "USD"
    if citation.get("ddof") is not None:
        return "raw"
    return default


def _derived_from_dict(data: Mapping[str, Any]) -> Derived:
    return Derived(
        name=str(data["name"]),
        value=float(data["value"]),
        unit=str(data.get("unit", "")),
        formula=str(data.get("formula", "")),
        inputs=[
            Input(str(i["label"]), float(i["value"]), dict(i.get("citation") or {}))
            for i in data.get("inputs", [])
        ],
        period=str(data.get("period", "")),
        basis=str(data.get("basis", "")),
    )
