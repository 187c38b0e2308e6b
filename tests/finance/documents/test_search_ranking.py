"""Search ranking as a user notices it, on small made-up page sets (no shared data needed)."""

from __future__ import annotations

import re

import pytest

from finance.documents.passages import page_passages, sentences
from finance.documents.query_terms import expand
from finance.documents.search import PageIndex, snippet, tokenize

PROSE = (
    "The Company operates in three segments. Revenue grew 4% in the year. "
    "In March the Company acquired Widget Co. for $1.2 billion in cash. "
    "The acquisition added two plants in Ohio. Management expects further growth. "
) * 3
CASH_FLOW = (
    "Consolidated Statements of Cash Flows\n(Millions) 2022 2021\n"
    "Net income 5,363 4,869\nDepreciation and amortization 1,488 1,544\n"
    "Purchases of property, plant and equipment (1,577) (1,373)\n"
)
BALANCE_SHEET = (
    "Consolidated Balance Sheets\n(Millions) 2022 2021\nCash and cash equivalents 3,655 4,564\n"
    "Accounts receivable 4,532 4,660\nTotal current assets 14,688 15,403\n"
    "Total current liabilities 9,523 9,035\n"
)
FILLER = "Our employees are committed to safety and to the communities where we work. " * 5


def _pages(hits):
    return [page for page, _, _ in hits]


def test_stemming_matches_word_forms():
    index = PageIndex([FILLER, "We completed three acquisitions during the year.", FILLER])
    assert _pages(index.search("What companies were acquired?", k=1)) == [1]
    index = PageIndex([FILLER, "Widget Co. was acquired in March.", FILLER])
    assert _pages(index.search("major acquisitions", k=1)) == [1]
    assert tokenize("Expenditures") == tokenize("expenditure")


def test_named_statement_page_ranks_first():
    pages = [PROSE, FILLER + " Capital expenditure plans are discussed below.", CASH_FLOW]
    index = PageIndex(pages, {"cash_flow": 2, "balance_sheet": None})
    query = "What is the FY2022 capex? Answer from the cash flow statement."
    assert _pages(index.search(query, k=3))[0] == 2


def test_a_metric_brings_its_statement_into_the_top_hits():
    pages = [FILLER] * 6 + [BALANCE_SHEET] + [PROSE] * 3
    index = PageIndex(pages, {"balance_sheet": 6})
    hits = index.search("Has the quick ratio improved between FY2022 and FY2021?", k=5)
    assert 6 in _pages(hits)
    scores = [score for _, score, _ in hits]
    assert scores == sorted(scores, reverse=True)


def test_a_metric_finds_its_statement_by_title_when_the_index_does_not_know_it():
    pages = [FILLER] * 4 + [BALANCE_SHEET] + [FILLER] * 4
    hits = PageIndex(pages).search("Is the quick ratio healthy?", k=5)
    assert 4 in _pages(hits)


def test_item_named_by_concept_is_favoured():
    pages = [
        "Item 1. Business. We make packaging.",
        "Litigation risk exists in the industry generally, and lawsuits are a cost of business.",
        "Item 3. Legal Proceedings. We are a defendant in several lawsuits about packaging.",
    ]
    items = [
        {"item": "1", "title": "Business", "start_page": 0, "end_page": 1},
        {"item": "3", "title": "Legal Proceedings", "start_page": 2, "end_page": 2},
    ]
    hits = PageIndex(pages, items=items).search("Any important ongoing legal battles?", k=2)
    assert _pages(hits)[0] == 2


def test_hits_are_distinct_pages_best_first():
    pages = [PROSE, FILLER, PROSE.replace("acquired", "bought"), FILLER]
    hits = PageIndex(pages).search("acquired Widget Co. acquisition plants", k=5)
    assert len(_pages(hits)) == len(set(_pages(hits)))
    assert _pages(hits)[0] == 0
    scores = [score for _, score, _ in hits]
    assert scores == sorted(scores, reverse=True)


def test_within_restricts_the_pages():
    pages = [PROSE, FILLER, PROSE]
    assert _pages(PageIndex(pages).search("acquired Widget", k=5, within=range(2, 3))) == [2]


def _is_sentence_start(text: str, part: str) -> bool:
    at = text.find(part)
    return at == 0 or text[:at].rstrip().endswith((".", "!", "?"))


def test_snippet_is_whole_sentences_around_the_query():
    hits = PageIndex([FILLER, PROSE + FILLER]).search("Which company was acquired?", k=1)
    text = hits[0][2]
    assert "acquired Widget Co." in text and len(text) <= 300
    assert text[0].isupper() and text.endswith(".")
    assert _is_sentence_start(re.sub(r"\s+", " ", PROSE + FILLER), text)


def test_snippet_of_a_table_cuts_at_a_word():
    table = " ".join(f"Line {i} {i * 1000:,}" for i in range(200))
    text = snippet(table, tokenize("150,000"), width=120)
    assert "Line 150 150,000" in text and len(text) <= 124
    assert text.startswith("… ") and text.endswith(" …")


def test_sentences_keep_abbreviations_and_cut_tables():
    assert sentences("Acme Inc. bought U.S. assets. Sales rose.") == [
        "Acme Inc. bought U.S. assets.",
        "Sales rose.",
    ]
    table = " ".join(["1,234"] * 300)
    assert all(len(s) <= 400 for s in sentences(table)) and len(sentences(table)) > 1


def test_passages_overlap_and_cover_the_page():
    passages = page_passages(3, PROSE * 3)
    assert len(passages) > 2 and all(p.page == 3 for p in passages)
    assert passages[1].first < passages[0].first + len(sentences(passages[0].text))
    assert passages[-1].text.endswith("growth.")


@pytest.mark.parametrize("query", ["", "   ", "the of and", "zebra quokka", "?!%$#", "\x00\ufffd"])
def test_empty_or_garbage_queries_return_nothing(query):
    index = PageIndex([PROSE, CASH_FLOW], {"cash_flow": 1})
    assert index.search(query, k=5) == []


def test_degenerate_indexes():
    assert PageIndex([]).search("revenue") == []
    assert PageIndex(["", "   "]).search("revenue") == []
    assert PageIndex([PROSE]).search("revenue", k=0) == []


def test_expand_reads_financial_vocabulary():
    words, statements, _ = expand("What is the capex?")
    assert "property plant equipment" in words and statements == ["cash_flow"]
    _, statements, _ = expand("Is it a capital-intensive business?")
    assert set(statements) == {"income_statement", "balance_sheet", "cash_flow"}
    _, _, items = expand("Any legal battles?")
    assert items == ["3"]
    _, statements, _ = expand("How many times has the company sold its inventory in FY2022?")
    assert set(statements) == {"income_statement", "balance_sheet"}
    assert expand("hello") == ("", [], [])
