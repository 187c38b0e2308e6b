"""Find the pages that hold the three primary statements, using pypdfium2 page texts."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Titles are matched on the page head with all whitespace removed ("Incom e" -> "income").
_TITLES: dict[str, re.Pattern[str]] = {
    "income_statement": re.compile(
        r"statements?of(consolidated)?(income|operations|earnings)(?!and)|incomestatements?"
    ),
    "balance_sheet": re.compile(r"balancesheets?|statements?of(consolidated)?financialposition"),
    "cash_flow": re.compile(r"statements?of(consolidated)?cashflows?|cashflowsstatements?"),
}
_REJECT_HEAD = re.compile(
    r"comprehensive|changesin|shareholders['\u2019]?equity|stockholders['\u2019]?equity|notesto|"
    r"selectedfinancial|reportofindependent|(selected)?quarterly(financial|results|data)"
)
_KEYWORDS: dict[str, tuple[str, ...]] = {
    "income_statement": (
        "net income",
        "net earnings",
        "revenue",
        "sales",
        "income tax",
        "per share",
        "operating",
        "cost of",
    ),
    "balance_sheet": (
        "total assets",
        "total current assets",
        "total liabilities",
        "total current liabilities",
        "equity",
        "accounts payable",
        "property",
        "cash and cash equivalents",
    ),
    "cash_flow": (
        "operating activities",
        "investing activities",
        "financing activities",
        "depreciation",
        "cash equivalents",
        "dividends",
        "net income",
    ),
}
_NUMBER = re.compile(r"\(?\d[\d,]*\d\)?")
HEAD_LINES = 8


@dataclass(frozen=True)
class StatementPages:
    income_statement: list[int]
    balance_sheet: list[int]
    cash_flow: list[int]

    def as_dict(self) -> dict[str, list[int]]:
        return {
            "income_statement": self.income_statement,
            "balance_sheet": self.balance_sheet,
            "cash_flow": self.cash_flow,
        }


def page_texts(source: str | bytes, limit: int | None = None) -> list[str]:
    """The text of each page (the first `limit` pages when given), with pypdfium2."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped,unused-ignore]

    pdf = pdfium.PdfDocument(source)
    try:
        texts: list[str] = []
        for i in range(len(pdf) if limit is None else min(limit, len(pdf))):
            page = pdf[i]
            textpage = page.get_textpage()
            texts.append(str(textpage.get_text_range()))
            textpage.close()
            page.close()
        return texts
    finally:
        pdf.close()


def _head(text: str) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    lines = [ln for ln in lines if ln.strip().lower() != "table of contents"]
    return re.sub(r"\s+", "", " ".join(lines[:HEAD_LINES])).lower()


_TITLE_LINE = 90
"""The most characters (whitespace removed) a line that is a statement's title has."""


def title_of(line: str) -> str | None:
    """The statement a line is the title of ("U.S. GAAP Condensed Consolidated Balance Sheets
    (Unaudited)"), or None: a short line that names it near its start and ends with it, or with
    notes in brackets ("Selected income statement data" names no statement's title)."""
    compact = re.sub(r"\s+", "", line).lower()
    if len(compact) > _TITLE_LINE or _REJECT_HEAD.search(compact):
        return None
    for statement, pattern in _TITLES.items():
        found = pattern.search(compact)
        if found is None or found.start() > 40:
            continue
        # Nothing after the title but notes in brackets: "(Unaudited)", "(continued)".
        rest = re.sub(r"\([^)]*\)", "", compact[found.end() :]).strip("-\u2013\u2014:,")
        if rest in ("", "continued"):
            return statement
    return None


def titled_below(text: str, statement: str) -> bool:
    """Whether a page's statement is titled below its head (`score_page`): its table starts at
    that title line, under another table."""
    return _TITLES[statement].search(_head(text)) is None


_BELOW_PENALTY = 10.0
"""A statement titled below another table on its page (a release's condensed balance sheet under
its cash flow statement) scores a little under one that heads its own page."""


def score_page(text: str, statement: str) -> float:
    """How much a page looks like the statement itself: its title in the page's head, or on a
    title line further down, where the statement starts below another table (0 when neither)."""
    head = _head(text)
    title = _TITLES[statement].search(head)
    if title is None:
        lines = text.splitlines()
        below = next((i for i, ln in enumerate(lines) if i and title_of(ln) == statement), None)
        if below is None:
            return 0.0
        rest = "\n".join(lines[below:])
        if _TITLES[statement].search(_head(rest)) is None:
            return 0.0
        return max(0.0, score_page(rest, statement) - _BELOW_PENALTY)
    # "Statements of Comprehensive Income", "Notes to ...": rejected. A balance sheet's head may
    # already show "stockholders' equity" rows, so there only words before the title count.
    window = head[: title.start()] if statement == "balance_sheet" else head[: title.end() + 40]
    if _REJECT_HEAD.search(window):
        return 0.0
    if re.search(r"\.{6,}", text) and len(re.findall(r"\.{6,}", text)) > 5:
        return 0.0  # table of contents with dot leaders
    lower = re.sub(r"\s+", " ", text.lower())
    numbers = len(_NUMBER.findall(text))
    if numbers < 15:
        return 0.0
    hits = sum(1 for kw in _KEYWORDS[statement] if kw in lower)
    return hits * 10.0 + min(numbers, 80) + (20.0 if title.start() < 80 else 0.0)


_CLOSING: dict[str, re.Pattern[str]] = {
    "income_statement": re.compile(r"per (common |ordinary )?share|weighted.average", re.I),
    "balance_sheet": re.compile(
        r"total liabilities,? (and|&) .{0,40}(equity|deficit|capital)|total equities", re.I
    ),
    "cash_flow": re.compile(r"end of (the )?(fiscal )?(year|period|quarter)", re.I),
}
"""A line a statement ends with: a page without it is carried on to the next."""


def _continues(text: str, statement: str, previous: str) -> bool:
    """Does `text` carry on the statement of the page before? "(continued)" in its head; or the
    page before lacks the statement's closing line and this one is more of the same table: its
    own title repeated (with no other statement's), or no title at all, just rows of numbers."""
    head = _head(text)
    if "continued" in head[:300]:
        return True
    if _CLOSING[statement].search(previous) or _REJECT_HEAD.search(head):
        return False
    titles = [name for name, title in _TITLES.items() if title.search(head)]
    if titles:
        return titles == [statement]
    return len(_NUMBER.findall(text)) >= 15


def locate_statements(texts: list[str]) -> StatementPages:
    found: dict[str, list[int]] = {}
    for statement in _TITLES:
        scored = [(score_page(t, statement), i) for i, t in enumerate(texts)]
        scored = [s for s in scored if s[0] > 0]
        if not scored:
            found[statement] = []
            continue
        best = max(scored, key=lambda s: (s[0], -s[1]))[1]
        pages = [best]
        nxt = best + 1
        if nxt < len(texts) and _continues(texts[nxt], statement, texts[best]):
            pages.append(nxt)
        found[statement] = _with_other_periods(texts, statement, pages)
    return StatementPages(**found)


def _with_other_periods(texts: list[str], statement: str, pages: list[int]) -> list[int]:
    """The pages and a neighbour that prints the same statement again under its own title: a
    release prints the quarter's statement of earnings and then the year to date's on the next
    page. Only a page whose head has this statement's title alone counts."""
    out = list(pages)
    for neighbour in (pages[0] - 1, pages[-1] + 1):
        if not 0 <= neighbour < len(texts) or neighbour in out:
            continue
        head = _head(texts[neighbour])
        titles = [name for name, title in _TITLES.items() if title.search(head)]
        if titles == [statement] and score_page(texts[neighbour], statement) > 0:
            out.append(neighbour)
    return sorted(out)
