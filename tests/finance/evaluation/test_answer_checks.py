"""numeric_answer and cited_page_prints_value read the run's structured answer."""

from __future__ import annotations

import pytest

from finance.evaluation.answer_checks import cited_page_prints_value, numeric_answer
from tests.finance.evaluation.factories import answer_result, make_context

pytestmark = pytest.mark.django_db
NAME = "SYNTH_2020_10K"
REFERENCE = {"document": NAME, "reference": "$1.00", "unit": "USD billions"}


def _context(workspace, document, **answer):
    return make_context(
        workspace, {document.name: document}, result=answer_result(document, **answer)
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


def test_a_text_only_answer_fails(workspace, document):
    context = make_context(workspace, {document.name: document}, result={"result": "about $1bn"})
    verdict = numeric_answer(context, REFERENCE)
    assert not verdict.passed and "not structured" in verdict.reason


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
