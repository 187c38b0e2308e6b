"""A realistic note: a 10-K analysis citing pages, an SEC API, derivations and an assumption."""

from __future__ import annotations

import copy
from typing import Any

DOCUMENT_ID = 7
DOCUMENT = "Acme Corp 10-K 2024"
SEC_URL = "https://data.sec.gov/api/xbrl/companyfacts/CIK0000012345.json"


def page_source(label: str, page: int, bbox: list[float] | None) -> dict[str, Any]:
    return {
        "kind": "document",
        "document_id": DOCUMENT_ID,
        "document": DOCUMENT,
        "page": page,
        "bbox": bbox,
        "label": label,
    }


def number(value: float, display: str, source: dict[str, Any]) -> dict[str, Any]:
    return {"value": value, "display": display, "source": source}


REVENUE_24 = number(
    11692.7, "11,692.7", page_source("Revenue FY2024", 37, [310.5, 212.0, 352.25, 221.5])
)
REVENUE_23 = number(
    10950.3, "10,950.3", page_source("Revenue FY2023", 37, [370.0, 212.0, 411.0, 221.5])
)
GROSS_24 = number(
    4466.2, "4,466.2", page_source("Gross profit FY2024", 37, [310.5, 260.0, 352.25, 269.5])
)
GROSS_23 = number(
    4051.6, "4,051.6", page_source("Gross profit FY2023", 37, [370.0, 260.0, 411.0, 269.5])
)

MARGIN_24_SOURCE = {
    "kind": "derived",
    "formula": "Gross profit / Revenue",
    "inputs": [GROSS_24, REVENUE_24],
    "label": "Gross margin FY2024",
}
MARGIN_24 = number(38.2, "38.2%", MARGIN_24_SOURCE)
MARGIN_23 = number(
    37.0,
    "37.0%",
    {
        "kind": "derived",
        "formula": "Gross profit / Revenue",
        "inputs": [GROSS_23, REVENUE_23],
        "label": "Gross margin FY2023",
    },
)
# A derivation whose inputs are themselves derived: the appendix must list all three.
MARGIN_CHANGE = number(
    1.2,
    "+1.2 pp",
    {
        "kind": "derived",
        "formula": "Gross margin FY2024 - Gross margin FY2023",
        "inputs": [MARGIN_24, MARGIN_23],
        "label": "Gross margin change",
    },
)
SHARES = number(
    412.5,
    "412.5m",
    {
        "kind": "api",
        "provider": "SEC EDGAR",
        "url": SEC_URL,
        "retrieved_at": "2025-02-14T09:30:00+00:00",
        "label": "Shares outstanding",
    },
)
TAX_RATE = number(
    21, "21%", {"kind": "assumption", "label": "Effective tax rate of 21% from FY2025"}
)


def sample_note() -> dict[str, Any]:
    """A fresh copy of the sample note dict (tests may mutate it)."""
    return copy.deepcopy(_sample_note())


def _sample_note() -> dict[str, Any]:
    return {
        "title": "Acme Corp: margins keep widening",
        "subtitle": "Notes on the FY2024 10-K",
        "created_at": "2025-02-14T10:00:00+00:00",
        "sections": [
            {
                "id": "summary",
                "heading": "Summary",
                "blocks": [
                    {
                        "type": "paragraph",
                        "content": [
                            "Revenue grew to ",
                            {"number": REVENUE_24},
                            " million while gross margin reached ",
                            {"number": MARGIN_24},
                            " (",
                            {"number": MARGIN_CHANGE},
                            ").",
                        ],
                    },
                    {
                        "type": "bullets",
                        "items": [
                            ["Shares outstanding: ", {"number": SHARES}],
                            ["We assume a tax rate of ", {"number": TAX_RATE}, "."],
                            [
                                "See ",
                                {
                                    "link": {
                                        "text": "the segment note",
                                        "source": page_source("Segments", 81, None),
                                    }
                                },
                                ".",
                            ],
                        ],
                    },
                ],
            },
            {
                "id": "income-statement",
                "heading": "Income statement",
                "blocks": [
                    {
                        "type": "table",
                        "caption": "Income statement (USD millions)",
                        "columns": ["Line item", "FY2024", "FY2023"],
                        "rows": [
                            ["Revenue", {"number": REVENUE_24}, {"number": REVENUE_23}],
                            ["Gross profit", {"number": GROSS_24}, {"number": GROSS_23}],
                            ["Gross margin", {"number": MARGIN_24}, {"number": MARGIN_23}],
                            [["Margin change ", {"number": MARGIN_CHANGE}], "", "n/a"],
                        ],
                        "notes": [
                            "Figures as reported on ",
                            {
                                "link": {
                                    "text": "page 38",
                                    "source": page_source("Income statement", 37, None),
                                }
                            },
                            ".",
                        ],
                    },
                    {
                        "type": "chart",
                        "title": "Gross and operating margin",
                        "kind": "line",
                        "unit": "%",
                        "x": ["FY2022", "FY2023", "FY2024"],
                        "series": [
                            {"name": "Gross margin", "values": [36.1, 37.0, 38.2]},
                            {"name": "Operating margin", "values": [11.4, None, 13.0]},
                        ],
                        "caption": ["FY2024 gross margin: ", {"number": MARGIN_24}],
                    },
                ],
            },
            {
                "id": "management",
                "heading": "What management said",
                "blocks": [
                    {
                        "type": "quote",
                        "content": ["Pricing actions more than offset input cost inflation."],
                        "source": page_source("MD&A", 29, [72.0, 400.0, 540.0, 430.0]),
                    }
                ],
            },
        ],
    }
