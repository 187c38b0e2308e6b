"""A document is never left "processing" for good: a failed send, a lost message or a killed
worker is recovered by the sweeper, two workers never read one file at once, and a file that
keeps stopping its worker fails with the reason instead of coming back for ever."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from agents.services.sweeper import SWEEP_LOCK, sweep_pass
from finance.models import Document
from finance.services.ingestion import document_ingest
from finance.services.rescue import documents_rescue_stalled
from tests.finance.uploads import media_root, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "upload"]  # fixtures
PRICES = b"Date,Close\n2024-01-02,101.5\n2024-01-03,102\n2024-01-04,103.25\n"


@pytest.fixture(autouse=True)
def own_caches(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    cache.delete(SWEEP_LOCK)


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, kind="finance")


def stored(workspace, **fields: Any) -> Document:
    """A processing document as a worker would have left it."""
    defaults: dict[str, Any] = {"status": "processing", "progress": 0.0, "message": "Queued"}
    return Document.objects.create(
        workspace=workspace, name="prices.csv", sha256=f"{Document.objects.count():064d}",
        kind="csv", **(defaults | fields),
    )  # fmt: skip


def ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def test_an_upload_whose_send_fails_is_accepted_then_sent_by_the_sweeper(
    alice_api, workspace, upload, broker, django_capture_on_commit_callbacks
):
    response = upload(alice_api, workspace, "prices.csv", PRICES)

    assert response.status_code == 202, response.content
    document = Document.objects.get(pk=response.json()["id"])
    assert document.status == "processing" and document.enqueued_at is None
    with django_capture_on_commit_callbacks(execute=True):
        assert sweep_pass()["documents"] == [document.pk]
    assert broker.sent == [("finance.ingest_document", (document.pk,))]


def test_a_document_whose_worker_died_is_sent_again_once(workspace, broker, settings):
    settings.FINANCE_INGEST_STALL_SECONDS = 120
    dead = stored(workspace, enqueued_at=ago(200), heartbeat_at=ago(150), attempts=1)
    broker.failures = 0

    assert documents_rescue_stalled() == [dead.pk]
    dead.refresh_from_db()
    assert dead.message == "Queued again"
    assert documents_rescue_stalled() == []  # sent after its worker's last beat: waiting now


def test_work_that_is_alive_or_merely_waiting_is_left_alone(workspace, settings):
    settings.FINANCE_INGEST_STALL_SECONDS = 120
    settings.AGENT_REQUEUE_SECONDS = 300
    stored(workspace, enqueued_at=ago(400), heartbeat_at=ago(10), attempts=1)  # being read
    stored(workspace, enqueued_at=ago(60))  # waiting in a busy queue
    stored(workspace, enqueued_at=ago(1), heartbeat_at=ago(500), attempts=1)  # just sent again
    stored(workspace, status="ready", enqueued_at=ago(900), heartbeat_at=ago(900))

    assert documents_rescue_stalled() == []


def test_a_message_lost_before_any_worker_began_is_sent_again(workspace, broker, settings):
    settings.AGENT_REQUEUE_SECONDS = 300
    broker.failures = 0
    lost = stored(workspace, enqueued_at=ago(301))

    assert documents_rescue_stalled() == [lost.pk]


def test_a_second_worker_does_not_read_a_file_another_is_reading(workspace, settings):
    settings.FINANCE_INGEST_STALL_SECONDS = 120
    held = stored(workspace, enqueued_at=ago(5), heartbeat_at=ago(5), attempts=1)

    assert document_ingest(document_id=held.pk) == "busy"
    held.refresh_from_db()
    assert held.status == "processing" and held.attempts == 1


def test_a_file_that_keeps_stopping_its_worker_fails_with_the_reason(workspace, settings):
    settings.FINANCE_INGEST_STALL_SECONDS = 120
    settings.FINANCE_INGEST_MAX_ATTEMPTS = 3
    bomb = stored(workspace, enqueued_at=ago(130), heartbeat_at=ago(125), attempts=3)

    assert document_ingest(document_id=bomb.pk) == "failed"
    bomb.refresh_from_db()
    assert bomb.status == "failed"
    assert "stopped its worker 3 times before it finished" in bomb.message
    assert documents_rescue_stalled() == []  # failed: never sent again


def test_an_ordinary_upload_is_read_once_by_one_worker(alice_api, workspace, upload):
    response = upload(alice_api, workspace, "prices.csv", PRICES)

    assert response.after["status"] == "ready"
    document = Document.objects.get(pk=response.json()["id"])
    assert document.attempts == 1 and document.enqueued_at is not None


def test_a_persons_second_document_waits_while_their_first_is_read(
    workspace, broker, alice, bob, make_workspace, settings, django_capture_on_commit_callbacks
):
    """One person's uploads cannot hold every worker: their second document is left for later
    (the worker takes the next task), while another person's document is read at once."""
    settings.FINANCE_INGEST_PER_USER = 1
    settings.FINANCE_INGEST_DEFER_SECONDS = 3
    broker.failures = 0
    stored(workspace, enqueued_at=ago(30), heartbeat_at=ago(2), attempts=1)  # being read
    second = stored(workspace, enqueued_at=ago(1))

    with django_capture_on_commit_callbacks(execute=True):
        assert document_ingest(document_id=second.pk) == "deferred"
    second.refresh_from_db()
    assert second.status == "processing" and second.attempts == 0  # not begun, not counted
    assert second.message == "Waiting for your other documents to be read"
    assert broker.sent == [("finance.ingest_document", (second.pk,))]
    assert broker.countdowns == [3]  # a moment later, not at once
    assert documents_rescue_stalled() == []  # sent again just now: not stalled

    theirs = stored(make_workspace(bob, kind="finance"), enqueued_at=ago(1))
    assert document_ingest(document_id=theirs.pk) != "deferred"


def test_a_document_waits_only_for_documents_really_being_read(workspace, broker, settings):
    settings.FINANCE_INGEST_PER_USER = 1
    stored(workspace, enqueued_at=ago(900), heartbeat_at=ago(600), attempts=1)  # worker died
    stored(workspace, enqueued_at=ago(5))  # queued, not begun
    mine = stored(workspace, enqueued_at=ago(1))

    assert document_ingest(document_id=mine.pk) != "deferred"
