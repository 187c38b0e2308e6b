"""A run's note names what it left out and why, and a run that wrote the note never says it could
not, however long the note tool's result."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from agents.models import Event
from agents.runtime.compression import Compressor
from agents.services.runs import run_create
from finance.models import Document, Note
from finance.research.gather import analyse_document
from finance.research.plan import ResearchPlan
from finance.tools.research_tools import note_result
from tests.finance.uploads import needs_filings, ready_netflix_workspace

EIGHT_K = {
    "document": "NFLX_8K_2018.pdf",
    "company": "Netflix, Inc.",
    "doc_type": "8-K",
    "note": "an 8-K current report carries no financial statements",
    "currency": "USD",
    "unit": "millions",
    "fiscal_years": [],
    "income_statement": {},
    "balance_sheet": {},
    "cash_flow": {},
}


def test_a_document_without_statements_is_left_out_by_name_and_kind() -> None:
    document = SimpleNamespace(
        name="NFLX_8K_2018.pdf", company="Netflix, Inc.", kind="pdf", statements=EIGHT_K
    )
    found = analyse_document(document, ResearchPlan())  # type: ignore[arg-type]
    assert found == (
        "NFLX_8K_2018.pdf (Netflix, Inc., 8-K) was left out: "
        "an 8-K current report carries no financial statements"
    )


def test_a_long_note_result_is_shortened_below_the_compression_cap() -> None:
    result: dict[str, Any] = {
        "note_id": 3,
        "url": "/finance/notes/3/",
        "title": "Research note: Netflix, Inc.",
        "sections": [f"Section {n}" for n in range(40)],
        "analysed": [{"company": f"Company {n}", "ratios": {"FY2017": {}}} for n in range(6)],
        "cross_checks": [],
        "limits": [f"limit {n}: " + "x" * 200 for n in range(60)],
    }
    assert len(json.dumps(result)) > Compressor.observation_cap
    short = note_result(result)
    assert len(json.dumps(short)) < Compressor.observation_cap
    assert short["note_id"] == 3 and short["url"] == "/finance/notes/3/"
    assert short["limits"] == result["limits"][: len(short["limits"])]
    assert short["limits_not_shown"].endswith("more in the note")
    huge = {**result, "title": "t" * 10_000}
    assert set(note_result(huge)) == {"note_id", "url", "title", "not_shown"}
    small = {"note_id": 1, "url": "/n/1/", "title": "t", "limits": []}
    assert note_result(small) == small


@pytest.fixture
def workspace(alice, make_workspace, django_capture_on_commit_callbacks):
    return ready_netflix_workspace(alice, make_workspace, django_capture_on_commit_callbacks)


@pytest.mark.django_db
@needs_filings
def test_a_run_with_a_long_note_result_says_the_note_was_written(
    workspace, finish_run, monkeypatch
):
    from finance.research import gather as gathering
    from finance.tools import research_tools

    def long_gather(*args, **kwargs):
        findings = gathering.gather(*args, **kwargs)
        findings.limits.extend(f"part {n} could not be done: " + "why " * 40 for n in range(40))
        return findings

    monkeypatch.setattr(research_tools, "gather", long_gather)
    run = finish_run(run_create(workspace=workspace, prompt="Analyse this 10-K"))
    assert run.status == "succeeded", run.message
    note = Note.objects.get(run=run)
    assert "could not write the note" not in run.message
    assert f"/finance/notes/{note.pk}/" in run.message
    results = Event.objects.filter(run=run, type="tool.result", payload__name="write_note")
    assert results.get().payload["ok"] is True
    compressed = Event.objects.filter(run=run, type="observation.compressed")
    assert not [e for e in compressed if e.payload["tool"] == "write_note"]
    # Every limit is still in the note's last section.
    limits = note.body["sections"][-1]
    assert limits["id"] == "limits" and len(limits["blocks"][0]["items"]) >= 40


@pytest.mark.django_db
@needs_filings
def test_the_note_names_documents_it_left_out_and_why(workspace, finish_run):
    Document.objects.create(
        workspace=workspace,
        name="NFLX_8K_2018.pdf",
        sha256="8" * 64,
        company="Netflix, Inc.",
        pages=3,
        statements=EIGHT_K,
    )
    Document.objects.create(
        workspace=workspace,
        name="broken.pdf",
        sha256="b" * 64,
        status=Document.Status.FAILED,
        message="the PDF is encrypted",
    )
    run = finish_run(run_create(workspace=workspace, prompt="Analyse this 10-K"))
    assert run.status == "succeeded", run.message
    note = Note.objects.get(run=run)
    limits = note.body["sections"][-1]
    assert limits["heading"] == "What this note could not do"
    items = [item[0] for item in limits["blocks"][0]["items"]]
    assert (
        "NFLX_8K_2018.pdf (Netflix, Inc., 8-K) was left out: "
        "an 8-K current report carries no financial statements"
    ) in items
    assert "broken.pdf was left out: the PDF is encrypted" in items
    assert any(s["heading"] == "Netflix, Inc.: margins" for s in note.body["sections"])


def test_a_reason_that_names_the_document_is_not_repeated() -> None:
    from finance.research.gather import left_out

    found = {"doc_type": "other", "note": "minutes.pdf is not a financial filing (type: other)"}
    assert left_out("minutes.pdf", "minutes.pdf", found) == (
        "Left out: minutes.pdf is not a financial filing (type: other)"
    )
