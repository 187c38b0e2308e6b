"""WebSocket authentication and origin checks.

Browsers authenticate with the session cookie and always send an Origin header, which must be
one of WS_ALLOWED_ORIGINS (default: ALLOWED_HOSTS without "*") or the host the socket connects to
(this stops other sites from opening sockets with a visitor's cookie, whatever ALLOWED_HOSTS says).
Programs authenticate with `Authorization: Bearer <token>` and may omit Origin.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import validate_host

from accounts.authentication import bearer_token
from accounts.services import api_token_user

Scope = dict[str, Any]


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


class TokenOrSessionAuth:
    """Resolve `scope["user"]` from a bearer token if one is given, else from the session."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.session_stack = AuthMiddlewareStack(inner)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        header = _header(scope, b"authorization")
        if header is None:
            return await self.session_stack(scope, receive, send)
        raw = bearer_token(header)
        user = await sync_to_async(api_token_user)(raw=raw) if raw else None
        if user is None:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner({**scope, "user": user, "auth": "token"}, receive, send)


class OriginGuard:
    """Refuse a socket whose Origin is not ours; a missing Origin is allowed for token auth only."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        origin = _header(scope, b"origin")
        if origin is None:
            allowed = _header(scope, b"authorization") is not None
        else:
            allowed = origin_allowed(origin, host_header=_header(scope, b"host"))
        if not allowed:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(scope, receive, send)


def origin_allowed(origin: str, *, host_header: str | None) -> bool:
    """Whether a browser page at `origin` may open a socket to `host_header`."""
    parts = urlsplit(origin)
    host = (parts.hostname or "").lower()
    if not host or parts.scheme not in {"http", "https"}:
        return False  # "null" (sandboxed frames, files) and other schemes are never ours
    if host_header and parts.netloc.lower() == host_header.strip().lower():
        return True  # the page came from the host it connects to
    return origin.lower().rstrip("/") in _listed_origins() or validate_host(host, _listed_hosts())


def _listed_hosts() -> list[str]:
    """Host patterns of WS_ALLOWED_ORIGINS and CSRF_TRUSTED_ORIGINS' hosts; never "*"."""
    hosts = [entry for entry in settings.WS_ALLOWED_ORIGINS if "://" not in entry]
    hosts += [urlsplit(entry).hostname or "" for entry in settings.CSRF_TRUSTED_ORIGINS]
    return [host for host in hosts if host and "*" not in host]


def _listed_origins() -> set[str]:
    return {entry.lower().rstrip("/") for entry in settings.WS_ALLOWED_ORIGINS if "://" in entry}
