"""Uploading filings through the API and reading their canonical statements."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import SHARED_DATA

pytestmark = pytest.mark.django_db

FILINGS = SHARED_DATA / "finance" / "filings"
NETFLIX = FILINGS / "NETFLIX_2017_10K.pdf"
needs_filings = pytest.mark.skipif(
    not NETFLIX.exists(), reason=f"shared filings not found at {FILINGS}"
)


def upload(client, workspace, name, data):
    return client.post(
        f"/api/v1/finance/workspaces/{workspace.pk}/documents",
        {"file": SimpleUploadedFile(name, data)},
        format="multipart",
    )


@needs_filings
def test_a_filing_uploads_once_and_serves_its_statements(alice, alice_api, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    data = NETFLIX.read_bytes()
    first = upload(alice_api, workspace, "NETFLIX_2017_10K.pdf", data)
    assert first.status_code == 201, first.json()
    document = first.json()
    assert document["pages"] > 60 and document["sections"]
    again = upload(alice_api, workspace, "copy.pdf", data)
    assert again.status_code == 200 and again.json()["id"] == document["id"]  # the same bytes

    response = alice_api.get(f"/api/v1/finance/documents/{document['id']}/statements")
    assert response.status_code == 200
    statements = response.json()
    assert statements["document"] == "NETFLIX_2017_10K.pdf" and statements["unit"] == "millions"
    revenue = statements["income_statement"]["revenue"]["FY2017"]
    assert revenue["value"] == pytest.approx(11692.713) and revenue["page"] == 41
    listed = alice_api.get(f"/api/v1/finance/workspaces/{workspace.pk}/documents").json()
    assert [item["id"] for item in listed] == [document["id"]]


@needs_filings
def test_another_users_documents_do_not_exist(alice, bob_api, alice_api, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    document = upload(alice_api, workspace, "n.pdf", NETFLIX.read_bytes()).json()
    for url in (
        f"/api/v1/finance/documents/{document['id']}",
        f"/api/v1/finance/documents/{document['id']}/statements",
        f"/api/v1/finance/workspaces/{workspace.pk}/documents",
    ):
        response = bob_api.get(url)
        assert response.status_code == 404 and "detail" in response.json()
    assert upload(bob_api, workspace, "x.pdf", b"%PDF-1.4").status_code == 404


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.pdf", b"", "empty"),
        ("notes.pdf", b"just some text, not a filing", "not a PDF"),
        ("half.pdf", b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n", "truncated"),
    ],
)
def test_unreadable_files_are_refused_and_nothing_is_kept(
    alice, alice_api, make_workspace, name, data, reason
):
    from finance.models import Document

    workspace = make_workspace(alice, kind="finance")
    response = upload(alice_api, workspace, name, data)
    assert response.status_code == 400
    assert reason in response.json()["detail"]
    assert Document.objects.count() == 0


def test_a_studio_workspace_takes_no_filings(alice, alice_api, make_workspace):
    workspace = make_workspace(alice, kind="studio")
    assert upload(alice_api, workspace, "x.pdf", b"%PDF-").status_code == 404
