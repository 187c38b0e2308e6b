"""uvicorn's HTTP protocols with a header timeout, which uvicorn lacks.

A client must finish a request's headers within `WEB_HEADER_TIMEOUT` seconds (10) of opening the
connection, or of the previous response on a kept-alive one; otherwise the connection is closed.
Without it a client that trickles its headers a byte at a time holds its connection (and one of
`--limit-concurrency`'s places) for as long as it likes. A request whose headers are complete is
never cut by this timer (a slow upload or a long response), nor is a connection upgraded to a
WebSocket.

Serve with `uvicorn --http config.web_protocols:HttpToolsProtocol` (or `:H11Protocol`); the run
command, the image and the Kubernetes manifest do.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol as _H11
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HttpTools

DEFAULT_HEADER_TIMEOUT = 10.0


def header_timeout() -> float:
    """`WEB_HEADER_TIMEOUT` in seconds (0 turns the timer off)."""
    return float(os.environ.get("WEB_HEADER_TIMEOUT") or DEFAULT_HEADER_TIMEOUT)


class HeaderTimeout:
    """Mixin over a uvicorn HTTP protocol: arm a timer when a connection opens and after each
    response; when it fires, close the connection unless a request's headers have arrived since
    (uvicorn makes the request's cycle then) or the connection is a WebSocket's now."""

    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_timeout = header_timeout()
        self._header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        if not self.transport.is_closing():
            self._arm_header_timer()  # the next request's headers are due in time too

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        if self._header_timeout > 0:
            self._header_timer = self.loop.call_later(self._header_timeout, self._headers_late)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_late(self) -> None:
        self._header_timer = None
        protocol: object = self.transport.get_protocol()
        if self.transport.is_closing() or protocol is not self:
            return  # closed already, or a WebSocket's connection now
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request's headers arrived: it is being answered
        self.transport.close()


class HttpToolsProtocol(HeaderTimeout, _HttpTools):
    """uvicorn's httptools protocol (what "auto" picks) with the header timeout."""


class H11Protocol(HeaderTimeout, _H11):
    """uvicorn's h11 protocol with the header timeout."""
