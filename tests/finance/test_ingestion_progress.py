"""Ingestion progress: written to the document, pushed to the workspace's group, throttled."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from finance.models import Document
from finance.services.progress import ProgressReporter, documents_group
from tests.finance.uploads import NETFLIX, media_root, needs_filings, upload

pytestmark = pytest.mark.django_db
__all__ = ["media_root", "upload"]  # fixtures


async def _listen(group):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def _drain(channel):
    layer = get_channel_layer()
    messages = []
    while True:
        try:
            messages.append(await asyncio.wait_for(layer.receive(channel), timeout=0.2))
        except TimeoutError:
            return messages


@needs_filings
def test_progress_events_reach_the_workspace_group_and_end_ready(
    alice, alice_api, make_workspace, upload
):
    workspace = make_workspace(alice, kind="finance")
    channel = async_to_sync(_listen)(documents_group(workspace.pk))

    document = upload(alice_api, workspace, "n.pdf", NETFLIX.read_bytes()).after
    events = async_to_sync(_drain)(channel)

    assert all(e["type"] == "document.progress" and e["document"] == document["id"] for e in events)
    progress = [e["progress"] for e in events]
    assert progress == sorted(progress) and 3 <= len(events) <= 20
    messages = [e["message"] for e in events]
    assert "Reading page 73 of 73" in messages and "Extracting statements" in messages
    assert events[-1] | {"type": None} == {
        "type": None,
        "document": document["id"],
        "progress": 1.0,
        "message": "",
        "status": "ready",
    }
    assert all(e["status"] == "processing" for e in events[:-1])


def test_a_failure_is_pushed_with_its_reason(alice, alice_api, make_workspace, upload):
    from tests.finance.uploads import image_only_pdf

    workspace = make_workspace(alice, kind="finance")
    channel = async_to_sync(_listen)(documents_group(workspace.pk))

    upload(alice_api, workspace, "scan.pdf", image_only_pdf())
    events = async_to_sync(_drain)(channel)

    assert events[-1]["status"] == "failed" and "no text layer" in events[-1]["message"]


def test_progress_writes_are_throttled_but_the_last_one_lands(alice, make_workspace, monkeypatch):
    from finance.services import progress

    workspace = make_workspace(alice, kind="finance")
    document = Document.objects.create(
        workspace=workspace, name="x.pdf", sha256="0" * 64, status="processing", progress=0
    )
    writes: list[float] = []
    save = progress.progress_save

    def counting(document, *, fields):
        writes.append(fields["progress"])
        save(document, fields=fields)

    monkeypatch.setattr(progress, "progress_save", counting)
    callback = ProgressReporter(document, interval=10.0).pages(0.0, 0.5)
    for done in range(1, 1001):
        callback(done, 1000)

    assert writes == [0.0005, 0.5]
    document.refresh_from_db()
    assert document.progress == 0.5 and document.message == "Reading page 1000 of 1000"
