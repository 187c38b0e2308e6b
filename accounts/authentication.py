"""`Authorization: Bearer <token>` for the REST API and the WebSocket."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from accounts.services import api_token_user
from agents.runtime.log_context import bind


def bearer_token(header: str) -> str | None:
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


class BearerTokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[User, Any] | None:
        header = request.headers.get("Authorization", "")
        if not header:
            return None
        raw = bearer_token(header)
        if raw is None:
            return None
        user = api_token_user(raw=raw)
        if user is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        bind(user_id=user.pk)  # the request's remaining log lines name the user
        return user, raw

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="api"'


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """Declares bearer tokens in the OpenAPI schema, so the docs page and clients can use them."""

    target_class = BearerTokenAuthentication
    name = "bearerAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer"}
