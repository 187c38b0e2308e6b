"""Which documents a request is about: named by ticker or company (fuzzy); one ticker is
never applied to every document."""

from __future__ import annotations

from finance.planner.intent import read_intent
from finance.planner.policy import ResearchPlanner, _chosen

READY = [
    {"id": 1, "name": "PEPSICO_2022_10K.pdf", "company": "PepsiCo, Inc.", "ticker": "PEP",
     "fiscal_years": ["FY2022", "FY2021"]},
    {"id": 2, "name": "KO-annual.pdf", "company": "The Coca-Cola Company", "ticker": "KO",
     "fiscal_years": ["FY2022", "FY2021"]},
    {"id": 3, "name": "report.pdf", "company": "Johnson & Johnson", "ticker": "JNJ",
     "fiscal_years": ["FY2022", "FY2021"]},
]  # fmt: skip


def ids(request: str) -> list[int]:
    return [d["id"] for d in _chosen(READY, request)]


def test_a_ticker_or_a_company_picks_its_own_document():
    assert ids("cross-check PEP against SEC data") == [1]
    assert ids("how did pepsi's margins change?") == [1]
    assert ids("compare coca cola and J&J capex 2021-2022") == [2, 3]


def test_a_request_naming_no_company_is_about_every_document():
    assert ids("analyse these filings") == [1, 2, 3]


def test_each_document_is_cross_checked_with_its_own_ticker():
    intent = read_intent("cross-check KO and PEP with SEC XBRL")
    chosen = _chosen(READY, "cross-check KO and PEP with SEC XBRL")
    assert [d["id"] for d in chosen] == [1, 2]
    checks = [
        args
        for _, tool, args, _ in ResearchPlanner().steps(intent, chosen)
        if tool == "cross_check"
    ]
    assert [(c["document_id"], c.get("ticker")) for c in checks] == [(1, "PEP"), (2, "KO")]
