"""Shared pieces of the note's sections: block helpers and the metric groups shown."""

from __future__ import annotations

from typing import Any

Block = dict[str, Any]
Inline = str | dict[str, Any]

KEY_FIGURES = (
    ("Revenue", "income_statement", "revenue"),
    ("Gross profit", "income_statement", "gross_profit"),
    ("Operating income", "income_statement", "operating_income"),
    ("Net income", "income_statement", "net_income"),
    ("Operating cash flow", "cash_flow", "operating_cash_flow"),
    ("Capital expenditure", "cash_flow", "capital_expenditure"),
    ("Total assets", "balance_sheet", "total_assets"),
    ("Shareholders' equity", "balance_sheet", "shareholders_equity"),
)
MARGINS = (
    ("Gross margin", "gross_margin"),
    ("Operating margin", "operating_margin"),
    ("Net margin", "net_margin"),
)
CASH = (
    ("Free cash flow", "free_cash_flow"),
    ("FCF / net income", "fcf_conversion"),
    ("Working capital", "working_capital"),
    ("Days sales outstanding", "dso"),
    ("Days inventory outstanding", "dio"),
    ("Days payables outstanding", "dpo"),
    ("Cash conversion cycle", "cash_conversion_cycle"),
)
RETURNS = (
    ("Revenue growth", "revenue_growth"),
    ("Return on assets", "roa"),
    ("Return on equity", "roe"),
    ("Asset turnover", "asset_turnover"),
    ("Inventory turnover", "inventory_turnover"),
    ("Debt / equity", "debt_to_equity"),
    ("Liabilities / assets", "liabilities_to_assets"),
)


def inline(content: list[Any]) -> list[Inline]:
    """Text and numbers as the note contract wants them: a number as {"number": {...}}."""
    return [
        {"number": item} if isinstance(item, dict) and "display" in item else item
        for item in content
    ]


def paragraph(*content: Any) -> Block:
    return {"type": "paragraph", "content": inline(list(content))}


def bullets(items: list[list[Any]]) -> Block:
    return {"type": "bullets", "items": [inline(item) for item in items]}


def section(slug: str, heading: str, blocks: list[Block]) -> dict[str, Any]:
    return {"id": slug, "heading": heading, "blocks": blocks}
