"""Request bodies over REQUEST_MAX_BODY_BYTES get a 413 JSON answer before they are read: by
Content-Length in Django and in front of it (ASGI), and by counting what streams in."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from config.body_limit import BodyLimitASGI, BodyLimitUploadHandler, RequestBodyTooLarge

LIMIT = 1000


@pytest.mark.django_db
@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
def test_an_upload_over_the_limit_is_a_413_json(
    alice: Any, alice_api: Any, make_workspace: Any
) -> None:
    workspace = make_workspace(alice, kind="studio")
    big = SimpleUploadedFile("big.stl", b"x" * (LIMIT * 2))

    response = alice_api.post(
        f"/api/v1/studio/workspaces/{workspace.pk}/meshes/", {"file": big}, format="multipart"
    )

    assert response.status_code == 413
    assert "larger than the limit" in response.json()["detail"]


@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
def test_the_upload_handler_stops_a_body_without_a_length_once_it_passes() -> None:
    handler = BodyLimitUploadHandler()
    handler.handle_raw_input(None, {}, 0, b"boundary")  # length unknown
    handler.receive_data_chunk(b"x" * 600, 0)

    with pytest.raises(RequestBodyTooLarge):
        handler.receive_data_chunk(b"x" * 600, 600)


async def _call(app: Any, headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> list[Any]:
    sent: list[dict[str, Any]] = []
    pending = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/v1/runs/", "headers": headers}
    await app(scope, receive, send)
    return sent


class ReadsWholeBody:
    """Like Django's ASGI handler: read every chunk, then answer 200 (or stop on disconnect)."""

    def __init__(self) -> None:
        self.read = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            self.read += len(message["body"])
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


@pytest.mark.asyncio
@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
async def test_asgi_refuses_a_declared_length_over_the_limit_unread() -> None:
    inner = ReadsWholeBody()
    sent = await _call(BodyLimitASGI(inner), [(b"content-length", b"5000")], [b"x" * 5000])

    assert sent[0]["status"] == 413 and inner.read == 0
    assert "larger than the limit" in json.loads(sent[1]["body"])["detail"]


@pytest.mark.asyncio
@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
async def test_asgi_counts_a_streamed_body_and_stops_it_at_the_limit() -> None:
    inner = ReadsWholeBody()
    sent = await _call(BodyLimitASGI(inner), [], [b"x" * 400] * 10)

    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]
    assert inner.read <= LIMIT


@pytest.mark.asyncio
@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
async def test_asgi_passes_a_body_within_the_limit() -> None:
    sent = await _call(BodyLimitASGI(ReadsWholeBody()), [], [b"x" * 400, b"x" * 400])

    assert sent[0]["status"] == 200


@pytest.mark.asyncio
@override_settings(REQUEST_MAX_BODY_BYTES=LIMIT)
async def test_the_served_application_has_the_guard_in_front() -> None:
    from config.asgi import application

    sent = await _call(application, [(b"content-length", b"5000")], [b"x" * 5000])

    assert sent[0]["status"] == 413
