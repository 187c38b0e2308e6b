"""evidence_retrieved reads what the run's own searches returned."""

from __future__ import annotations

import pytest

from finance.evaluation.retrieval_checks import evidence_retrieved, result_pages
from tests.finance.evaluation.factories import make_context, search_events

pytestmark = pytest.mark.django_db
NAME = "SYNTH_2020_10K"


def test_evidence_among_the_top_pages_passes(workspace, document):
    context = make_context(
        workspace, {document.name: document}, events=search_events(document, 3, 1)
    )
    verdict = evidence_retrieved(context, {"document": NAME, "pages": [3], "k": 5})
    assert verdict.passed, verdict.reason
    assert verdict.outputs["retrieved"] == [1, 3]


def test_evidence_below_k_or_not_retrieved_fails(workspace, document):
    context = make_context(
        workspace, {document.name: document}, events=search_events(document, 1, 3)
    )
    verdict = evidence_retrieved(context, {"document": NAME, "pages": [3], "k": 1})
    assert not verdict.passed and "p. 4 not among the top 1" in verdict.reason


def test_a_run_that_never_searched_fails(workspace, document):
    context = make_context(workspace, {document.name: document})
    verdict = evidence_retrieved(context, {"document": NAME, "pages": [3]})
    assert not verdict.passed and verdict.reason == f"the run did not search {document.name}"


def test_pages_are_read_from_a_cut_preview_too():
    assert result_pages('{"hits": [{"page": 12, "snippet": "a"}, {"page": 40, "sni') == (12, 40)
