"""Page children are shared fairly: a host draws at most FINANCE_PAGE_CHILDREN pages at once and
a person at most one, so one person's burst of page requests cannot start dozens of children (up
to FINANCE_RENDER_MEMORY_MB each) nor keep everyone else's page from being drawn."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from django.conf import settings

from agents.host_slots import host_slot
from tests.finance.pdf_bombs import huge_page_pdf
from tests.finance.uploads import media_root, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "upload"]  # fixtures


@pytest.fixture(autouse=True)
def own_var(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    settings.FINANCE_PAGE_WAIT_SECONDS = 0.3
    settings.FINANCE_PAGE_CHILDREN = 2


def slots(name: str) -> Path:
    return Path(settings.VAR_DIR) / "slots" / name


def a_pdf(client, owner, make_workspace, upload, size: int) -> int:
    workspace = make_workspace(owner, kind="finance")
    document = upload(client, workspace, f"page-{size}.pdf", huge_page_pdf(size)).after
    assert document["status"] == "ready", document
    return int(document["id"])


def page(client, document_id: int):
    return client.get(f"/api/v1/finance/documents/{document_id}/pages/0.png?scale=1")


def test_a_persons_second_page_waits_for_their_first_then_is_told_to_retry(
    alice, alice_api, make_workspace, upload
):
    mine = a_pdf(alice_api, alice, make_workspace, upload, 600)
    with host_slot(slots(f"page-children-user-{alice.pk}"), 1):  # their first page, being drawn
        started = time.monotonic()
        response = page(alice_api, mine)
        waited = time.monotonic() - started

    assert response.status_code == 429
    body = response.json()
    assert body["quota"] == "page_children" and body["retry_after"] >= 1
    assert response["Retry-After"] == str(body["retry_after"])
    assert 0.25 < waited < 3  # it waited its turn for a moment, then answered
    assert page(alice_api, mine).status_code == 200  # the slot free again: drawn


def test_someone_elses_page_is_drawn_while_one_person_holds_a_slot(
    alice, bob, alice_api, bob_api, make_workspace, upload
):
    theirs = a_pdf(bob_api, bob, make_workspace, upload, 700)
    with (
        host_slot(slots(f"page-children-user-{alice.pk}"), 1),
        host_slot(slots("page-children"), 2),  # alice's page takes one of the host's two
    ):
        response = page(bob_api, theirs)

    assert response.status_code == 200 and response["Content-Type"] == "image/png"


def test_no_more_children_than_the_host_allows(alice, bob, bob_api, make_workspace, upload):
    theirs = a_pdf(bob_api, bob, make_workspace, upload, 800)
    with host_slot(slots("page-children"), 2), host_slot(slots("page-children"), 2):
        response = page(bob_api, theirs)

    assert response.status_code == 429
