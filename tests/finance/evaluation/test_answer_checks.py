"""numeric_answer, cited_page_prints_value and declined read what the run submitted with
submit_answer, never its wording."""

from __future__ import annotations

import pytest

from finance.evaluation.answer_checks import cited_page_prints_value, declined, numeric_answer
from tests.finance.evaluation.factories import answer_events, make_context, submission_events

pytestmark = pytest.mark.django_db
NAME = "SYNTH_2020_10K"
REFERENCE = {"document": NAME, "reference": "$1.00", "unit": "USD billions"}


def _context(workspace, document, **answer):
    return make_context(
        workspace, {document.name: document}, events=answer_events(document, **answer)
    )


def test_a_right_value_passes_across_units(workspace, document):
    verdict = numeric_answer(_context(workspace, document), REFERENCE)
    assert verdict.passed, verdict.reason
    assert verdict.outputs["value"] == 1.0 and verdict.outputs["tolerance"] == 0.5


def test_a_wrong_value_fails_with_the_difference(workspace, document):
    params = {**REFERENCE, "reference": "$1000.00", "unit": "USD millions"}
    verdict = numeric_answer(_context(workspace, document, value=1001.0), params)
    assert not verdict.passed
    assert "off by 1" in verdict.reason and "$1000.00" in verdict.reason


def test_a_ratio_is_not_money(workspace, document):
    verdict = numeric_answer(_context(workspace, document, value=0.5, unit="ratio"), REFERENCE)
    assert not verdict.passed and "cannot compare" in verdict.reason


def test_a_text_only_answer_fails_even_when_its_text_is_right(workspace, document):
    context = make_context(
        workspace,
        {document.name: document},
        result={"result": {"text": "$1bn", "answers": [{"value": 1000, "unit": "USD millions"}]}},
    )
    verdict = numeric_answer(context, REFERENCE)
    assert not verdict.passed and "submitted no answer" in verdict.reason


def test_a_submission_the_tool_refused_does_not_count_and_the_last_accepted_does(
    workspace, document
):
    [(_, call), _] = answer_events(document, value=1000.0)
    refused = submission_events(call["arguments"] | {"answers": []}, ok=False, call_id="a0")
    wrong = answer_events(document, value=5.0)
    right = [(kind, payload | {"id": "a2"}) for kind, payload in answer_events(document)]
    context = make_context(workspace, {document.name: document}, events=refused + wrong + right)
    assert numeric_answer(context, REFERENCE).passed
    context = make_context(workspace, {document.name: document}, events=right + wrong)
    assert not numeric_answer(context, REFERENCE).passed  # the later one counts


def test_declined_passes_a_could_not_with_its_reason_and_fails_an_answer(workspace, document):
    said = submission_events({"could_not": "a bank's balance sheet has no current assets"})
    verdict = declined(make_context(workspace, {document.name: document}, events=said), {})
    assert verdict.passed and "current assets" in verdict.outputs["reason"]

    verdict = declined(_context(workspace, document), {})
    assert not verdict.passed and "answered 1,000 USD millions" in verdict.reason
    nothing = make_context(workspace, {document.name: document}, result={"text": "could not"})
    assert not declined(nothing, {}).passed  # saying it is not submitting it


def test_a_could_not_is_no_numeric_answer(workspace, document):
    said = submission_events({"could_not": "the filing has no such line"})
    verdict = numeric_answer(
        make_context(workspace, {document.name: document}, events=said), REFERENCE
    )
    assert not verdict.passed and "could not answer" in verdict.reason


def test_the_cited_page_prints_the_value(workspace, document):
    verdict = cited_page_prints_value(_context(workspace, document), {"document": NAME})
    assert verdict.passed, verdict.reason
    assert verdict.outputs["found"] == {"total assets FY2020": "p. 2: $ 1,000"}


def test_a_page_that_does_not_print_it_fails(workspace, document):
    verdict = cited_page_prints_value(_context(workspace, document, page=0), {"document": NAME})
    assert not verdict.passed
    assert "not printed on p. 1" in verdict.reason


def test_a_computed_value_is_checked_by_its_inputs(workspace, document):
    inputs = [
        {"label": "revenue FY2020", "value": 2000.0, "unit": "USD millions", "page": 0},
        {"label": "PP&E FY2020", "value": 500.0, "unit": "USD millions", "page": 1},
    ]
    context = _context(workspace, document, value=4.0, unit="ratio", page=0, inputs=inputs)
    assert cited_page_prints_value(context, {"document": NAME}).passed
    inputs[1]["page"] = 0  # PP&E is on the balance sheet, not the income statement
    context = _context(workspace, document, value=4.0, unit="ratio", page=0, inputs=inputs)
    verdict = cited_page_prints_value(context, {"document": NAME})
    assert not verdict.passed and verdict.reason.startswith("PP&E FY2020 500")
