"""WebSocket authentication and origin checks.

Browsers authenticate with the session cookie and always send an Origin header, which must name
one of ALLOWED_HOSTS (this stops other sites from opening sockets with a visitor's cookie).
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
            host = urlsplit(origin).hostname or ""
            allowed = validate_host(host, settings.ALLOWED_HOSTS) or host in _trusted_hosts()
        if not allowed:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(scope, receive, send)


def _trusted_hosts() -> set[str]:
    return {urlsplit(origin).hostname or "" for origin in settings.CSRF_TRUSTED_ORIGINS}
