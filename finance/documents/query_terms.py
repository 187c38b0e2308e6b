"""What a financial question means beyond its words: synonyms, and the statements it needs.

An analyst asks about "capex", "quick ratio" or "gross margin"; the filing prints "purchases of
property, plant and equipment", "current assets" and "cost of sales", often only in a statement
table. Each `Concept` below is a pattern on the question, the words the filings use for it
(added to the query), the primary statements the figure is read from, and the 10-K Items
that discuss it (a margin or a tax rate is explained in MD&A, Item 7). The table is about
financial vocabulary, never about one filing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

IS, BS, CF = "income_statement", "balance_sheet", "cash_flow"


@dataclass(frozen=True)
class Concept:
    pattern: re.Pattern[str]
    words: str
    statements: tuple[str, ...] = ()
    items: tuple[str, ...] = ()  # 10-K Items (sections.py names: "1", "1A", "3", "7", ...)


def _c(
    pattern: str, words: str, statements: tuple[str, ...] = (), items: tuple[str, ...] = ()
) -> Concept:
    return Concept(re.compile(pattern, re.I), words, statements, items)


CONCEPTS: tuple[Concept, ...] = (
    _c(r"capital[\s-]+intensi", "capital expenditures property plant equipment", (IS, BS, CF)),
    _c(r"\bcapex\b|capital\s+expenditures?", "purchases property plant equipment", (CF,)),
    _c(r"\bpp&?n?e\b|property,?\s+plant", "property plant equipment net", (BS,)),
    _c(
        r"quick\s+ratio|current\s+ratio|working\s+capital|liquidity",
        "current assets current liabilities cash receivables",
        (BS,),
    ),
    _c(r"operating\s+(margin|income|profit)", "operating income revenue net sales", (IS,), ("7",)),
    _c(r"gross\s+(margin|profit)", "gross profit cost of sales revenue", (IS,), ("7",)),
    _c(r"net\s+(profit\s+)?margin", "net income revenue", (IS,), ("7",)),
    _c(r"\bnet\s+(income|earnings|loss)\b", "net income", (IS,)),
    _c(r"effective\s+tax\s+rate", "effective tax rate provision for income taxes", (IS,), ("7",)),
    _c(
        r"inventory\s+turn|days\s+(of\s+)?inventory|sold\s+(its\s+|their\s+)?inventor",
        "inventories cost of sales",
        (IS, BS),
    ),
    _c(r"receivables?\s+turnover|days\s+sales\s+outstanding|\bdso\b", "receivables", (IS, BS)),
    _c(r"payables?\s+turnover|days\s+payable", "accounts payable cost of sales", (IS, BS)),
    _c(r"return\s+on\s+(assets|equity)|\broa\b|\broe\b", "net income total assets", (IS, BS)),
    _c(r"asset\s+turnover", "total assets revenue", (IS, BS)),
    _c(r"debt\s+to|leverage|\bdebt\b", "long-term debt borrowings notes", (BS,)),
    _c(r"free\s+cash\s+flow|cash\s+conversion", "operating activities capital expenditures", (CF,)),
    _c(r"dividend\s+payout|dividends?\s+paid", "dividends paid cash", (CF,)),
    _c(r"\bebitda\b", "ebitda depreciation amortization operating income"),
    _c(r"\brevenues?\b|top\s+line", "revenue net sales"),
    _c(r"\bnet\s+sales\b", "revenue"),
    _c(r"\bm\s*&\s*a\b|merger|acquisition|acquired|acquire", "acquisitions divestitures acquired"),
    _c(
        r"legal\s+(battles?|matters?|proceedings?|disputes?)|litigation|lawsuits?",
        "legal proceedings litigation",
        items=("3",),
    ),
    _c(r"geograph|regions?\b|international", "geographic regions international"),
    _c(r"risks?\b|risk\s+factors|cyclical", "risk", items=("1A",)),
    _c(r"segments?\b|business\s+units?|divisions?", "segment"),
    _c(r"\bceo\b|chief\s+executive", "chief executive officer appointed"),
    _c(r"\bcfo\b|chief\s+financial", "chief financial officer"),
    _c(r"bankrupt|liquidat|book\s+value", "total stockholders equity book value per share", (BS,)),
    _c(r"\bfx\b|foreign\s+(exchange|currency)", "currency foreign exchange"),
)


def expand(query: str) -> tuple[str, list[str], list[str]]:
    """(extra words, implied statements, implied 10-K Items) for a question."""
    words: list[str] = []
    statements: list[str] = []
    items: list[str] = []
    for concept in CONCEPTS:
        if concept.pattern.search(query):
            words.append(concept.words)
            statements.extend(s for s in concept.statements if s not in statements)
            items.extend(i for i in concept.items if i not in items)
    return " ".join(words), statements, items
