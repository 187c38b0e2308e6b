"""Finance tasks through the real harness: prepare, the run, the verifiers (shared filings)."""

from __future__ import annotations

import pytest

from agents.evaluation.runner import run_task
from agents.evaluation.session import inline_tasks
from agents.evaluation.spec import load_suite
from finance.evaluation.kind import SUITE
from tests.finance.uploads import needs_filings

pytestmark = [pytest.mark.django_db, needs_filings]


def _task(task_id):
    return next(t for t in load_suite("finance", "finance", SUITE).tasks if t.id == task_id)


def test_a_statements_task_passes_on_a_real_filing():
    with inline_tasks():
        record = run_task(_task("statements-NETFLIX_2017_10K"))
    assert record.status == "passed", record.reason
    assert [c.check for c in record.checks] == [
        "run_status", "statements_years", "accounting_identities", "core_lines",
    ]  # fmt: skip
    totals = record.key_outputs["state"]["documents"]["NETFLIX_2017_10K"]
    assert totals["total_assets"]["FY2017"] == pytest.approx(19012.742)


def test_a_missing_input_skips_the_task(settings, monkeypatch, tmp_path):
    monkeypatch.setenv("SHARED_DATA", str(tmp_path))
    record = run_task(_task("statements-NETFLIX_2017_10K"))
    assert record.status == "skipped" and "finance/filings/NETFLIX_2017_10K.pdf" in record.reason


def test_a_metric_question_is_answered_structured_and_cited():
    with inline_tasks():
        record = run_task(_task("numeric-03029-3M_2018_10K"))
    assert record.status == "passed", record.reason
    answer = record.key_outputs["state"]["answers"][0]
    assert answer == {
        "value": 1577.0,
        "unit": "USD millions",
        "document": "3M_2018_10K",
        "page": 59,
    }


def test_a_question_is_searched_and_its_evidence_judged():
    with inline_tasks():
        record = run_task(_task("retrieval-03029-3M_2018_10K"))
    assert record.status == "passed", record.reason
    retrieved = next(c for c in record.checks if c.check == "evidence_retrieved")
    assert 59 in retrieved.verdict.outputs["retrieved"]
