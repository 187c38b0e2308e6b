"""What a research note should cover: the documents, years and optional sources (plain data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from finance.research.analysis import YearRange


@dataclass(frozen=True)
class ResearchPlan:
    document_ids: tuple[int, ...] = ()
    """Empty: every ready document of the workspace."""
    years: YearRange | None = None
    ticker: str = ""
    cross_check: bool = False
    prices: bool = False
    price_document: int | None = None
    """A CSV data file to take prices from instead of Yahoo Finance."""
    macro: bool = False
    valuation: bool = True
    questions: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())
    """Things the planner could not do, said in the note too."""

    @classmethod
    def from_arguments(cls, arguments: dict[str, Any]) -> ResearchPlan:
        given = [int(arguments[k]) for k in ("start_year", "end_year") if arguments.get(k)]
        years = (min(given), max(given)) if given else None
        return cls(
            document_ids=tuple(int(i) for i in arguments.get("document_ids") or ()),
            years=years,
            ticker=str(arguments.get("ticker") or "").strip().upper(),
            cross_check=bool(arguments.get("cross_check", False)),
            prices=bool(arguments.get("prices", False)) or bool(arguments.get("price_document_id")),
            price_document=int(arguments["price_document_id"])
            if arguments.get("price_document_id")
            else None,
            macro=bool(arguments.get("macro", False)),
            valuation=bool(arguments.get("valuation", True)),
            questions=tuple(str(q) for q in arguments.get("questions") or ()),
            notes=tuple(str(n) for n in arguments.get("notes") or ()),
        )


PLAN_PARAMETERS: dict[str, Any] = {
    "type": "object",
    "properties": {
        "document_ids": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "Documents to cover; empty or absent: every ready document.",
        },
        "start_year": {"type": "integer", "minimum": 1900, "maximum": 2100},
        "end_year": {"type": "integer", "minimum": 1900, "maximum": 2100},
        "ticker": {"type": "string", "maxLength": 10},
        "cross_check": {
            "type": "boolean",
            "description": "Reconcile the filing with SEC XBRL and Yahoo Finance figures.",
        },
        "prices": {"type": "boolean", "description": "Add price history metrics (needs ticker)."},
        "price_document_id": {
            "type": "integer",
            "minimum": 1,
            "description": "Take the prices from this uploaded CSV instead of Yahoo Finance.",
        },
        "macro": {"type": "boolean", "description": "Compare revenue growth with FRED GDP/CPI."},
        "valuation": {"type": "boolean", "description": "Add a DCF sketch (default true)."},
        "questions": {
            "type": "array",
            "items": {"type": "string", "maxLength": 300},
            "maxItems": 8,
            "description": "Questions answered with quoted passages and their pages.",
        },
        "notes": {"type": "array", "items": {"type": "string"}, "maxItems": 10},
    },
    "additionalProperties": False,
}
