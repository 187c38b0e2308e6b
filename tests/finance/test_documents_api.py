"""Uploading filings through the API: background ingestion, statements, refusals, deletion."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

from finance.models import Document
from finance.services.documents import cache_dir
from tests.finance.uploads import (
    APPLE_HTML,
    NETFLIX,
    encrypted_pdf,
    image_only_pdf,
    media_root,
    needs_filings,
    netflix,
    upload,
)

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "netflix", "upload"]  # fixtures


def stored_files() -> list[Path]:
    root = Path(settings.MEDIA_ROOT) / "finance" / "documents"
    return [path for path in root.glob("*") if path.is_file()] if root.exists() else []


@needs_filings
def test_a_filing_is_ingested_with_its_statements_and_pages(alice_api, netflix):
    assert netflix["pages"] == 73 and netflix["progress"] == 1.0 and netflix["message"] == ""
    assert netflix["company"] == "Netflix, Inc." and netflix["title"]
    assert netflix["sections"]["statements"]["income_statement"] == 41

    response = alice_api.get(f"/api/v1/finance/documents/{netflix['id']}/statements")

    assert response.status_code == 200
    statements = response.json()
    assert statements["document"] == "NETFLIX_2017_10K.pdf" and statements["unit"] == "millions"
    revenue = statements["income_statement"]["revenue"]["FY2017"]
    assert revenue["value"] == pytest.approx(11692.713) and revenue["page"] == 41
    stored = Document.objects.get(pk=netflix["id"])
    assert stored.statements == statements  # extracted once, at ingestion


@needs_filings
def test_the_same_bytes_again_return_the_document_without_a_second_ingestion(
    alice, alice_api, netflix, upload, monkeypatch
):
    from finance.services import ingestion

    calls: list[int] = []
    monkeypatch.setattr(ingestion, "document_ingest", lambda **kw: calls.append(kw))
    workspace = Document.objects.get(pk=netflix["id"]).workspace

    again = upload(alice_api, workspace, "copy.pdf", NETFLIX.read_bytes())

    assert again.status_code == 200 and again.json()["id"] == netflix["id"]
    assert again.json()["status"] == "ready" and calls == []  # at once, already ingested
    listed = alice_api.get(f"/api/v1/finance/workspaces/{workspace.pk}/documents").json()
    assert [item["id"] for item in listed] == [netflix["id"]]
    assert {"status", "progress", "message", "company", "title"} <= set(listed[0])


@needs_filings
def test_an_sec_html_filing_gets_statements_from_its_inline_xbrl(
    alice, alice_api, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, "aapl-20240928.htm", APPLE_HTML.read_bytes())

    assert response.status_code == 202
    document = response.after
    assert document["status"] == "ready" and document["kind"] == "html" and document["pages"] > 10
    statements = alice_api.get(f"/api/v1/finance/documents/{document['id']}/statements")
    assert statements.status_code == 200
    body = statements.json()
    assert body["income_statement"]["revenue"]["FY2024"]["value"] == 391035
    assert body["fiscal_years"][0] == "FY2024"


@needs_filings
def test_an_html_page_without_xbrl_has_no_statements_and_says_why(
    alice, alice_api, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")
    page = b"<html><body>" + b"<p>Annual report of a small company.</p>" * 20 + b"</body></html>"

    response = upload(alice_api, workspace, "report.html", page)

    assert response.after["status"] == "ready"
    statements = alice_api.get(f"/api/v1/finance/documents/{response.after['id']}/statements")
    assert statements.status_code == 400 and "inline XBRL" in statements.json()["detail"]


@needs_filings
def test_delete_removes_the_document_and_its_file(alice_api, netflix):
    assert len(stored_files()) == 1

    response = alice_api.delete(f"/api/v1/finance/documents/{netflix['id']}")

    assert response.status_code == 204
    assert not Document.objects.exists() and stored_files() == []
    assert alice_api.get(f"/api/v1/finance/documents/{netflix['id']}").status_code == 404
    # Nothing parsed from it is kept either.
    for kept in ("documents", "statements"):
        assert not (cache_dir(kept) / f"{netflix['sha256']}.json").exists()


@needs_filings
def test_the_same_filing_elsewhere_reuses_its_text_and_statements(
    alice, alice_api, make_workspace, upload, netflix, monkeypatch
):
    from finance.statements import cache

    def must_not_run(*args, **kwargs):
        raise AssertionError("the statements were extracted a second time")

    monkeypatch.setattr(cache, "extract_statements", must_not_run)
    other = make_workspace(alice, name="Second", kind="finance")
    response = upload(alice_api, other, "netflix-copy.pdf", NETFLIX.read_bytes())
    assert response.after["status"] == "ready", response.after
    statements = alice_api.get(f"/api/v1/finance/documents/{response.after['id']}/statements")
    assert statements.json()["document"] == "netflix-copy.pdf"
    assert statements.json()["income_statement"]["revenue"]["FY2017"]["value"] == 11692.713


@needs_filings
def test_another_users_documents_do_not_exist(alice, bob_api, netflix, upload):
    workspace = Document.objects.get(pk=netflix["id"]).workspace
    base = f"/api/v1/finance/documents/{netflix['id']}"
    for url in (
        base,
        f"{base}/statements",
        f"{base}/pages/0",
        f"{base}/pages/0.png",
        f"/api/v1/finance/workspaces/{workspace.pk}/documents",
    ):
        response = bob_api.get(url)
        assert response.status_code == 404 and "detail" in response.json(), url
    assert bob_api.delete(base).status_code == 404 and Document.objects.exists()
    assert upload(bob_api, workspace, "x.pdf", NETFLIX.read_bytes()).status_code == 404


def half_of_netflix() -> bytes:
    data = NETFLIX.read_bytes()
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.pdf", lambda: b"", "empty"),
        ("notes.pdf", lambda: b"just some text, not a filing", "not a PDF"),
        ("random.pdf", lambda: bytes(range(256)) * 40, "not a PDF"),
        ("half.pdf", half_of_netflix, "truncated"),
        ("locked.pdf", encrypted_pdf, "encrypted"),
        ("sheet.xlsx", lambda: b"PK\x03\x04 spreadsheet", "unsupported file type '.xlsx'"),
        ("noextension", lambda: b"%PDF-1.4", "unsupported file type"),
        ("page.html", lambda: b"%PDF-1.4 pretending", "not HTML"),
        ("prices.csv", lambda: bytes(range(256)) * 4, "binary data"),
        ("prices.csv", lambda: b"Date,Close\n", "no data rows"),
        ("prices.csv", lambda: "Date,Prix\n2024-01-02,\xe9t\xe9\n".encode("latin-1"), "not UTF-8"),
    ],
)
def test_unreadable_files_are_refused_and_nothing_is_kept(
    alice, alice_api, make_workspace, upload, name, data, reason
):
    if name == "half.pdf" and not NETFLIX.exists():
        pytest.skip(f"shared filings not found at {NETFLIX.parent}")
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, name, data())

    assert response.status_code == 400
    assert reason in response.json()["detail"]
    assert Document.objects.count() == 0 and stored_files() == []


def test_a_csv_data_file_is_listed_with_its_columns_and_read_by_page(
    alice, alice_api, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")
    rows = "\n".join(f"2024-01-{day:02d},{100 + day}.5" for day in range(1, 31))
    response = upload(alice_api, workspace, "prices.csv", f"Date,Close\n{rows}\n".encode())

    document = response.after
    assert response.status_code == 202 and document["status"] == "ready"
    assert document["kind"] == "csv" and document["pages"] == 1
    assert document["sections"] == {"columns": ["Date", "Close"], "rows": 30}
    page = alice_api.get(f"/api/v1/finance/documents/{document['id']}/pages/0").json()
    assert page["text"].startswith("rows 1-30 of 30\nDate,Close\n2024-01-01,101.5")
    image = alice_api.get(f"/api/v1/finance/documents/{document['id']}/pages/0.png")
    assert image.status_code == 404 and "CSV files have no page images" in image.json()["detail"]


@needs_filings
def test_limits_on_size_and_pages_are_explained(alice, alice_api, make_workspace, upload, settings):
    workspace = make_workspace(alice, kind="finance")
    settings.FINANCE_MAX_PAGES = 50
    pages = upload(alice_api, workspace, "n.pdf", NETFLIX.read_bytes())
    settings.FINANCE_MAX_UPLOAD_BYTES = 100_000
    size = upload(alice_api, workspace, "n.pdf", NETFLIX.read_bytes())

    assert pages.status_code == 400 and pages.json()["detail"] == (
        "the PDF has 73 pages; the limit is 50"
    )
    assert size.status_code == 400 and "larger than" in size.json()["detail"]
    assert Document.objects.count() == 0 and stored_files() == []


def test_an_image_only_pdf_fails_with_the_reason_and_keeps_no_file(
    alice, alice_api, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, "scan.pdf", image_only_pdf())

    assert response.status_code == 202
    document = response.after
    assert document["status"] == "failed" and "no text layer" in document["message"]
    assert document["sections"] == {} and document["pages"] == 0
    assert stored_files() == []
    statements = alice_api.get(f"/api/v1/finance/documents/{document['id']}/statements")
    assert statements.status_code == 409 and "no text layer" in statements.json()["detail"]


def test_a_failed_upload_of_the_same_bytes_is_tried_again(
    alice, alice_api, make_workspace, upload, monkeypatch
):
    from finance.services import ingestion

    workspace = make_workspace(alice, kind="finance")
    data = image_only_pdf()
    first = upload(alice_api, workspace, "scan.pdf", data).after
    monkeypatch.setattr(ingestion, "parse", fake_parse)

    second = upload(alice_api, workspace, "scan.pdf", data)

    assert second.status_code == 202 and second.json()["id"] != first["id"]
    assert first["status"] == "failed" and second.after["status"] == "ready"
    assert second.after["pages"] == 1
    assert list(Document.objects.values_list("pk", flat=True)) == [second.json()["id"]]


def fake_parse(document, data, reporter):
    from finance.documents.ingest import ParsedDocument

    return ParsedDocument(sha256=document.sha256, pages=["text " * 10], page_count=1), None


def test_an_unexpected_error_fails_the_document_with_a_short_message(
    alice, alice_api, make_workspace, upload, monkeypatch, caplog
):
    from finance.services import ingestion

    def explode(document, data, reporter):
        raise RuntimeError("pdfium exploded in a way nobody should see")

    monkeypatch.setattr(ingestion, "parse", explode)
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, "scan.pdf", image_only_pdf())

    assert response.status_code == 202
    document = response.after
    assert document["status"] == "failed" and "internal error" in document["message"]
    assert "exploded" not in document["message"] and "exploded" in caplog.text
    assert stored_files() == []


def test_statements_of_a_document_still_processing_are_a_conflict(
    alice, alice_api, make_workspace, monkeypatch
):
    from finance.services import document_upload, documents

    monkeypatch.setattr(documents, "document_enqueue", lambda document_id: None)
    workspace = make_workspace(alice, kind="finance")
    document, created = document_upload(
        workspace=workspace, data=image_only_pdf(), filename="scan.pdf"
    )

    response = alice_api.get(f"/api/v1/finance/documents/{document.pk}/statements")

    assert created and document.status == "processing"
    assert response.status_code == 409 and "still being processed" in response.json()["detail"]
    listed = alice_api.get(f"/api/v1/finance/documents/{document.pk}").json()
    assert listed["status"] == "processing" and listed["progress"] == 0.0


def test_a_studio_workspace_takes_no_filings(alice, alice_api, make_workspace, upload):
    workspace = make_workspace(alice, kind="studio")
    assert upload(alice_api, workspace, "x.pdf", b"%PDF-").status_code == 404


def test_a_file_that_takes_too_long_to_read_fails_saying_so(
    alice, alice_api, make_workspace, upload, monkeypatch, settings
):
    from celery.exceptions import SoftTimeLimitExceeded

    from finance.services import ingestion

    def too_slow(document, data, reporter):
        raise SoftTimeLimitExceeded()

    settings.CELERY_TASK_SOFT_TIME_LIMIT = 600
    monkeypatch.setattr(ingestion, "parse", too_slow)
    workspace = make_workspace(alice, kind="finance")

    response = upload(alice_api, workspace, "long.pdf", image_only_pdf())

    document = response.after
    assert document["status"] == "failed"
    assert document["message"] == "reading the file ran past the 600 s time limit"
    assert stored_files() == []
