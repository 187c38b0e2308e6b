"""Small files built to cost gigabytes: refused before the work, or stopped in their own child.

Issue 23, findings 1 and 3. Each bomb is sized to have cost gigabytes in the web process or the
worker; the test's own peak memory (ru_maxrss, which only grows) is measured around the request.
"""

from __future__ import annotations

import io
import resource
import time

import pytest
from PIL import Image

from tests.finance.pdf_bombs import flate_bomb_pdf, huge_page_pdf
from tests.finance.uploads import media_root, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "upload"]  # fixtures
MB = 1 << 20
GROWTH_MB = 150  # what a request may add to this process's peak (a bomb would add gigabytes)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def children_peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def assert_children_stayed_under(mb: float, *, before: float) -> None:
    """No child that ended since `before` (the largest child peak then) spent more than `mb`.

    The kernel keeps one figure, the largest peak of any child this process waited for, and a
    child's peak starts at this process's size when it was forked (the fork shares its pages
    until it runs the child's program): so a child may reach this process's own peak plus `mb`,
    or what an earlier child already reached, before it counts as having spent too much."""
    assert children_peak_mb() <= max(before, peak_mb() + mb)


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, kind="finance")


def test_a_page_200_inches_square_is_refused_at_upload(alice_api, workspace, upload):
    response = upload(alice_api, workspace, "huge.pdf", huge_page_pdf(14400))

    assert response.status_code == 400
    assert "200 x 200 inches" in response.json()["detail"]
    assert "50 inches" in response.json()["detail"]


def test_a_huge_page_renders_at_a_bounded_size_outside_the_web_process(
    alice_api, workspace, upload, settings
):
    settings.FINANCE_MAX_PAGE_INCHES = 500  # let the 200-inch page in, to render it
    document = upload(alice_api, workspace, "huge.pdf", huge_page_pdf(14400)).after
    assert document["status"] == "ready", document
    before, started, children = peak_mb(), time.monotonic(), children_peak_mb()

    response = alice_api.get(f"/api/v1/finance/documents/{document['id']}/pages/0.png?scale=3")

    seconds = time.monotonic() - started
    assert response.status_code == 200, response.content[:300]
    width, height = Image.open(io.BytesIO(response.content)).size
    assert width == height and width * height <= settings.FINANCE_PAGE_IMAGE_MAX_PIXELS
    assert width > 3900  # lowered to fit 16 MP, not to a thumbnail
    # 43200 x 43200 at scale 3 was a 5.6 GB bitmap in this process, 10-37 s.
    assert peak_mb() - before < GROWTH_MB and seconds < 10
    assert_children_stayed_under(600, before=children)


def test_a_page_that_cannot_be_rendered_is_a_422_with_the_reason(
    alice_api, workspace, upload, settings
):
    settings.FINANCE_MAX_PAGE_INCHES = 500
    # Other bytes than the test above, whose image is cached by content.
    document = upload(alice_api, workspace, "huge.pdf", huge_page_pdf(14399)).after
    settings.FINANCE_PAGE_IMAGE_MAX_PIXELS = 43200 * 43200  # no pixel bound: the child's memory
    settings.FINANCE_RENDER_MEMORY_MB = 512
    before = peak_mb()

    response = alice_api.get(f"/api/v1/finance/documents/{document['id']}/pages/0.png?scale=3")

    assert response.status_code == 422  # was an unhandled PdfiumError: a 500
    assert "more than its 512 MB of memory" in response.json()["detail"]
    assert peak_mb() - before < GROWTH_MB


def test_a_flate_bomb_fails_the_document_before_it_is_parsed(alice_api, workspace, upload):
    data = flate_bomb_pdf(pages=200, inflated=1 << 30)  # 1 MB: 200 pages of 1 GiB each
    before, started, children = peak_mb(), time.monotonic(), children_peak_mb()

    response = upload(alice_api, workspace, "bomb.pdf", data)

    seconds = time.monotonic() - started
    assert len(data) < 1.1 * MB and response.status_code == 202
    document = response.after
    assert document["status"] == "failed"
    assert "inflates past 64 MB" in document["message"]
    # It was ~2.3 s and ~2 GB a page, ~460 s for the document.
    assert seconds < 5 and peak_mb() - before < GROWTH_MB
    assert_children_stayed_under(600, before=children)


def test_a_bomb_past_the_scan_kills_only_its_own_child(alice_api, workspace, upload, settings):
    settings.FINANCE_MAX_STREAM_MB = 1024  # the scan lets a 512 MiB stream through
    settings.FINANCE_MAX_INFLATED_MB = 4096
    settings.FINANCE_PARSE_MEMORY_MB = 384
    before, started = peak_mb(), time.monotonic()

    document = upload(
        alice_api, workspace, "bomb.pdf", flate_bomb_pdf(pages=5, inflated=512 * MB)
    ).after

    assert document["status"] == "failed" and document["pages"] == 0
    assert "needed more than its 384 MB of memory" in document["message"]
    assert peak_mb() - before < GROWTH_MB and time.monotonic() - started < 10


def test_a_document_past_its_cpu_budget_per_page_fails_saying_so(
    alice_api, workspace, upload, settings
):
    settings.FINANCE_PARSE_CPU_SECONDS_BASE = 1
    settings.FINANCE_PARSE_CPU_SECONDS_PER_PAGE = 0.01
    data = flate_bomb_pdf(pages=100, inflated=48 * MB)  # under every byte bound; slow to draw
    started = time.monotonic()

    document = upload(alice_api, workspace, "slow.pdf", data).after

    assert document["status"] == "failed", document
    assert "took more than its time budget (1 s and 0.01 s a page of CPU)" in document["message"]
    assert time.monotonic() - started < 10


def stored_as_ready(workspace, data: bytes, sha: str):
    """A document read before the bounds existed: ready, nothing of it kept in the caches."""
    from django.core.files.base import ContentFile

    from finance.models import Document

    document = Document(workspace=workspace, name="old.pdf", sha256=sha, kind="pdf")
    document.status, document.pages = Document.Status.READY, 1
    document.file.save("old.pdf", ContentFile(data))
    return document


def test_a_bomb_ingested_before_the_bounds_cannot_take_the_web_process_down(
    alice_api, workspace, media_root
):
    document = stored_as_ready(workspace, flate_bomb_pdf(pages=1, inflated=1 << 30), "b" * 64)
    before, started = peak_mb(), time.monotonic()

    page = alice_api.get(f"/api/v1/finance/documents/{document.pk}/pages/0")
    image = alice_api.get(f"/api/v1/finance/documents/{document.pk}/pages/0.png")

    # Reading its text parsed the 1 GiB stream in this process: ~2 GB, then a 200.
    assert page.status_code == 422 and "MB of memory" in page.json()["detail"]
    assert image.status_code == 422 and "MB of memory" in image.json()["detail"]
    assert peak_mb() - before < GROWTH_MB and time.monotonic() - started < 10


def test_statements_of_a_bomb_are_refused_outside_the_web_process(alice_api, workspace, media_root):
    document = stored_as_ready(workspace, flate_bomb_pdf(pages=1, inflated=1 << 30), "c" * 64)
    before, started = peak_mb(), time.monotonic()

    response = alice_api.get(f"/api/v1/finance/documents/{document.pk}/statements")

    # pdfplumber read the 1 GiB stream in this process (pdfminer inflates it whole, in Python).
    assert response.status_code == 400 and "inflates past 64 MB" in response.json()["detail"]
    assert peak_mb() - before < GROWTH_MB and time.monotonic() - started < 10


def test_an_encrypted_flate_bomb_fails_before_it_is_parsed(alice_api, workspace, upload):
    data = flate_bomb_pdf(pages=200, inflated=1 << 30, encrypt=True)
    before, started = peak_mb(), time.monotonic()

    document = upload(alice_api, workspace, "bomb.pdf", data).after

    assert document["status"] == "failed" and "inflates past 64 MB" in document["message"]
    assert time.monotonic() - started < 5 and peak_mb() - before < GROWTH_MB
