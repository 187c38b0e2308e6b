"""Per-user quotas: runs at once, runs per hour, tokens per run, bytes stored.

Settings `QUOTA_*` give the limits (0 = unlimited). Everyone is bounded, staff included: the
limits protect the shared workers and disk, and an operator raises them in settings rather than
by flag. Only users who cannot sign in (`is_active=False`) are exempt: the evaluation harness
makes one such user per task and drives its runs itself, and no request can act as them.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Min, Sum
from django.utils import timezone

from agents.models import Artifact, Run

HOUR = timedelta(hours=1)


class QuotaExceeded(Exception):
    """A quota refuses the request; `status` is 429 when waiting helps, 403 when it does not."""

    def __init__(
        self, *, quota: str, limit: int, message: str, status: int, retry_at: datetime | None
    ) -> None:
        super().__init__(message)
        self.quota, self.limit, self.status, self.retry_at = quota, limit, status, retry_at

    def to_dict(self) -> dict[str, object]:
        """The JSON body of the refusal: what, which quota, its limit and when it frees up."""
        retry_after = None
        if self.retry_at is not None:
            retry_after = max(1, int((self.retry_at - timezone.now()).total_seconds()) + 1)
        return {
            "detail": str(self),
            "quota": self.quota,
            "limit": self.limit,
            "retry_after": retry_after,
            "retry_at": self.retry_at.isoformat() if self.retry_at else None,
        }


def quota(name: str) -> int:
    return int(getattr(settings, f"QUOTA_{name.upper()}", 0) or 0)


def is_bounded(user: User | None) -> bool:
    return user is not None and user.is_active


def check_run_quotas(*, user: User) -> None:
    """Raise QuotaExceeded if user may not start another run now."""
    if not is_bounded(user):
        return
    runs = Run.objects.filter(workspace__owner=user)
    concurrent = quota("concurrent_runs")
    if concurrent and runs.filter(status__in=Run.ACTIVE).count() >= concurrent:
        raise QuotaExceeded(
            quota="concurrent_runs",
            limit=concurrent,
            status=429,
            retry_at=None,  # when one of the active runs ends
            message=f"you have {concurrent} runs in progress, the most at once; "
            "wait for one to finish or cancel one",
        )
    per_hour = quota("runs_per_hour")
    if per_hour:
        since = timezone.now() - HOUR
        recent = runs.filter(created_at__gt=since)
        if recent.count() >= per_hour:
            oldest = recent.aggregate(first=Min("created_at"))["first"] or timezone.now()
            raise QuotaExceeded(
                quota="runs_per_hour",
                limit=per_hour,
                status=429,
                retry_at=oldest + HOUR,
                message=f"you have started {per_hour} runs in the last hour, the most allowed",
            )
    check_stored_bytes(user=user, adding=0)


def max_tokens_per_run() -> int:
    """The tokens-per-run quota (0: none)."""
    return quota("tokens_per_run")


def stored_bytes(*, user: User) -> int:
    """Bytes user keeps: run artifacts, finance documents and studio meshes."""
    from finance.models import Document
    from studio.models import UploadedMesh

    total = int(
        Artifact.objects.filter(run__workspace__owner=user).aggregate(n=Sum("size"))["n"] or 0
    )
    for model in (Document, UploadedMesh):
        for row in model.objects.filter(workspace__owner=user).only("file"):
            total += _file_size(row.file)
    return total


def check_stored_bytes(*, user: User, adding: int) -> None:
    """Raise QuotaExceeded (403) if user's stored bytes plus `adding` pass the quota."""
    limit = quota("stored_bytes")
    if not limit or not is_bounded(user):
        return
    used = stored_bytes(user=user)
    if used + adding > limit:
        raise QuotaExceeded(
            quota="stored_bytes",
            limit=limit,
            status=403,
            retry_at=None,  # only deleting documents, meshes or workspaces frees space
            message=f"you store {_mb(used)} of your {_mb(limit)}; "
            + (f"this upload of {_mb(adding)} would pass it; " if adding else "")
            + "delete documents, meshes or workspaces to free space",
        )


def _file_size(field: object) -> int:
    try:
        return int(field.size) if field else 0  # type: ignore[attr-defined]
    except (OSError, ValueError):  # the file is gone: it takes no space
        return 0


def _mb(count: int) -> str:
    return f"{count / 2**20:.1f} MB"
