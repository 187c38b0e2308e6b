"""Sections: 10-K Items by page and the three statement pages, checked against FinanceBench."""

from __future__ import annotations

import pytest

from finance.documents.sections import STATEMENTS, Sections, locate_sections
from tests.finance.documents.helpers import filing_ids, question

# FinanceBench questions whose evidence page is a primary statement (checked by hand): the
# evidence page numbers themselves are read from financebench_dev.jsonl (0-indexed).
STATEMENT_QUESTIONS = {
    "financebench_id_03029": ["cash_flow"],  # 3M capex
    "financebench_id_04672": ["balance_sheet"],  # 3M
    "financebench_id_08286": ["income_statement"],  # Amazon net income
    "financebench_id_04417": ["balance_sheet"],  # Best Buy inventories
    "financebench_id_00678": ["income_statement"],  # Boeing gross margin
    "financebench_id_00585": ["income_statement"],  # Boeing effective tax rate
    "financebench_id_04209": ["balance_sheet"],  # Costco total assets
    "financebench_id_05915": ["income_statement", "balance_sheet"],  # CVS fixed asset turnover
    "financebench_id_04700": ["income_statement"],  # Microsoft COGS
    "financebench_id_03282": ["balance_sheet"],  # Netflix current liabilities
    "financebench_id_03531": ["balance_sheet"],  # Nike current assets
}


@pytest.mark.parametrize("qid", sorted(STATEMENT_QUESTIONS))
def test_statement_pages_match_financebench_evidence(qid, parsed):
    row = question(qid)
    doc = parsed(row["doc_name"])
    located = doc.statement_pages
    evidence = sorted(e["evidence_page_num"] for e in row["evidence"])
    assert sorted(located[s] for s in STATEMENT_QUESTIONS[qid]) == evidence, (located, evidence)


@pytest.mark.parametrize("name", filing_ids())
def test_sections_sane_on_every_filing(name, parsed, all_filings):
    doc = parsed(name)
    sections = Sections.from_dict(doc.sections)
    items = [s.item for s in sections.items]
    for wanted in ("1", "1A", "7", "8"):
        assert wanted in items, (wanted, items)
    # Items are in document order, after the table of contents, and spans do not overlap.
    starts = [s.start_page for s in sections.items]
    assert starts == sorted(starts)
    assert min(starts) > max(sections.toc_pages, default=-1)
    for a, b in zip(sections.items, sections.items[1:], strict=False):
        assert a.end_page <= b.start_page
    item8 = sections.item("8")
    assert item8 is not None
    pages = sections.statements
    for statement in STATEMENTS:
        page = pages[statement]
        assert page is not None, (statement, pages)
        assert page >= item8.start_page
        item8_text = " ".join(doc.pages[item8.start_page : item8.end_page + 1]).lower()
        if "incorporated by reference" not in item8_text:  # else: after Part IV / an exhibit
            assert page <= item8.end_page, (statement, page, item8)
    # The three statements sit together.
    located = [p for p in pages.values() if p is not None]
    assert max(located) - min(located) <= 8
    # ... and each is a real statement page: numbers, not an index.
    for page in located:
        assert sum(ch.isdigit() for ch in doc.pages[page]) > 150


def test_handles_split_words_and_missing_consolidated():
    pages = [
        "Table of Contents\nItem 1. Business 3\nItem 1A. Risk Factors 9\nItem 7. MD&A 14\n"
        "Item 7A. Market Risk 40\nItem 8. Financial Statements 45\n",
        "Item 1. Business\nWe make things.",
        "Item 8. Financial Statements and Supplementary Data\nSee the Consolidated Balance Sheet.",
        "Acme Corp\nConsolidated Statement of Incom e\n"
        + "\n".join(f"Line {n} 1,{n:03d} 2,{n:03d}" for n in range(30)),
        "BALANCE SHEETS\n" + "\n".join(f"Asset {n} 3,{n:03d} 4,{n:03d}" for n in range(30)),
        "CASH FLOWS STATEMENTS\n" + "\n".join(f"Flow {n} 5,{n:03d} 6,{n:03d}" for n in range(30)),
        "Notes\nConsolidated Statements of Cash Flows\n" + "tiny 1 2",
    ]
    sections = locate_sections(pages)
    assert sections.toc_pages == [0]
    assert sections.statements == {"income_statement": 3, "balance_sheet": 4, "cash_flow": 5}
    assert [(s.item, s.start_page) for s in sections.items] == [("1", 1), ("8", 2)]
    assert Sections.from_dict(sections.to_dict()) == sections


def test_no_statements_in_plain_text():
    sections = locate_sections(["hello", "world"])
    assert sections.statements == dict.fromkeys(STATEMENTS)
    assert sections.items == []
