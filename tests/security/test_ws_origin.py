"""Browser sockets are accepted only from the socket's own origin or a trusted one, compared in
full as Django's CSRF check compares them: another port or scheme of an allowed host is another
site (a page at http://localhost:9999 must not read a user's runs through their cookie)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from agents.ws_auth import OriginGuard


async def accepting(scope: Any, receive: Any, send: Any) -> None:
    """A socket app that accepts every connection it is handed."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


async def connects(origin: str, host: str | None, *, scheme: str = "ws", **headers: str) -> bool:
    sent = [(b"origin", origin.encode())]
    sent += [(b"host", host.encode())] if host else []
    sent += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    communicator = WebsocketCommunicator(OriginGuard(accepting), "/ws/x/", sent)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return connected


# The communicator closes stale database connections around each socket.
pytestmark = [pytest.mark.django_db, pytest.mark.asyncio]
NO_LISTS = {"WS_ALLOWED_ORIGINS": [], "CSRF_TRUSTED_ORIGINS": []}


@override_settings(ALLOWED_HOSTS=["localhost", "127.0.0.1"], **NO_LISTS)
async def test_only_the_sockets_own_scheme_host_and_port_connect() -> None:
    assert await connects("http://localhost:8000", "localhost:8000")
    assert not await connects("http://localhost:9999", "localhost:8000")  # another port
    assert not await connects("http://localhost", "localhost:8000")  # the default port
    assert not await connects("https://localhost:8000", "localhost:8000")  # another scheme
    assert not await connects("http://127.0.0.1:8000", "localhost:8000")  # another host
    assert not await connects("null", "localhost:8000")
    assert not await connects("http://localhost:8000", None)  # no Host to match


async def test_by_default_another_port_of_localhost_is_another_site() -> None:
    assert await connects("http://localhost:8000", "localhost:8000")
    assert not await connects("http://localhost:9999", "localhost:8000")
    assert not await connects("http://127.0.0.1:9999", "localhost:8000")


@override_settings(ALLOWED_HOSTS=["app.example.com"], **NO_LISTS)
async def test_the_scheme_is_the_one_the_request_came_in_with() -> None:
    assert await connects("https://app.example.com", "app.example.com", scheme="wss")
    assert not await connects("http://app.example.com", "app.example.com", scheme="wss")
    # behind a proxy that terminates TLS (SECURE_PROXY_SSL_HEADER)
    forwarded = {"x_forwarded_proto": "https"}
    assert await connects("https://app.example.com", "app.example.com", **forwarded)
    assert not await connects("http://app.example.com", "app.example.com", **forwarded)


@override_settings(ALLOWED_HOSTS=["app.example.com"], **NO_LISTS)
async def test_a_host_that_is_not_allowed_has_no_own_origin() -> None:
    assert not await connects("http://evil.example", "evil.example")


@override_settings(
    ALLOWED_HOSTS=["*"],
    WS_ALLOWED_ORIGINS=["https://app.example.com"],
    CSRF_TRUSTED_ORIGINS=["https://*.cdn.example.org", "http://localhost:3000"],
)
async def test_trusted_origins_connect_from_elsewhere_exactly_as_listed() -> None:
    internal = "internal:8000"
    assert await connects("https://app.example.com", internal)
    assert await connects("http://localhost:3000", internal)
    assert await connects("https://eu.cdn.example.org", internal)
    assert not await connects("https://app.example.com:444", internal)
    assert not await connects("http://app.example.com", internal)
    assert not await connects("http://localhost:3001", internal)
    assert not await connects("http://eu.cdn.example.org", internal)
    assert not await connects("https://eu.cdn.example.org:8443", internal)
    assert not await connects("https://app.example.com.evil.example", internal)


async def test_settings_refuse_bare_host_names(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from config import settings as app_settings

    monkeypatch.setenv("WS_ALLOWED_ORIGINS", "localhost")
    with pytest.raises(ImproperlyConfigured, match="https://localhost"):
        importlib.reload(app_settings)
    monkeypatch.delenv("WS_ALLOWED_ORIGINS")
    importlib.reload(app_settings)
    assert app_settings.WS_ALLOWED_ORIGINS == []
