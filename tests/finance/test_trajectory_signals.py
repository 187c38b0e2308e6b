"""Finance's trajectory signals: each question the research answered, with its page."""

from __future__ import annotations

import json

import pytest
from django.core.files.base import ContentFile

from agents.models import Artifact, Run, RunMessage
from agents.services.runs import run_create
from finance.services.documents import document_upload
from tests.agents.helpers import TWO_SUMS
from tests.agents.trajectory_checks import add_event, assert_openai_chat
from tests.finance.uploads import NETFLIX, needs_filings

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture(autouse=True)
def offline(settings):
    settings.MODEL_BASE_URL = ""
    settings.MODEL_NAME = ""


@pytest.fixture
def finished(alice, make_workspace, finish_run):
    return finish_run(run_create(workspace=make_workspace(alice, kind="finance"), prompt=TWO_SUMS))


def search(run: Run, call_id: str, query: str, *, state_content: str) -> None:
    """Record a search_document call whose event keeps only a truncated preview."""
    arguments = {"document_id": 1, "query": query, "k": 3}
    call = {"id": call_id, "name": "search_document", "arguments": arguments}
    add_event(run, "tool.call", call)
    preview = {"id": call_id, "name": "search_document", "ok": True, "truncated": True}
    add_event(run, "tool.result", {**preview, "content": state_content[:20]})
    message = {"role": "tool", "tool_call_id": call_id, "content": state_content}
    position = RunMessage.objects.filter(run=run).count()
    RunMessage.objects.create(run=run, position=position, body=message)


def test_each_sub_question_is_reported_answered_or_not_with_its_page(finished, alice_api):
    hits = {"hits": [{"page": 11, "page_label": "p. 12", "snippet": "We compete for..."}]}
    search(finished, "search-1-1", "competition", state_content=json.dumps(hits))
    search(finished, "search-1-2", "dividends", state_content=json.dumps({"hits": []}))
    # A long result compressed out of the context: its artifact holds the whole output.
    whole = json.dumps({"hits": [{"page": 3, "page_label": "p. 4", "snippet": "x" * 5000}]})
    artifact = Artifact.objects.create(
        run=finished, ref="art_search13", kind="observation", name="search.txt"
    )
    artifact.file.save("search.txt", ContentFile(whole.encode()))
    search(finished, "search-1-3", "risk factors", state_content="[compressed] 5000 characters")
    compressed = {"tool_call_id": "search-1-3", "artifact": artifact.ref}
    add_event(finished, "observation.compressed", compressed)
    plan = {"document_ids": [1], "questions": ["competition", "dividends", "debt covenants"]}
    add_event(finished, "tool.call", {"id": "note", "name": "write_note", "arguments": plan})

    record = alice_api.get(f"{API}/runs/{finished.pk}/trajectory").json()

    questions = [s for s in record["signals"] if s["type"] == "sub_question"]
    assert [(s["question"], s["answered"], s["page"]) for s in questions] == [
        ("competition", True, 11),
        ("dividends", False, None),
        ("risk factors", True, 3),
        ("debt covenants", False, None),
    ]
    assert questions[0]["page_label"] == "p. 12"


@needs_filings
def test_a_research_run_reports_each_question_it_answered_with_its_page(
    alice, make_workspace, finish_run, alice_api, django_capture_on_commit_callbacks
):
    space = make_workspace(alice, name="Research", kind="finance")
    with django_capture_on_commit_callbacks(execute=True):
        document_upload(workspace=space, data=NETFLIX.read_bytes(), filename=NETFLIX.name)
    prompt = "What does the filing say about competition? And what does it say about dividends?"
    run = finish_run(run_create(workspace=space, prompt=prompt))
    assert run.status == "succeeded", run.message

    record = alice_api.get(f"{API}/runs/{run.pk}/trajectory").json()

    questions = [s for s in record["signals"] if s["type"] == "sub_question"]
    assert [(s["question"], s["answered"]) for s in questions] == [
        ("competition", True),
        ("dividends", True),
    ]
    for signal in questions:  # the page the answer quotes for the question
        assert isinstance(signal["page"], int)
        assert f"{signal['question']} (NETFLIX_2017_10K.pdf {signal['page_label']})" in run.message
    assert_openai_chat(record)
