"""Pushing committed events to live WebSocket consumers through the channel layer.

Workers are synchronous. `async_to_sync(group_send)` would run each push on a fresh event loop,
and the Redis layer keeps its connection pool per loop, so every push would open a new Redis
connection (~4 ms, measured). Instead each process keeps one background loop that sends queued
pushes in order; the worker only enqueues and carries on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from agents.models import Event

logger = logging.getLogger(__name__)


def run_group(run_id: int) -> str:
    return f"run-{run_id}"


class _BackgroundSender:
    """One event loop thread per process (re-created after a fork) that sends pushes in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queue: asyncio.Queue[tuple[Any, str, dict[str, Any]]] | None = None

    def send(self, layer: Any, group: str, message: dict[str, Any]) -> None:
        loop, queue = self._started()
        loop.call_soon_threadsafe(queue.put_nowait, (layer, group, message))

    def _started(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue[Any]]:
        with self._lock:
            if self._loop is None or self._queue is None or self._pid != os.getpid():
                self._pid = os.getpid()
                self._loop = asyncio.new_event_loop()
                self._queue = asyncio.Queue()
                ready = threading.Event()
                thread = threading.Thread(
                    target=self._serve, args=(self._loop, ready), name="event-push", daemon=True
                )
                thread.start()
                ready.wait()
            return self._loop, self._queue

    def _serve(self, loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        assert self._queue is not None
        queue = self._queue
        loop.call_soon(ready.set)
        loop.run_until_complete(self._drain(queue))

    async def _drain(self, queue: asyncio.Queue[Any]) -> None:
        while True:
            layer, group, message = await queue.get()
            try:
                await layer.group_send(group, message)
            except Exception:  # a failed push is caught up by the consumers' log tail
                logger.warning("could not push events to %s", group, exc_info=True)


_sender = _BackgroundSender()


def events_publish(*, run_id: int, events: Sequence[Event]) -> None:
    """Best-effort push; the event log stays the truth, consumers fill any gap from it."""
    if not settings.EVENTS_PUSH or not events:
        return
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "run.events", "events": [event.to_dict() for event in events]}
    if getattr(layer, "shared_across_processes", False):
        _sender.send(layer, run_group(run_id), message)
        return
    try:
        async_to_sync(layer.group_send)(run_group(run_id), message)
    except Exception:  # a push failure must never fail the run: clients poll the log
        logger.warning("could not publish events of run %s", run_id, exc_info=True)
