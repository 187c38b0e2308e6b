"""Browser sockets are accepted only from WS_ALLOWED_ORIGINS or the host they connect to,
whatever ALLOWED_HOSTS says: ALLOWED_HOSTS=* no longer lets any site open a socket with a
visitor's cookie."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from agents.ws_auth import OriginGuard


async def accepting(scope: Any, receive: Any, send: Any) -> None:
    """A socket app that accepts every connection it is handed."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def connects(*headers: tuple[bytes, bytes]) -> bool:
    communicator = WebsocketCommunicator(OriginGuard(accepting), "/ws/x/", list(headers))
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


HOST = (b"host", b"app.example.com")
# The communicator closes stale database connections around each socket.
pytestmark = pytest.mark.django_db


@pytest.mark.asyncio
@override_settings(ALLOWED_HOSTS=["*"], WS_ALLOWED_ORIGINS=[], CSRF_TRUSTED_ORIGINS=[])
async def test_with_any_host_allowed_only_same_host_origins_connect() -> None:
    assert await connects((b"origin", b"https://app.example.com"), HOST)
    assert not await connects((b"origin", b"https://evil.example"), HOST)
    assert not await connects((b"origin", b"null"), HOST)
    assert not await connects((b"origin", b"https://evil.example"))  # no Host to match


@pytest.mark.asyncio
@override_settings(
    WS_ALLOWED_ORIGINS=["https://app.example.com", ".cdn.example.org"], CSRF_TRUSTED_ORIGINS=[]
)
async def test_listed_origins_and_host_patterns_connect_from_elsewhere() -> None:
    other_host = (b"host", b"internal:8000")
    assert await connects((b"origin", b"https://app.example.com"), other_host)
    assert await connects((b"origin", b"https://eu.cdn.example.org"), other_host)
    assert not await connects((b"origin", b"http://app.example.com.evil.example"), other_host)
    assert not await connects((b"origin", b"https://app.example.com:444"), other_host)


@pytest.mark.asyncio
async def test_the_default_list_is_allowed_hosts_without_a_wildcard() -> None:
    from config import settings as app_settings

    assert "*" not in app_settings.WS_ALLOWED_ORIGINS
    assert await connects((b"origin", b"http://127.0.0.1"), (b"host", b"elsewhere"))
