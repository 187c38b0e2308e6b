"""Locate 10-K Items and the three primary financial statements by page (0-indexed).

Works on plain page texts (as produced by `finance.documents.ingest`). Text from PDF converters
is noisy: words are split ("Incom e", "Balance Shee t"), spaces are non-breaking, headings may or
may not say "Consolidated". So headings are compared after *squashing*: lower case, every
non-alphanumeric character removed ("Consolidated Balance Shee t" -> "consolidatedbalancesheet").

Rules:
* Items: a line that starts with "Item 1A." (etc.) is a heading. Pages that list many Items (the
  table of contents, the Part IV index) are skipped. Items are taken in document order: each Item
  starts at the first heading for it that is not before the previous Item's start.
* Statements: the first page of each, as the statement extraction locates it
  (`finance.statements.locate`: the title in the page's head, many numbers, no table of
  contents), so search and extraction agree on where the statements are.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from finance.statements.locate import locate_statements

STATEMENTS = ("income_statement", "balance_sheet", "cash_flow")

_ITEM_LINE = re.compile(r"^\s*item[\s\u00a0]*(\d{1,2}[a-c]?)\b\.?[\s\u00a0]*(.*)$", re.IGNORECASE)
_ENDS_IN_PAGE_NUMBER = re.compile(r"\s\d{1,3}$")
_TOC_ENTRY_END = re.compile(r"(\d|not\s+applicable|none|\([a-z]\))\s*$", re.IGNORECASE)
ITEM_ORDER = (
    "1", "1a", "1b", "1c", "2", "3", "4", "5", "6", "7", "7a", "8", "9", "9a", "9b", "9c",
    "10", "11", "12", "13", "14", "15", "16",
)  # fmt: skip


def squash(text: str) -> str:
    """Lower case with every non-alphanumeric character removed."""
    return re.sub(r"[^0-9a-z]+", "", text.lower())


@dataclass
class ItemSpan:
    item: str  # "1", "1A", "7", ...
    title: str
    start_page: int
    end_page: int  # inclusive


@dataclass
class Sections:
    items: list[ItemSpan] = field(default_factory=list)
    statements: dict[str, int | None] = field(default_factory=dict)
    toc_pages: list[int] = field(default_factory=list)

    def item(self, name: str) -> ItemSpan | None:
        for span in self.items:
            if span.item.lower() == name.lower():
                return span
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": [asdict(s) for s in self.items],
            "statements": dict(self.statements),
            "toc_pages": list(self.toc_pages),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Sections:
        return cls(
            items=[ItemSpan(**s) for s in data.get("items", [])],
            statements=dict(data.get("statements", {})),
            toc_pages=list(data.get("toc_pages", [])),
        )


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.replace("\u00a0", " ").splitlines() if ln.strip()]


def _item_headings(text: str) -> list[tuple[str, str]]:
    out = []
    for line in _lines(text):
        m = _ITEM_LINE.match(line)
        if not m or m.group(1).lower() not in ITEM_ORDER:
            continue
        title = m.group(2).strip(" .:-\u2014\u2013")  # dashes: em, en
        # A heading's title starts with a capital ("Item 8. Financial Statements"), or the line
        # is just "Item 8". Cross-references ("Item 8 of Part II", "Item 7, ...") do not.
        if title and not title[0].isupper():
            continue
        if title.lower().startswith(("of ", "and ", "in ", "to ")) or len(title) > 160:
            continue
        out.append((m.group(1).upper(), title))
    return out


def _is_toc_page(text: str) -> bool:
    """A table of contents listing Items with page numbers (not a page of short Items)."""
    lines = _lines(text)
    item_lines = [ln for ln in lines if _ITEM_LINE.match(ln)]
    distinct = len({item for item, _ in _item_headings(text)})
    if distinct < 5:
        return False
    if distinct >= 9:  # no content page carries nine Item headings; a list of them does
        return True
    # Entries end in a page number, or in "Not applicable" / "None" / a footnote mark.
    numbered = sum(1 for ln in item_lines if _TOC_ENTRY_END.search(ln))
    return numbered * 2 >= len(item_lines) or any(squash(ln) == "page" for ln in lines)


def _is_index_page(text: str) -> bool:
    """A table of contents / index of statements / Part IV list, not content."""
    if _is_toc_page(text):
        return True
    head = squash(" ".join(_lines(text)[:6]))
    if "indextoconsolidatedfinancialstatements" in head or "indextofinancialstatements" in head:
        return True
    # Lines ending in a page number, many of them: an index.
    lines = _lines(text)
    if len(lines) >= 6:
        ending = sum(1 for ln in lines if _ENDS_IN_PAGE_NUMBER.search(ln) and ln[:1].isalpha())
        if ending / len(lines) > 0.5 and "statement" in squash(text):
            return True
    return False


def locate_items(pages: list[str], toc: set[int]) -> list[ItemSpan]:
    starts: list[tuple[str, str, int]] = []
    order = {name: k for k, name in enumerate(ITEM_ORDER)}
    last_rank, last_page = -1, 0
    for i, text in enumerate(pages):
        if i in toc:
            continue
        for item, title in _item_headings(text):
            rank = order[item.lower()]
            if rank > last_rank and i >= last_page:
                starts.append((item, title, i))
                last_rank, last_page = rank, i
    spans = []
    for k, (item, title, start) in enumerate(starts):
        end = starts[k + 1][2] if k + 1 < len(starts) else len(pages) - 1
        # The next Item may begin on the same page; otherwise this one ends the page before.
        if k + 1 < len(starts) and end > start:
            end -= 1
        spans.append(ItemSpan(item=item, title=title, start_page=start, end_page=max(start, end)))
    return spans


def locate_sections(pages: list[str]) -> Sections:
    toc = {i for i, text in enumerate(pages) if _is_toc_page(text)}
    return Sections(
        items=locate_items(pages, toc),
        statements={
            name: (found[0] if found else None)
            for name, found in locate_statements(pages).as_dict().items()
        },
        toc_pages=sorted(toc),
    )
