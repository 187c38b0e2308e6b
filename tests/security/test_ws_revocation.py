"""An open socket stops streaming once its credential ends: a socket opened with a token that
is then revoked, or with a session that then logs out, closes with 4401 within a re-check (it
used to keep receiving events, while the REST API refused the token at once)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from accounts.models import ApiToken
from accounts.services import api_token_revoke
from agents.consumer_base import CLOSE_UNAUTHENTICATED
from agents.services import runs
from config.asgi import application
from finance.models import Document
from finance.services.progress import progress_save
from tests.agents.helpers import TWO_SUMS

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
OURS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@pytest.fixture(autouse=True)
def quick_rechecks(settings: Any) -> None:
    settings.WS_AUTH_RECHECK_SECONDS = 0.1


@pytest.fixture
def queued_run(alice: Any, make_workspace: Any, monkeypatch: Any) -> Any:
    monkeypatch.setattr(runs, "run_enqueue", lambda run_id: None)
    return runs.run_create(workspace=make_workspace(alice), prompt=TWO_SUMS)


@pytest.fixture
def processing(alice: Any, make_workspace: Any) -> Document:
    workspace = make_workspace(alice, kind="finance")
    return Document.objects.create(
        workspace=workspace, name="n.pdf", sha256="1" * 64, status="processing", progress=0.1
    )


def bearer(api: Any) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {api.raw_token}".encode())]


def logged_in() -> tuple[Client, tuple[bytes, bytes]]:
    client = Client()
    assert client.login(username="alice", password="correct horse battery")
    name = django_settings.SESSION_COOKIE_NAME
    return client, (b"cookie", f"{name}={client.cookies[name].value}".encode())


async def opened(path: str, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


async def closed_with_4401(communicator: WebsocketCommunicator) -> None:
    """Everything until the close: the last message says why, the close is 4401."""
    messages = []
    while True:
        output = await communicator.receive_output(timeout=3)
        if output["type"] == "websocket.close":
            break
        messages.append(output)
    assert output == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}
    assert '"code": 4401' in messages[-1]["text"]
    await communicator.disconnect()


def revoke_all(user: Any) -> None:
    for token in ApiToken.objects.filter(user=user):
        assert api_token_revoke(user=user, token_id=token.pk)


async def test_a_run_socket_closes_when_its_token_is_revoked(
    queued_run: Any, alice: Any, alice_api: Any
) -> None:
    communicator = await opened(f"/ws/runs/{queued_run.pk}/", bearer(alice_api))
    assert await communicator.receive_nothing(timeout=0.3)  # open, nothing wrong yet

    await database_sync_to_async(revoke_all)(alice)

    await closed_with_4401(communicator)


async def test_a_run_socket_closes_when_its_session_logs_out(queued_run: Any, alice: Any) -> None:
    client, cookie = await database_sync_to_async(logged_in)()
    communicator = await opened(f"/ws/runs/{queued_run.pk}/", [*OURS, cookie])
    assert await communicator.receive_nothing(timeout=0.3)

    await database_sync_to_async(client.logout)()

    await closed_with_4401(communicator)


async def test_the_documents_socket_closes_when_its_token_is_revoked(
    processing: Document, alice: Any, alice_api: Any
) -> None:
    path = f"/ws/finance/workspaces/{processing.workspace_id}/documents/"
    communicator = await opened(path, bearer(alice_api))
    assert (await communicator.receive_json_from())["progress"] == 0.1

    await database_sync_to_async(revoke_all)(alice)
    await closed_with_4401(communicator)
    await database_sync_to_async(progress_save)(processing, fields={"progress": 0.5})
    assert await communicator.receive_nothing(timeout=0.3)  # no event after the close


async def test_the_documents_socket_closes_when_its_session_logs_out(
    processing: Document, alice: Any
) -> None:
    client, cookie = await database_sync_to_async(logged_in)()
    path = f"/ws/finance/workspaces/{processing.workspace_id}/documents/"
    communicator = await opened(path, [*OURS, cookie])
    assert (await communicator.receive_json_from())["progress"] == 0.1

    await database_sync_to_async(client.logout)()

    await closed_with_4401(communicator)


async def test_a_socket_with_a_live_credential_stays_open(
    processing: Document, alice_api: Any
) -> None:
    path = f"/ws/finance/workspaces/{processing.workspace_id}/documents/"
    communicator = await opened(path, bearer(alice_api))
    await communicator.receive_json_from()

    assert await communicator.receive_nothing(timeout=0.6)  # several re-checks passed
    await communicator.disconnect()
