"""A re-upload of known bytes is ready at once: the document socket says so without a reload."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from finance.models import Document
from tests.finance.test_documents_socket import bearer, connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def workspace(alice, make_workspace):
    return make_workspace(alice, kind="finance")


async def test_a_document_ready_before_the_socket_saw_it_processing_is_sent_ready(
    workspace, alice_api
):
    await database_sync_to_async(Document.objects.create)(
        workspace=workspace, name="old.pdf", sha256="2" * 64, status="ready", progress=1.0
    )
    communicator = await connect(workspace.pk, bearer(alice_api))
    assert await communicator.receive_nothing(timeout=0.5)  # the page rendered the old one

    # A cache hit: queued and finished between two reads of the rows, and no push arrives.
    again = await database_sync_to_async(Document.objects.create)(
        workspace=workspace, name="again.pdf", sha256="3" * 64, status="ready", progress=1.0
    )
    event = await communicator.receive_json_from(timeout=3)

    assert event["document"] == again.pk and event["status"] == "ready"
    assert event["progress"] == 1.0
    assert await communicator.receive_nothing(timeout=0.6)  # once
    await communicator.disconnect()
