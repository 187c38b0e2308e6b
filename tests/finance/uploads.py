"""Shared pieces of the document tests: real filings, bad files, and an upload through the API."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import SHARED_DATA
from tests.finance.pdf_bombs import write_pdf

FILINGS = SHARED_DATA / "finance" / "filings"
NETFLIX = FILINGS / "NETFLIX_2017_10K.pdf"
APPLE_HTML = FILINGS / "APPLE_2024_10K.html"
needs_filings = pytest.mark.skipif(
    not NETFLIX.exists(), reason=f"shared filings not found at {FILINGS}"
)
# Revenue FY2017 of Netflix, as extract_statements finds it (page 0-indexed, bbox in points).
REVENUE_PAGE = 41
REVENUE_BOX = (376.99, 127.0, 416.48, 135.77)


def encrypted_pdf() -> bytes:
    """A one-page PDF behind the standard security handler, whose user password is not empty.

    Neither pikepdf nor a PDF writer with encryption is installed; pdfium checks the /U entry
    against the empty password before anything else, so a hand-written trailer is enough.
    """
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        b"<< /Filter /Standard /V 1 /R 2 /O <"
        + b"41" * 32
        + b"> /U <"
        + b"42" * 32
        + b"> /P -44 >>",
    ]
    return write_pdf(objects, encrypt_ref=4)


def image_only_pdf() -> bytes:
    """A scanned-looking PDF: one page that is only a picture, no text layer."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (600, 800), "white")
    ImageDraw.Draw(image).rectangle((50, 50, 550, 120), fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PDF")
    return buffer.getvalue()


@pytest.fixture
def media_root(settings, tmp_path):
    """Stored files of this test only, so a test can see what is left in storage."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def upload(django_capture_on_commit_callbacks, media_root):
    """POST a file to a workspace's documents; queued tasks run (eagerly) as after a commit.

    The response is the one the client saw; `response.after` is the document once ingested.
    """

    def post(client, workspace, name, data):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/api/v1/finance/workspaces/{workspace.pk}/documents",
                {"file": SimpleUploadedFile(name, data)},
                format="multipart",
            )
        if response.status_code in (200, 202):
            response.after = client.get(f"/api/v1/finance/documents/{response.json()['id']}").json()
        return response

    return post


@pytest.fixture
def netflix(alice, alice_api, make_workspace, upload):
    """Netflix's 2017 10-K, uploaded by alice and ingested: the document JSON."""
    workspace = make_workspace(alice, kind="finance")
    response = upload(alice_api, workspace, "NETFLIX_2017_10K.pdf", NETFLIX.read_bytes())
    assert response.status_code == 202, response.json()
    assert response.json()["status"] == "processing" and response.json()["progress"] == 0.0
    assert response.after["status"] == "ready", response.after
    return response.after


def ready_netflix_workspace(owner, make_workspace, capture_on_commit):
    """A finance workspace holding the Netflix 10-K, ingested (on-commit tasks run in place)."""
    from finance.services.documents import document_upload

    space = make_workspace(owner, name="Research", kind="finance")
    with capture_on_commit(execute=True):
        document, _ = document_upload(
            workspace=space, data=NETFLIX.read_bytes(), filename=NETFLIX.name
        )
    document.refresh_from_db()
    assert document.status == "ready", document.message
    return space
