"""Bounded children started from a web request: at most a few on the host at once, one a person.

Each child may take hundreds of megabytes, and a web process's request threads could start
dozens at once. So a kind of child (page images, scene edits) runs at most `host_count` at once
on the host, and a person at most one: a person's second request waits for their first (up to a
few seconds, then 429), and someone else's takes another slot meanwhile.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.utils import timezone

from agents.host_slots import SlotsBusy, host_slot
from agents.services.quotas import QuotaExceeded


@contextmanager
def person_child_slot(
    kind: str, owner_id: int, *, host_count: int, wait_seconds: float, busy: str
) -> Iterator[None]:
    """Hold the person's slot and one of the host's `host_count` slots of `kind` for the block;
    QuotaExceeded (429, `busy` as its message) when either stays taken for `wait_seconds`."""
    root = Path(settings.VAR_DIR) / "slots"
    try:
        with (
            host_slot(root / f"{kind}-user-{owner_id}", 1, wait_seconds=wait_seconds),
            host_slot(root / kind, host_count, wait_seconds=wait_seconds),
        ):
            yield
    except SlotsBusy:
        raise QuotaExceeded(
            quota=kind.replace("-", "_"),
            limit=host_count,
            message=busy,
            status=429,
            retry_at=timezone.now() + timedelta(seconds=2),
        ) from None
