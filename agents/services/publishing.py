"""Pushing committed events to live WebSocket consumers through the channel layer."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from agents.models import Event

logger = logging.getLogger(__name__)


def run_group(run_id: int) -> str:
    return f"run-{run_id}"


def events_publish(*, run_id: int, events: Sequence[Event]) -> None:
    """Best-effort push; the event log stays the truth, consumers fill any gap from it."""
    if not settings.EVENTS_PUSH or not events:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.events", "events": [event.to_dict() for event in events]}
    try:
        async_to_sync(layer.group_send)(run_group(run_id), message)
    except Exception:  # a push failure must never fail the run: clients poll the log
        logger.warning("could not publish events of run %s", run_id, exc_info=True)
