"""`ws/finance/workspaces/<id>/documents/`: a workspace's ingestion progress, owner only."""

from __future__ import annotations

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from agents.consumers import CLOSE_NOT_FOUND, CLOSE_UNAUTHENTICATED
from agents.ws_auth import TokenOrSessionAuth
from finance.models import Document
from finance.routing import websocket_urlpatterns
from finance.services.progress import progress_save

pytestmark = pytest.mark.django_db(transaction=True)
# The finance routes on their own, behind the project's WebSocket authentication.
application = TokenOrSessionAuth(URLRouter(websocket_urlpatterns))


def bearer(client):
    return [(b"authorization", f"Bearer {client.raw_token}".encode())]


async def connect(workspace_id, headers):
    path = f"/ws/finance/workspaces/{workspace_id}/documents/"
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@pytest.fixture
def processing(alice, make_workspace):
    workspace = make_workspace(alice, kind="finance")
    return Document.objects.create(
        workspace=workspace, name="n.pdf", sha256="1" * 64, status="processing", progress=0.1,
        message="Reading page 7 of 73",
    )  # fmt: skip


async def test_the_owner_sees_progress_then_the_end(processing, alice_api):
    communicator = await connect(processing.workspace_id, bearer(alice_api))

    first = await communicator.receive_json_from()
    await database_sync_to_async(progress_save)(
        processing, fields={"progress": 0.5, "message": "Reading page 36 of 73"}
    )
    pushed = await communicator.receive_json_from()
    await database_sync_to_async(Document.objects.filter(pk=processing.pk).update)(
        status="ready", progress=1.0, message=""
    )  # no push: the consumer reads the row
    tailed = await communicator.receive_json_from(timeout=3)

    assert first == {
        "type": "document.progress",
        "document": processing.pk,
        "progress": 0.1,
        "message": "Reading page 7 of 73",
        "status": "processing",
    }
    assert pushed["progress"] == 0.5 and pushed["message"] == "Reading page 36 of 73"
    assert tailed["status"] == "ready" and tailed["progress"] == 1.0
    assert await communicator.receive_nothing(timeout=0.6)  # each state once
    await communicator.disconnect()


async def test_another_user_and_no_credentials_are_refused(processing, bob_api):
    for headers, code in ((bearer(bob_api), CLOSE_NOT_FOUND), ([], CLOSE_UNAUTHENTICATED)):
        communicator = await connect(processing.workspace_id, headers)
        message = await communicator.receive_json_from()
        assert message["type"] == "error" and message["code"] == code
        assert await communicator.receive_output() == {"type": "websocket.close", "code": code}
        await communicator.disconnect()


async def test_the_served_application_routes_the_progress_socket(processing, alice_api):
    from config.asgi import application as served

    path = f"/ws/finance/workspaces/{processing.workspace_id}/documents/"
    communicator = WebsocketCommunicator(served, path, bearer(alice_api))
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from()
    assert first["document"] == processing.pk and first["status"] == "processing"
    await communicator.disconnect()


async def test_a_channel_layer_that_cannot_join_still_serves_progress_from_the_rows(
    processing, alice_api, monkeypatch, settings
):
    async def group_add(group, channel):
        raise redis.exceptions.ConnectionError("Connection lost")

    settings.EVENTS_POLL_SECONDS = 60  # the safety-net tail alone would say nothing in time
    monkeypatch.setattr(get_channel_layer(), "group_add", group_add)
    communicator = await connect(processing.workspace_id, bearer(alice_api))  # not a 500

    first = await communicator.receive_json_from()
    await database_sync_to_async(Document.objects.filter(pk=processing.pk).update)(
        status="ready", progress=1.0, message=""
    )
    tailed = await communicator.receive_json_from(timeout=2)

    assert first["status"] == "processing" and tailed["status"] == "ready"
    await communicator.disconnect()
