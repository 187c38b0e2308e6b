"""WebSocket authentication and origin checks.

Browsers authenticate with the session cookie and always send an Origin header, which is checked
as Django's CSRF check checks it: in full (scheme, host and port), against the socket's own
origin (its Host with the scheme the request came in with, proxy header included) and the
CSRF_TRUSTED_ORIGINS and WS_ALLOWED_ORIGINS lists ("https://*.example.com" for subdomains). A
page on another port or scheme of an allowed host is another site and is refused.
Programs authenticate with `Authorization: Bearer <token>` and may omit Origin.
An open socket re-checks its credential (`credential_valid`): a revoked token or an ended session
closes it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from channels.auth import AuthMiddlewareStack, get_user
from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

from accounts.authentication import bearer_token
from accounts.services import api_token_active, api_token_user, token_digest

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
        # The digest, never the token, stays with the socket: its re-checks look the token up.
        token = {"auth": "token", "token_digest": token_digest(raw or "")}
        return await self.inner({**scope, "user": user, **token}, receive, send)


async def credential_valid(scope: Scope) -> bool:
    """Whether the credential a socket was opened with still holds for its user: the token is
    not revoked, or the session was not ended (logout, expiry, a password change), and the user
    is still active. Read afresh from the database, not from the socket's cached session."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return False
    if scope.get("auth") == "token":
        return bool(await sync_to_async(api_token_active)(digest=scope["token_digest"]))
    key = getattr(scope.get("session"), "session_key", None)
    if not key:
        return False
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    current = await get_user({"session": store})
    return bool(current.is_authenticated and current.pk == user.pk)


class OriginGuard:
    """Refuse a socket whose Origin is not ours; a missing Origin is allowed for token auth only."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        origin = _header(scope, b"origin")
        if origin is None:
            allowed = _header(scope, b"authorization") is not None
        else:
            allowed = origin_allowed(origin, own_origin=own_origin(scope))
        if not allowed:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(scope, receive, send)


def own_origin(scope: Scope) -> str | None:
    """The origin of the page this socket's host serves: "http(s)://<Host>", as Django's
    `request.is_secure()` and `get_host()` see it; None for a host that is not ours."""
    host = _header(scope, b"host")
    if settings.USE_X_FORWARDED_HOST:
        host = _header(scope, b"x-forwarded-host") or host
    if not host:
        return None
    host = host.split(",")[0].strip().lower()
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    secure = scope.get("scheme") in {"wss", "https"}
    if settings.SECURE_PROXY_SSL_HEADER:
        name, value = settings.SECURE_PROXY_SSL_HEADER
        forwarded = _header(scope, name.removeprefix("HTTP_").replace("_", "-").lower().encode())
        if forwarded is not None:
            secure = forwarded.split(",")[0].strip() == value
    return f"{'https' if secure else 'http'}://{host}"


def origin_allowed(origin: str, *, own_origin: str | None) -> bool:
    """Whether a browser page at `origin` may open a socket whose own origin is `own_origin`."""
    origin = origin.strip().lower()
    parts = urlsplit(origin)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return False  # "null" (sandboxed frames, files) and other schemes are never ours
    if origin == own_origin:
        return True
    trusted = [entry.lower().rstrip("/") for entry in _trusted_origins()]
    if origin in trusted:
        return True
    # "https://*.example.com": that scheme, and the port as written, on any subdomain.
    return any(
        urlsplit(entry).scheme == parts.scheme
        and is_same_domain(parts.netloc, urlsplit(entry).netloc.lstrip("*"))
        for entry in trusted
        if "*" in entry
    )


def _trusted_origins() -> list[str]:
    return [*settings.CSRF_TRUSTED_ORIGINS, *settings.WS_ALLOWED_ORIGINS]
