"""`ws/runs/<id>/`: replay the run's events after the client's last seq, then stream live ones.

Delivery never depends on the channel layer: pushed events are only a fast path. Each event is
sent once, in seq order; a pushed event that skips ahead makes the consumer read the gap from the
event log, and a periodic tail of the log catches anything the layer dropped, and serves the
socket alone while the layer is down (see agents/consumer_base.py). Once the run's last event
(`run.finished` or `run.failed`) is sent, the tail stops: an ended run writes nothing more.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from agents import selectors
from agents.consumer_base import (
    CLOSE_BAD_REQUEST,
    CLOSE_NOT_FOUND,
    CLOSE_UNAUTHENTICATED,
    GroupTailConsumer,
)
from agents.models import Run
from agents.runtime import events as event_types
from agents.runtime.log_context import bind
from agents.services.publishing import run_group

ENDING = frozenset({event_types.RUN_FINISHED, event_types.RUN_FAILED})

__all__ = ["CLOSE_BAD_REQUEST", "CLOSE_NOT_FOUND", "CLOSE_UNAUTHENTICATED", "RunEventsConsumer"]


class RunEventsConsumer(GroupTailConsumer):
    run_id: int
    last_seq: int

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED, "authentication required")
            return
        self.run_id = int(self.scope["url_route"]["kwargs"]["run_id"])
        # This connection's task (and the tail it starts) logs with the run and the user.
        bind(run_id=self.run_id, user_id=user.pk)
        if not await _owns_run(user, self.run_id):
            await self.refuse(CLOSE_NOT_FOUND, "run not found")
            return
        after = _after_param(self.scope.get("query_string", b""))
        if after is None:
            await self.refuse(CLOSE_BAD_REQUEST, "after must be a non-negative integer")
            return
        self.last_seq = after
        self.ended = False
        self.lock = asyncio.Lock()
        await self.accept()
        await self.subscribe(run_group(self.run_id))
        await self.catch_up()
        if not self.ended:
            self.tail = asyncio.create_task(self.tail_log())

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, on one thread shared
        # by all consumers of the process; with many sockets that queue dominates latency. Pushed
        # events need no connection (a gap is read through database_sync_to_async, which does its
        # own cleanup), so they skip it.
        if message.get("type") == "run.events":
            await self.run_events(message)
            return
        await super().dispatch(message)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong", "last_seq": self.last_seq})

    async def run_events(self, message: dict[str, Any]) -> None:
        """Pushed by the worker after its commit: send in order, read any gap from the log."""
        async with self.lock:
            for event in message["events"]:
                if event["seq"] <= self.last_seq:
                    continue
                if event["seq"] > self.last_seq + 1:
                    await self._send_from_log()
                    if event["seq"] <= self.last_seq:
                        continue
                await self._send_event(event)

    async def catch_up(self) -> None:
        async with self.lock:
            await self._send_from_log()

    async def tail_log(self) -> None:
        while not self.ended:
            await self.next_poll()
            await self.catch_up()

    async def _send_from_log(self) -> None:
        while True:
            page = await database_sync_to_async(selectors.events_after)(
                run_id=self.run_id, after=self.last_seq
            )
            for event in page:
                await self._send_event(event.to_dict())
            if len(page) < selectors.EVENT_PAGE:
                return

    async def _send_event(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "event", "event": event})
        self.last_seq = int(event["seq"])
        if event.get("type") in ENDING:
            self.ended = True


@database_sync_to_async
def _owns_run(user: Any, run_id: int) -> bool:
    return Run.objects.filter(pk=run_id, workspace__owner_id=user.pk).exists()


def _after_param(query_string: bytes) -> int | None:
    values = parse_qs(query_string.decode("latin-1")).get("after", ["0"])
    try:
        after = int(values[-1])
    except ValueError:
        return None
    return after if after >= 0 else None
