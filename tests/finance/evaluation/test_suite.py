"""The finance suite: it loads, covers the FinanceBench files, and is what the build writes."""

from __future__ import annotations

import json

import pytest

from agents.evaluation.generic import GENERIC_VERIFIERS
from agents.evaluation.spec import load_suite
from finance.evaluation import build_suite
from finance.evaluation.figures import read_reference, unit_kind
from finance.evaluation.kind import SUITE, verifiers
from tests.conftest import SHARED_DATA

FINANCE = SHARED_DATA / "finance"
needs_data = pytest.mark.skipif(
    not (FINANCE / "financebench_dev.jsonl").exists(), reason=f"shared data absent at {FINANCE}"
)


def _suite():
    return load_suite("finance", "finance", SUITE)


def _jsonl(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _all_questions():
    records = _jsonl(FINANCE / "financebench_dev.jsonl") + _jsonl(
        FINANCE / "devset/questions.jsonl"
    )
    return {q["financebench_id"]: q for q in records}


def test_the_suite_loads_with_known_checks_and_valid_parameters():
    suite = _suite()
    known = set(verifiers()) | set(GENERIC_VERIFIERS)  # the runner adds the generic checks
    assert len(suite.tasks) > 100
    for task in suite.tasks:
        assert task.inputs["documents"], task.id
        for check in task.checks:
            assert check.name in known, (task.id, check.name)
            if check.name == "numeric_answer":
                read_reference(check.params["reference"])
                unit_kind(check.params["unit"])
    floors = suite.floors
    assert set(floors) == {"quick", "full"} and all(0 < v <= 1 for v in floors.values())


def test_quick_tasks_are_few_and_not_known_failures():
    quick = _suite().select(quick=True)
    assert 4 <= len(quick) <= 8
    assert not [t.id for t in quick if t.known_failure]


@needs_data
def test_every_numeric_question_document_and_evidence_is_covered():
    questions = _all_questions()
    suite = _suite()
    generated = [t for t in suite.tasks if "paraphrase" not in t.tags]  # rewordings aside
    by_kind = {
        kind: {t.id for t in generated if kind in t.tags}
        for kind in ("numeric", "statements", "retrieval")
    }
    numeric = {q for q, r in questions.items() if build_suite.is_numeric(r)}
    assert {q for q, r in questions.items() if r["question_type"] == "metrics-generated"} <= numeric
    assert len(by_kind["numeric"]) == len(numeric)
    assert all(any(q.rsplit("_", 1)[-1] in t for t in by_kind["numeric"]) for q in numeric)
    documents = {r["doc_name"] for r in questions.values()}
    documents |= {d["doc_name"] for d in _jsonl(FINANCE / "devset/documents.jsonl")}
    documents |= {
        p.stem for folder in ("filings", "devset/docs") for p in (FINANCE / folder).glob("*.pdf")
    }
    assert by_kind["statements"] == {f"statements-{d}" for d in documents}
    with_evidence = [r for r in questions.values() if r["evidence"]]
    assert by_kind["retrieval"] == {
        f"retrieval-{build_suite.short_id(r)}-{r['doc_name']}" for r in with_evidence
    }
    pages = {t.id: t.checks[0].params["pages"] for t in suite.tasks if "retrieval" in t.tags}
    for record in with_evidence:
        task_id = f"retrieval-{build_suite.short_id(record)}-{record['doc_name']}"
        assert pages[task_id] == sorted({e["evidence_page_num"] for e in record["evidence"]})


@needs_data
def test_the_committed_suite_is_what_the_build_writes():
    files = build_suite.build(SHARED_DATA)
    build_suite.mark(files, build_suite.read_known_failures())
    for name, tasks in files.items():
        assert json.loads((SUITE / f"{name}.json").read_text()) == {"tasks": tasks}, name


def test_numeric_units_follow_the_question():
    unit = build_suite.reference_unit
    assert unit("What is the net PPNE? Answer in USD billions.", "$8.70") == "USD billions"
    assert unit("capital expenditure (in USD millions)", "$1577.00") == "USD millions"
    assert unit("How much ... in USD million?", "77.78") == "USD millions"
    assert unit("the D&A % margin", "4.2%") == "%"
    assert unit("fixed asset turnover ratio", "17.98") == "ratio"
