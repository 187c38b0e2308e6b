"""Request bodies over REQUEST_MAX_BODY_BYTES are refused with 413 before they are read.

Three guards, one limit: `BodyLimitASGI` in front of everything served by uvicorn (which has no
body limit of its own) checks Content-Length and counts the chunks as they arrive; in Django,
`BodyLimitMiddleware` checks Content-Length and `BodyLimitUploadHandler` counts a multipart
upload while it streams to disk (a body without a length, or one that lies about it).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework import status
from rest_framework.exceptions import APIException

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def max_body_bytes() -> int:
    return int(getattr(settings, "REQUEST_MAX_BODY_BYTES", 0) or 0)


def too_large_message(limit: int) -> str:
    return f"the request body is larger than the limit of {limit / 2**20:.0f} MB"


class RequestBodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "body_too_large"


def too_large_response(limit: int) -> JsonResponse:
    return JsonResponse({"detail": too_large_message(limit)}, status=413)


class BodyLimitMiddleware:
    """Django: refuse by Content-Length, and turn the upload handler's refusal into a 413."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = max_body_bytes()
        if limit and _content_length(request.META.get("CONTENT_LENGTH")) > limit:
            return too_large_response(limit)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, RequestBodyTooLarge):  # a plain Django view read the upload
            return too_large_response(max_body_bytes())
        return None


class BodyLimitUploadHandler(FileUploadHandler):
    """Counts a multipart body as it streams; raises RequestBodyTooLarge past the limit."""

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],
        content_length: int,
        boundary: Any,
        encoding: str | None = None,
    ) -> None:
        self.limit, self.seen = max_body_bytes(), 0
        if self.limit and (content_length or 0) > self.limit:
            raise RequestBodyTooLarge(too_large_message(self.limit))

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.seen += len(raw_data)
        if self.limit and self.seen > self.limit:
            raise RequestBodyTooLarge(too_large_message(self.limit))
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handlers store the file


class BodyLimitASGI:
    """ASGI: answer 413 to an HTTP request whose body passes the limit, declared or streamed."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = max_body_bytes()
        if scope["type"] != "http" or not limit:
            await self.inner(scope, receive, send)
            return
        if _content_length(_header(scope, b"content-length")) > limit:
            await _send_413(send, limit)
            return
        seen = 0
        refused = False

        async def counting_receive() -> Message:
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Answer now; the app sees the client go away and stops reading.
                    refused = True
                    await _send_413(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not refused:  # after our 413, whatever the app says is not sent
                await send(message)

        await self.inner(scope, counting_receive, guarded_send)


async def _send_413(send: Send, limit: int) -> None:
    body = json.dumps({"detail": too_large_message(limit)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def _content_length(raw: str | None) -> int:
    try:
        return max(0, int(raw or 0))
    except ValueError:
        return 0
