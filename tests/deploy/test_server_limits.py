"""`python3 deploy/dev.py run` serves with bounds on what clients hold: a connection cap, a
keep-alive timeout and small WebSocket messages, flags the installed uvicorn accepts; trickling
clients below the cap do not hold up anyone else's request."""

from __future__ import annotations

import importlib.util
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from uvicorn.main import main as uvicorn_cli

ROOT = Path(__file__).resolve().parents[2]
TINY_APP = """
import asyncio

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    if scope["path"] == "/slow":
        await asyncio.sleep(1.5)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})
"""


def load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev_limits", ROOT / "deploy" / "dev.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_server_command_bounds_connections_with_defaults(monkeypatch: Any) -> None:
    for variable in load_dev().SERVER_LIMITS:
        monkeypatch.delenv(variable, raising=False)
    command = load_dev().server_command(host="127.0.0.1", port="8000")

    flags = dict(zip(command[2::2], command[3::2], strict=False))
    assert flags["--limit-concurrency"] == "1000"
    assert flags["--timeout-keep-alive"] == "5"
    assert flags["--ws-max-size"] == "65536"
    # every flag is one the installed uvicorn parses, with the value it means
    params = uvicorn_cli.make_context("uvicorn", command[1:]).params
    assert params["limit_concurrency"] == 1000 and params["timeout_keep_alive"] == 5
    assert params["ws_max_size"] == 65536
    assert params["http"] == "config.web_protocols:HttpToolsProtocol"


def test_the_bounds_are_settings(monkeypatch: Any) -> None:
    monkeypatch.setenv("WEB_LIMIT_CONCURRENCY", "50")
    monkeypatch.setenv("WEB_TIMEOUT_KEEP_ALIVE", "2")
    command = load_dev().server_command(host="127.0.0.1", port="8000")

    params = uvicorn_cli.make_context("uvicorn", command[1:]).params
    assert params["limit_concurrency"] == 50 and params["timeout_keep_alive"] == 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path, monkeypatch: Any) -> Iterator[int]:
    """A tiny app behind uvicorn with the run command's flags (cap 40, keep-alive 1 s)."""
    monkeypatch.setenv("WEB_LIMIT_CONCURRENCY", "40")
    monkeypatch.setenv("WEB_TIMEOUT_KEEP_ALIVE", "1")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # config.web_protocols, from the app's cwd
    yield from serve_tiny(tmp_path)


def serve_tiny(tmp_path: Path) -> Iterator[int]:
    (tmp_path / "tiny.py").write_text(TINY_APP)
    port = free_port()
    command = load_dev().server_command(host="127.0.0.1", port=str(port))
    command[1:2] = ["tiny:app", "--app-dir", str(tmp_path), "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def request(port: int) -> tuple[bytes, socket.socket]:
    client = socket.create_connection(("127.0.0.1", port), timeout=1.0)
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    return client.recv(4096), client


def trickling(port: int, count: int) -> list[socket.socket]:
    """Clients that send half a request's headers and then nothing more."""
    clients = []
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port), timeout=1.0)
        client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        clients.append(client)
    return clients


def test_trickling_clients_below_the_cap_hold_up_no_one(served: int) -> None:
    slow = trickling(served, 30)
    try:
        started = time.monotonic()
        answer, client = request(served)
        client.close()

        assert answer.startswith(b"HTTP/1.1 200") and time.monotonic() - started < 1.0
    finally:
        for client in slow:
            client.close()


def test_past_the_cap_requests_are_answered_503_at_once(served: int) -> None:
    slow = trickling(served, 45)
    try:
        answer, client = request(served)
        client.close()

        assert answer.startswith(b"HTTP/1.1 503")
    finally:
        for client in slow:
            client.close()


def test_an_idle_keep_alive_connection_is_closed_after_the_timeout(served: int) -> None:
    answer, client = request(served)
    assert answer.startswith(b"HTTP/1.1 200")
    client.settimeout(3.0)
    started = time.monotonic()

    assert client.recv(1) == b""  # closed by the server
    assert time.monotonic() - started < 2.5
    client.close()


NGINX = ROOT / "deploy" / "nginx" / "agentworks.conf"


def nginx_directives() -> dict[str, str]:
    """Each directive of the proxy config with its value (the last of a name), comments left out."""
    found = {}
    for line in NGINX.read_text().splitlines():
        words = line.split("#")[0].strip().rstrip(";").split(None, 1)
        if len(words) == 2:
            found[words[0]] = words[1]
    return found


def test_the_production_proxy_bounds_slow_and_numerous_clients_per_address() -> None:
    directives = nginx_directives()

    assert directives["client_header_timeout"] == "10s"  # what uvicorn lacks
    assert directives["limit_conn"].startswith("agentworks_conn ")
    assert directives["limit_req"].startswith("zone=agentworks_req ")
    assert "$binary_remote_addr" in directives["limit_conn_zone"]
    assert directives["client_max_body_size"] == "64m"  # REQUEST_MAX_BODY_BYTES's default
    text = NGINX.read_text()
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in text  # SECURE_PROXY_SSL_HEADER
    assert "proxy_set_header Upgrade $http_upgrade;" in text  # the sockets


@pytest.mark.skipif(
    not (shutil.which("nginx") and shutil.which("openssl")), reason="needs nginx and openssl"
)
def test_nginx_accepts_the_proxy_config(tmp_path: Path) -> None:
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=app.example.com", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    config = NGINX.read_text()
    config = re.sub(r"ssl_certificate_key .*;", f"ssl_certificate_key {key};", config)
    config = re.sub(r"ssl_certificate .*;", f"ssl_certificate {cert};", config)
    (tmp_path / "agentworks.conf").write_text(config)
    main = tmp_path / "nginx.conf"
    main.write_text(
        f"pid {tmp_path}/nginx.pid; error_log stderr; events {{}} "
        f"http {{ access_log off; include {tmp_path}/agentworks.conf; }}"
    )

    done = subprocess.run(["nginx", "-t", "-c", str(main)], capture_output=True, text=True)

    assert done.returncode == 0, done.stderr


@pytest.fixture
def impatient(tmp_path: Path, monkeypatch: Any) -> Iterator[int]:
    """The tiny app served with the run command's flags and a 1 s header timeout."""
    monkeypatch.setenv("WEB_HEADER_TIMEOUT", "1")
    monkeypatch.setenv("WEB_TIMEOUT_KEEP_ALIVE", "30")  # so only the header timer can close
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # config.web_protocols, from the app's cwd
    yield from serve_tiny(tmp_path)


def test_a_client_that_trickles_its_headers_is_closed_at_the_header_timeout(
    impatient: int,
) -> None:
    client = socket.create_connection(("127.0.0.1", impatient), timeout=5.0)
    started = time.monotonic()
    client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    closed_at = None
    for byte in b"X-Slow: " + b"a" * 40:  # one byte every 0.1 s: never idle, never done
        try:
            client.sendall(bytes([byte]))
        except OSError:
            closed_at = time.monotonic() - started
            break
        time.sleep(0.1)
    else:
        client.settimeout(0.5)
        assert client.recv(1) == b""
        closed_at = time.monotonic() - started
    client.close()

    assert closed_at is not None and 0.9 < closed_at < 2.5


def test_the_header_timeout_cuts_neither_a_kept_alive_request_nor_a_slow_answer(
    impatient: int,
) -> None:
    client = socket.create_connection(("127.0.0.1", impatient), timeout=5.0)
    for _ in range(3):  # each request's headers in time, over 3 s on one connection
        client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert whole_response(client).startswith(b"HTTP/1.1 200")
        time.sleep(0.6)
    client.sendall(b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")  # answered after 1.5 s

    assert whole_response(client).startswith(b"HTTP/1.1 200")
    client.close()


def whole_response(client: socket.socket) -> bytes:
    """One chunked response of the tiny app, read to its last chunk."""
    data = b""
    while not data.endswith(b"0\r\n\r\n"):
        more = client.recv(4096)
        assert more, f"closed after {data!r}"
        data += more
    return data
