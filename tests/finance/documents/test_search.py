"""BM25 page search: FinanceBench evidence pages rank in the top 5."""

from __future__ import annotations

import pytest

from finance.documents.search import PageIndex, snippet, statements_named, tokenize
from tests.finance.documents.helpers import question
from tests.finance.documents.test_sections import STATEMENT_QUESTIONS


def _evidence(row):
    return {e["evidence_page_num"] for e in row["evidence"]}


# Plain BM25 (no section hints) finds these. Most FinanceBench questions cite a statement page,
# which is a table of numbers that plain BM25 ranks poorly; those need the statement hint below.
@pytest.mark.parametrize("qid", ["financebench_id_00494", "financebench_id_04209"])
def test_plain_bm25_top5(qid, parsed):
    row = question(qid)
    doc = parsed(row["doc_name"])
    hits = PageIndex(doc.pages).search(row["question"], k=5)
    assert _evidence(row) & {page for page, _, _ in hits}, hits
    assert [s for _, s, _ in hits] == sorted((s for _, s, _ in hits), reverse=True)


@pytest.mark.parametrize("qid", sorted(STATEMENT_QUESTIONS))
def test_statement_aware_search_top5(qid, parsed):
    row = question(qid)
    doc = parsed(row["doc_name"])
    if not statements_named(row["question"]):
        pytest.skip("the question does not name a statement")
    hits = PageIndex.for_document(doc).search(row["question"], k=5)
    assert _evidence(row) & {page for page, _, _ in hits}, hits


def test_search_basics():
    index = PageIndex(
        ["Revenue grew on iPhone sales.", "Capital expenditures were $1,577 million.", ""]
    )
    hits = index.search("capital expenditure", k=3)
    assert hits[0][0] == 1 and hits[0][1] > 0
    assert "Capital expenditures" in hits[0][2]
    assert index.search("the of and", k=3) == []  # only stop words
    assert index.search("zebra", k=3) == []  # unknown words
    assert PageIndex([]).search("revenue") == []


def test_tokenize_and_snippet():
    assert tokenize("Purchases of PP&E: $1,577") == ["purchas", "pp", "e", "1577"]  # stems
    assert tokenize("purchases") == tokenize("purchase") == tokenize("purchased")
    assert statements_named("shown in the cash flow statement") == ["cash_flow"]
    assert statements_named("what is in the balance sheet?") == ["balance_sheet"]
    text = "filler " * 100 + "total current liabilities were 5,466,312" + " filler" * 100
    snip = snippet(text, tokenize("current liabilities"))
    assert "current liabilities" in snip and len(snip) < 320
