"""The finance panel on a workspace page: upload box, documents with their links, notes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import Resolver404, resolve, reverse

from finance.models import Document, Note
from tests.finance.uploads import media_root, needs_filings, netflix, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "netflix", "upload"]  # fixtures


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@needs_filings
def test_a_finance_workspace_shows_its_filings_and_notes(alice, netflix):
    workspace = Document.objects.get(pk=netflix["id"]).workspace
    note = Note.objects.create(workspace=workspace, title="Netflix: content spend", body={})

    html = logged_in(alice).get(f"/workspaces/{workspace.pk}/").content.decode()

    assert 'id="finance-panel"' in html and 'type="file"' in html and "finance/panel.js" in html
    assert "NETFLIX_2017_10K.pdf" in html and "Netflix, Inc." in html and "73 pages" in html
    assert f'href="/finance/documents/{netflix["id"]}/pages/41/">Income statement p. 42</a>' in html
    assert "Balance sheet p. 45" in html and "Cash flow p. 44" in html
    assert f'href="/api/v1/finance/documents/{netflix["id"]}/statements">Statements' in html
    assert f'href="/finance/notes/{note.pk}/">Netflix: content spend</a>' in html
    assert f'href="/api/v1/finance/notes/{note.pk}.md">Markdown' in html
    assert f'href="/api/v1/finance/notes/{note.pk}.pdf">PDF' in html
    assert f'data-socket-path="/ws/finance/workspaces/{workspace.pk}/documents/"' in html


def test_a_studio_workspace_has_no_finance_panel(alice, make_workspace):
    workspace = make_workspace(alice, kind="studio")

    html = logged_in(alice).get(f"/workspaces/{workspace.pk}/").content.decode()

    assert "finance-panel" not in html and "panel.js" not in html


def test_processing_and_failed_documents_show_their_state(alice, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    Document.objects.create(
        workspace=workspace, name="big.pdf", sha256="1" * 64, status="processing",
        progress=0.31, message="Reading page 120 of 392",
    )  # fmt: skip
    Document.objects.create(
        workspace=workspace, name="scan.pdf", sha256="2" * 64, status="failed", progress=0,
        message="no text layer: this looks like a scanned document",
    )  # fmt: skip

    html = logged_in(alice).get(f"/finance/workspaces/{workspace.pk}/documents/").content.decode()

    assert 'class="fin-doc-progress" max="1" value="0.310"' in html
    assert "Reading page 120 of 392" in html and "Processing" in html
    assert "no text layer: this looks like a scanned document" in html and "Failed" in html
    assert "Income statement" not in html  # no links before a document is ready


def test_the_document_list_of_another_user_does_not_exist(alice, bob, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    assert logged_in(bob).get(f"/finance/workspaces/{workspace.pk}/documents/").status_code == 404


def test_note_routes_reach_the_note_views():
    assert reverse("finance-note-page", args=[7]) == "/finance/notes/7/"
    assert reverse("finance-note-download", kwargs={"note_id": 7}) == "/api/v1/finance/notes/7"
    assert (
        reverse("finance-note-download", kwargs={"note_id": 7, "fmt": "pdf"})
        == "/api/v1/finance/notes/7.pdf"
    )


def test_note_urls_resolve_to_the_note_views_with_their_format():
    from finance import note_views

    page = resolve("/finance/notes/7/")
    markdown = resolve("/api/v1/finance/notes/7.md")
    plain = resolve("/api/v1/finance/notes/7")

    assert page.func is note_views.note_page and page.kwargs == {"note_id": 7}
    assert markdown.func is note_views.note_download
    assert markdown.kwargs == {"note_id": 7, "fmt": "md"}
    assert plain.kwargs == {"note_id": 7, "fmt": "json"}
    with pytest.raises(Resolver404):
        resolve("/api/v1/finance/notes/7.exe")
