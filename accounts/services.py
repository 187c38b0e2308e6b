"""Creating, resolving and revoking API tokens."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from accounts.models import ApiToken

TOKEN_PREFIX = "aw_"
LAST_USED_RESOLUTION = timedelta(minutes=1)


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def api_token_create(*, user: User, name: str = "API token") -> tuple[ApiToken, str]:
    """Create a token for user; return the row and the raw token, which is never stored."""
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name.strip()[:100] or "API token", prefix=raw[:10], digest=token_digest(raw)
    )
    return token, raw


def api_token_user(*, raw: str) -> User | None:
    """The active user a raw token belongs to, or None for an unknown or revoked token."""
    if not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


def api_token_active(*, digest: str) -> bool:
    """Whether the token with this digest still authenticates (not revoked, its user active)."""
    return ApiToken.objects.filter(
        digest=digest, revoked_at__isnull=True, user__is_active=True
    ).exists()


def api_token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of user's tokens; False when it is not theirs or already revoked."""
    updated = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    return updated == 1
