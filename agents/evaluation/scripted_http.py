"""The scripted server's HTTP side (`agents.evaluation.scripted_server`): a threading server whose
handler answers `/v1/models` and `/v1/chat/completions` with the fake's replies, whole or as SSE
streams re-split at seeded byte offsets, and drops or fails them as a reply asks."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import socket
import sys
import time
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from agents.evaluation.scripted_replies import Reply, Request

if TYPE_CHECKING:
    from agents.evaluation.scripted_server import FakeOpenAI


def split_bytes(data: bytes, pieces: int, seed: int) -> list[bytes]:
    """Cut data at pieces-1 distinct seeded random offsets (anywhere: inside JSON, UTF-8 ...)."""
    if pieces <= 1 or len(data) <= 1:
        return [data]
    cuts = sorted(random.Random(seed).sample(range(1, len(data)), min(pieces - 1, len(data) - 1)))
    bounds = [0, *cuts, len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients that hang up (timeouts, closed pools) are normal here; anything else is not."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    fake: FakeOpenAI

    def setup(self) -> None:
        super().setup()
        with self.fake.lock:
            self.fake.connections += 1
            self.fake._open.add(self.connection)

    def finish(self) -> None:
        with self.fake.lock:
            self.fake._open.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- routing --
    def do_GET(self) -> None:
        request = self._record(b"")
        failure = self.fake.models_failure
        if request.path.rstrip("/") == "/v1/models" and failure is not None:
            body = error_body(failure.error, failure.error_type, failure.status)
            self._send_json(failure.status, body, failure.headers)
        elif request.path.rstrip("/") == "/v1/models":
            model = {"id": self.fake.model, "object": "model", "created": 0, "owned_by": "fake"}
            self._send_json(200, {"object": "list", "data": [model]})
        else:
            self._send_json(404, error_body(f"no route {request.path}", "not_found"))
        request.answered = time.perf_counter()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        request = self._record(self.rfile.read(length))
        try:
            if request.path.rstrip("/") != "/v1/chat/completions":
                self._send_json(404, error_body(f"no route {request.path}", "not_found"))
                return
            reply = self.fake._next_reply(request)
            request.reply = reply
            if reply.first_byte_delay:
                time.sleep(reply.first_byte_delay)
            if reply.status != 200:
                body = error_body(reply.error, reply.error_type, reply.status)
                self._send_json(reply.status, body, reply.headers)
            elif request.streamed:
                self._send_stream(request, reply)
            else:
                self._send_json(200, self.fake.completion(request, reply), reply.headers)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            request.answered = time.perf_counter()

    # -- helpers --
    def _record(self, raw: bytes) -> Request:
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        with self.fake.lock:
            request = Request(
                index=len(self.fake.requests) + 1,
                method=self.command,
                path=self.path.split("?")[0],
                headers={key.lower(): value for key, value in self.headers.items()},
                raw=raw,
                body=body,
                received=time.perf_counter(),
            )
            self.fake.requests.append(request)
        return request

    def _send_json(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _send_stream(self, request: Request, reply: Reply) -> None:
        events = self.fake.stream_events(request, reply)
        data = b"".join(events)
        parts: Iterable[bytes] = (
            split_bytes(data, reply.pieces, reply.seed) if reply.pieces else events
        )
        limit: int | None = None
        if reply.drop_after is not None:
            after = reply.drop_after
            limit = int(len(data) * after) if isinstance(after, float) else int(after)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for key, value in reply.headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.flush()
        sent = 0
        for index, part in enumerate(parts):
            if limit is not None and sent + len(part) > limit:
                part = part[: limit - sent]
            if part:
                if index and reply.chunk_delay:
                    time.sleep(reply.chunk_delay)
                self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                self.wfile.flush()
                sent += len(part)
            if limit is not None and sent >= limit:
                self._drop()
                return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    def _drop(self) -> None:
        """Close the connection mid-stream, without the final chunk: an incomplete body."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


def error_body(message: str, error_type: str, code: int | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": error_type, "param": None, "code": code}}
