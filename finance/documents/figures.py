"""Pages of figures (tables), and the questions that ask for figures.

A filing prints the numbers an analyst asks for in tables: a segment results table, revenue by
region or by product category, a summary of financial performance in MD&A, a sales bridge in an
earnings release. Words about the metric ("segment results are presented on a managed basis")
sit on the pages around them, and plain BM25 often prefers that prose: a table repeats its row
labels once and spends the rest of the page on numbers. Here a page's *table share* is measured
(the share of its text lines that read as rows of figures, not sentences that quote a figure
or two), and a question is read for whether
it asks for figures ("how much", "which segment had the highest ...", "has the rate changed")
and for a breakdown (by segment, region, category, product, quarter ...), so that `search.py`
can let table pages gain for such questions, and the tables by that breakdown gain more.
Questions that do not ask for figures (legal matters, geographies a company operates in, who
its customers are) are left to the words: their answers are prose.
"""

from __future__ import annotations

import re

_FIGURE = re.compile(r"(?<![a-z0-9])\(?\$?\d[\d,]*(?:\.\d+)?(?![a-z])", re.I)
MIN_FIGURES = 2  # figures on a line that make it a table row ...
ROW_SHARE = 0.4  # ... when they are this share of its words and figures (not a sentence's)
TABLE_PAGE = 0.4  # table share from which a page is a table page

_ASKS_FIGURES = re.compile(
    r"\bhow\s+(much|many)\b|\bwhat\s+(is|was|were|are)\s+the\s+(amount|total|value|number)\b|"
    r"\b(highest|lowest|largest|smallest|biggest|best|worst|most|least|top)\b|"
    r"\b(chang|increas|decreas|drop|declin|grow|growth|grew|rose|fell|improv)\w*|"
    r"\b(rate|ratio|margin|percent\w*|share|proportion)\b|%|"
    r"\b(revenues?|sales|income|earnings|profit|expenses?|costs?|debt|cash|ebitda|eps|assets|"
    r"liabilities|equity|dividends?|inventor(y|ies)|expenditures?|capex|amount|total|usd|"
    r"dollars?|millions?|billions?)\b",
    re.I,
)
_BREAKDOWN = re.compile(
    r"\b(segments?|regions?|regional|geograph\w*|categor\w*|products?|divisions?|countr\w*|"
    r"markets?|quarters?|brands?|franchises?|channels?)\b",
    re.I,
)
_WORD = re.compile(r"[a-z]+", re.I)


def is_row(line: str) -> bool:
    """Whether a text line reads as a row of a table of figures ("Net sales 3,909 3,673")."""
    figures = len(_FIGURE.findall(line))
    if figures < MIN_FIGURES:
        return False
    return figures >= ROW_SHARE * (figures + len(_WORD.findall(line)))


def table_share(text: str) -> float:
    """The share of the non-empty lines of `text` that are table rows (`is_row`)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return 0.0
    return sum(1 for line in lines if is_row(line)) / len(lines)


def asks_for_figures(query: str) -> bool:
    """Whether a question asks for a figure, a comparison of figures or a change in one."""
    return bool(_ASKS_FIGURES.search(query))


def breakdown_words(query: str) -> list[str]:
    """The breakdown a question compares across ("which segment ...", "by region"), as said."""
    return [m.group(0).lower() for m in _BREAKDOWN.finditer(query)]
