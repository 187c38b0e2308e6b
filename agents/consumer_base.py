"""What the app's WebSocket consumers share: explained refusals, one channel group that is only a
fast path, and one background tail of the database, which is what every socket is served from.

The channel layer may fail at any moment (Redis restarting, a dead pub/sub connection): a socket
is never refused or dropped for it. While its group is not joined (the join failed, or a read of
the layer failed after it), the socket reads the database as often as the embedded default does,
where no layer reaches the web process at all, and joins again in the background with backoff;
once joined, pushes carry live messages and the tail slows down to a safety net. Subclasses keep
delivery exactly-once themselves (by seq, or by state), so a message that arrives both ways is
sent once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from channels.utils import await_many_dispatch
from django.conf import settings

from agents.ws_auth import credential_valid
from config.json_parser import loads_bounded

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_REQUEST = 4400

# How often the embedded default reads the log (config/settings.py, no REDIS_URL): the rate of a
# socket that pushes cannot reach.
UNPUSHED_POLL_SECONDS = 0.2


class GroupTailConsumer(AsyncJsonWebsocketConsumer):
    """Joins one channel group and runs one background tail; both end with the socket."""

    # connect waits this long for the first join, so that on a healthy layer pushes flow before
    # the log is first read; past it the socket is served from the log and the join goes on.
    join_wait_seconds = 1.0
    # Backoff between joins (and between reads of a failing layer): doubling, with jitter so that
    # a process's sockets do not all retry at once.
    retry_first_seconds = 0.25
    retry_max_seconds = 5.0

    group: str | None = None
    tail: asyncio.Task[None] | None = None
    joining: asyncio.Task[None] | None = None
    watching: asyncio.Task[None] | None = None
    closed = False  # by us: nothing more is sent
    joined = False  # the layer pushes the group's messages to this socket
    counted = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """AsyncConsumer.__call__, except that the socket's channel is made by the join (which
        may fail and is retried) instead of before anything, and a failed read of the layer
        does not end the socket."""
        self.scope = scope
        self.base_send = send
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.channel_ready = asyncio.Event()
        self.poll_now = asyncio.Event()
        sources = [receive] if self.channel_layer is None else [receive, self.pushed]
        with contextlib.suppress(StopConsumer):
            await await_many_dispatch(sources, self.dispatch)

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        from agents.observability.metrics import WEBSOCKETS

        await super().accept(*args, **kwargs)
        if not self.counted:
            self.counted = True
            WEBSOCKETS.inc()

    async def send(self, *args: Any, **kwargs: Any) -> None:
        if not self.closed:
            await super().send(*args, **kwargs)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        await super().close(code=code, reason=reason)
        self.closed = True

    async def refuse(self, code: int, message: str) -> None:
        """Accept only to say why, then close: a bare handshake refusal explains nothing."""
        await self.accept()
        await self.close_saying(code, message)

    async def close_saying(self, code: int, message: str) -> None:
        await self.send_json({"type": "error", "code": code, "error": message})
        await self.close(code=code)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """A message that is not JSON, or nests past JSON_MAX_DEPTH, is answered with an error
        (parsing it would recurse once per level); the socket stays open."""
        try:
            content = loads_bounded(text_data if text_data is not None else bytes_data or b"")
        except ValueError as error:
            message = f"messages are JSON text: {error}"
            await self.send_json({"type": "error", "code": CLOSE_BAD_REQUEST, "error": message})
            return
        await self.receive_json(content, **kwargs)

    async def subscribe(self, group: str) -> None:
        """Join `group` for pushed messages, in the background until it works; never raises.
        From now on the socket streams, so its credential is re-checked while it is open."""
        self.group = group
        self.watching = asyncio.create_task(self.watch_credential())
        if self.channel_layer is None:
            return
        tried = asyncio.Event()
        self.joining = asyncio.create_task(self._join(tried))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(tried.wait(), self.join_wait_seconds)

    async def pushed(self) -> dict[str, Any]:
        """The next message the layer pushes to this socket's channel.

        A failed read leaves the socket open: it is read from the log at once and often, the
        group is joined again (a restarted Redis has forgotten it), and the read is retried."""
        await self.channel_ready.wait()
        failures = 0
        while True:
            try:
                message: dict[str, Any] = await self.channel_layer.receive(self.channel_name)
                return message
            except Exception as error:  # any layer failure: the log serves meanwhile
                level = logging.DEBUG if failures else logging.WARNING  # one line per outage
                logger.log(level, "channel layer read failed, serving from the log: %r", error)
                self.joined = False
                self.poll_now.set()
                if self.joining is None or self.joining.done():
                    self.joining = asyncio.create_task(self._join(asyncio.Event()))
                await asyncio.sleep(self._backoff(failures))
                failures += 1

    async def watch_credential(self) -> None:
        """Every WS_AUTH_RECHECK_SECONDS, re-check the token or session the socket was opened
        with; once it is revoked or ended, say so and close (4401): the REST API refuses such
        a credential at once, a socket must not keep streaming with it."""
        while True:
            await asyncio.sleep(settings.WS_AUTH_RECHECK_SECONDS)
            try:
                valid = await credential_valid(self.scope)
            except Exception as error:  # a database hiccup: keep serving, check again later
                logger.warning("re-checking a socket's credential failed: %r", error)
                continue
            if not valid:
                if self.tail is not None:
                    self.tail.cancel()
                await self.close_saying(CLOSE_UNAUTHENTICATED, "token revoked or session ended")
                return

    async def next_poll(self) -> None:
        """Wait until the tail should read the log again: soon while unjoined, else the
        configured safety-net interval (or at once when pushes have just been lost)."""
        seconds = settings.EVENTS_POLL_SECONDS
        if not self.joined:
            seconds = min(seconds, UNPUSHED_POLL_SECONDS)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.poll_now.wait(), seconds)
        self.poll_now.clear()

    async def disconnect(self, code: int) -> None:
        if self.counted:
            from agents.observability.metrics import WEBSOCKETS

            self.counted = False
            WEBSOCKETS.dec()
        for task in (self.joining, self.tail, self.watching):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self.group is not None and self.channel_ready.is_set():
            try:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            except Exception as error:  # the layer expires the membership by itself
                logger.warning("channel layer group_discard failed: %r", error)

    async def _join(self, tried: asyncio.Event) -> None:
        """Make this socket's channel (once) and add it to the group, retrying until it works."""
        assert self.group is not None
        failures = 0
        while True:
            try:
                if not self.channel_ready.is_set():
                    self.channel_name = await self.channel_layer.new_channel()
                    self.channel_ready.set()
                await self.channel_layer.group_add(self.group, self.channel_name)
            except Exception as error:  # any layer failure: the log serves meanwhile
                logger.log(
                    logging.DEBUG if failures else logging.WARNING,  # one line per outage
                    "channel layer join of %s failed (try %d), serving from the log: %r",
                    self.group,
                    failures + 1,
                    error,
                )
                tried.set()
                await asyncio.sleep(self._backoff(failures))
                failures += 1
                continue
            if failures:
                logger.info("joined %s after %d failed tries", self.group, failures)
            self.joined = True
            tried.set()
            return

    def _backoff(self, failures: int) -> float:
        ceiling = min(self.retry_max_seconds, self.retry_first_seconds * 2**failures)
        return random.uniform(ceiling / 2, ceiling)
