"""What the app's WebSocket consumers share: explained refusals, and a group plus a tail task
that are cleaned up on disconnect."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

CLOSE_UNAUTHENTICATED = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_BAD_REQUEST = 4400


class GroupTailConsumer(AsyncJsonWebsocketConsumer):
    """Joins one channel group and runs one background tail; both end with the socket."""

    group: str | None = None
    tail: asyncio.Task[None] | None = None
    counted = False

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        from agents.observability.metrics import WEBSOCKETS

        await super().accept(*args, **kwargs)
        if not self.counted:
            self.counted = True
            WEBSOCKETS.inc()

    async def refuse(self, code: int, message: str) -> None:
        """Accept only to say why, then close: a bare handshake refusal explains nothing."""
        await self.accept()
        await self.send_json({"type": "error", "code": code, "error": message})
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.counted:
            from agents.observability.metrics import WEBSOCKETS

            self.counted = False
            WEBSOCKETS.dec()
        if self.tail is not None:
            self.tail.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.tail
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
