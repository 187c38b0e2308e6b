"""Table-aware search as a user notices it: a question that asks for figures gets the table
that holds them, not the prose that talks about the metric (small made-up pages)."""

from __future__ import annotations

import pytest

from finance.documents import search
from finance.documents.figures import asks_for_figures, breakdown_words, table_share
from finance.documents.query_terms import expand
from finance.documents.search import PageIndex

SEGMENT_PROSE = (
    "Business segment results\n"
    "The Firm is managed on a business segment basis. There are four major reportable business\n"
    "segments: Consumer Banking, Investment Bank, Commercial Banking and Asset Management.\n"
    "Segment results are presented on a managed basis. Net revenue is generally recognized in\n"
    "the segment responsible for the related product, and revenue sharing between segments\n"
    "reflects the net revenue of joint transactions. Each segment reports net revenue, expense\n"
    "and net income as if it were a stand-alone business.\n"
)
SEGMENT_TABLE = (
    "Segment results - managed basis\n"
    "Three months ended March 31, Consumer Banking Investment Bank Commercial Banking\n"
    "(in millions) 2021 2020 Change 2021 2020 Change 2021 2020 Change\n"
    "Total net revenue $ 12,517 $ 13,287 (6) % $ 14,605 $ 10,003 46 % $ 2,393 $ 2,165 11 %\n"
    "Total noninterest expense 7,202 7,269 (1) 7,104 5,955 19 969 986 (2)\n"
    "Provision for credit losses (3,602) 5,772 NM (331) 1,401 NM (118) 1,010 NM\n"
    "Net income 6,728 197 NM 5,740 1,985 189 1,168 139 NM\n"
)
INCOME_STATEMENT = (
    "Consolidated statement of income\n(millions) 2023 2022 2021\n"
    "Total net revenue 33,119 29,010 27,100\nNet income 14,300 2,865 9,100\n"
    "Net income applicable to common stockholders 13,800 2,500 8,700\n"
    "Net income per share: basic 4.51 0.79 2.60\nNet income per share: diluted 4.50 0.78 2.59\n"
)
RESULTS_BY_SEGMENT = (
    "Results by segment\n(millions) Consumer Investment Commercial\n"
    "Total net revenue 12,517 14,605 2,393\nNet income 6,728 5,740 1,168\n"
    "Return on equity 54 % 27 % 19 %\n"
)
REGION_PROSE = (
    "Revenue in every region declined as demand for our vaccines fell from the pandemic peak.\n"
    "Revenue in the United States and in Europe was lower, and the drop in revenue in each\n"
    "region reflects lower government purchases. Revenue by region is discussed below.\n"
)
FILLER = "Our employees are committed to safety and to the communities where we work. " * 4


def _pages(hits: list[tuple[int, float, str]]) -> list[int]:
    return [page for page, _, _ in hits]


@pytest.fixture
def words_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Search as it ranks on words alone, without the table rule."""
    monkeypatch.setattr(search, "TABLE_BOOST", 0.0)
    monkeypatch.setattr(search, "BREAKDOWN_BOOST", 0.0)


def test_which_segment_question_gets_the_segment_table_not_the_segment_prose():
    index = PageIndex([FILLER, SEGMENT_PROSE, SEGMENT_TABLE, FILLER])
    hits = index.search("Which business segment had the lowest net revenue in 2021?", k=3)
    assert _pages(hits)[0] == 2


def test_on_words_alone_the_segment_prose_would_win(words_only: None):
    index = PageIndex([FILLER, SEGMENT_PROSE, SEGMENT_TABLE, FILLER])
    hits = index.search("Which business segment had the lowest net revenue in 2021?", k=3)
    assert _pages(hits)[0] == 1  # what the table rule corrects


def test_a_question_without_figures_keeps_the_prose_first():
    index = PageIndex([FILLER, SEGMENT_PROSE, SEGMENT_TABLE, FILLER])
    hits = index.search("How is the Firm organized into business segments?", k=3)
    assert _pages(hits)[0] == 1


def test_the_table_by_the_breakdown_asked_beats_a_table_that_only_repeats_the_metric(
    monkeypatch: pytest.MonkeyPatch,
):
    index = PageIndex([INCOME_STATEMENT, SEGMENT_PROSE, RESULTS_BY_SEGMENT, FILLER])
    question = "Which segment had the highest revenue in 2023?"
    assert _pages(index.search(question, k=3))[0] == 2
    monkeypatch.setattr(search, "BREAKDOWN_BOOST", 0.0)
    assert _pages(index.search(question, k=3))[0] == 0  # what the breakdown rule corrects


def test_a_breakdown_question_gets_its_table_first_and_the_statement_it_implies_next():
    pages = [INCOME_STATEMENT, SEGMENT_PROSE, RESULTS_BY_SEGMENT, FILLER]
    index = PageIndex(pages, {"income_statement": 0})
    hits = index.search("Which segment had the highest net income in 2023?", k=3)
    assert _pages(hits)[:2] == [2, 0]
    hits = index.search("How much net income did the Firm earn in 2023?", k=3)
    assert _pages(hits)[0] == 0


def test_scores_stay_best_first_with_tables_favoured():
    index = PageIndex([SEGMENT_PROSE, SEGMENT_TABLE, REGION_PROSE, RESULTS_BY_SEGMENT, FILLER])
    hits = index.search("How much did net revenue change in 2021?", k=5)
    scores = [score for _, score, _ in hits]
    assert scores == sorted(scores, reverse=True)


def test_table_share_tells_a_table_from_prose_that_quotes_figures():
    assert table_share(SEGMENT_TABLE) > 0.5
    prose = (
        "Net income was $1.2 billion in 2022 and $0.9 billion in 2021, an increase driven by\n"
        "higher volumes and by lower costs of 3% in the year, as discussed on pages 40 and 41.\n"
    )
    assert table_share(prose) == 0.0
    assert table_share("") == 0.0


def test_figure_questions_and_their_breakdown_are_recognised():
    assert asks_for_figures("How much has the effective tax rate changed?")
    assert asks_for_figures("Which segment had the highest net income?")
    assert not asks_for_figures("Who are the primary customers of the company?")
    assert not asks_for_figures("Has the company reported any ongoing legal battles?")
    assert breakdown_words("Which geographic region had the biggest drop?") == [
        "geographic",
        "region",
    ]
    assert breakdown_words("Is the business cyclical?") == []


def test_a_margin_question_prefers_the_md_and_a_discussion_to_the_same_words_in_the_notes():
    why = (
        "Gross margin decreased to 42.3% of sales from 43.1%, driven by higher costs of\n"
        "materials and freight, partly offset by price increases and a favourable mix.\n"
    )
    pages = [FILLER, "Note 12. Inventories. " + why, "Results of operations. " + why, FILLER]
    items = [
        {"item": "7", "title": "MD&A", "start_page": 2, "end_page": 2},
        {"item": "8", "title": "Financial Statements", "start_page": 1, "end_page": 1},
    ]
    hits = PageIndex(pages, items=items).search("What drove gross margin change in 2022?", k=3)
    assert _pages(hits)[0] == 2
    _, statements, items_implied = expand("How has the effective tax rate changed?")
    assert statements == ["income_statement"] and items_implied == ["7"]


def test_a_net_income_question_brings_the_income_statement_into_the_top_hits():
    prose = (
        "Net income rose in the year on one-time gains. Net income also reflects the sale of a\n"
        "business, and net income per share grew with it. Events outside our operations lifted\n"
        "net income, as discussed in the overview.\n"
    )
    pages = [prose, prose.replace("year", "quarter"), prose.replace("rose", "grew"), FILLER]
    pages.append(INCOME_STATEMENT)
    index = PageIndex(pages, {"income_statement": 4})
    hits = index.search("What events increased net income in 2021?", k=5)
    assert 4 in _pages(hits)[:3]
