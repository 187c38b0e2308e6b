"""Running the real app for end-to-end tests: migrate, a Celery worker and uvicorn as subprocesses.

A `Stack` owns one configuration (database, broker, channel layer, var/ folder) and the processes
started on it. Every process writes its output to a log file under the stack's folder; `logs()`
returns their tails so a failing test can show what the worker and the server said.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
from websockets.sync.client import connect as ws_connect

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
if not (BIN / "celery").exists():
    BIN = ROOT / ".venv" / "bin"

PLUGIN = "tests.plugins.slow_planner"
FINISHED = {"succeeded", "failed", "cancelled", "stuck"}
# Settings the pytest process may have set for itself (tests/settings.py sets VAR_DIR and eager
# Celery); none of them may leak into the app's processes, which get exactly what a stack says.
APP_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "VAR_DIR",
    "SECRET_KEY",
    "DJANGO_SETTINGS_MODULE",
    "DEBUG",
    "ALLOWED_HOSTS",
    "LOG_LEVEL",
)
APP_PREFIXES = (
    "AGENT_",
    "CELERY_",
    "CSRF_",
    "EVENTS_",
    "MODEL_",
    "REDIS_",
    "STORAGE_",
    "SLOW_TICK",
    "PYTEST_",
)

T = TypeVar("T")

_live_stacks: list[Stack] = []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def base_environment() -> dict[str, str]:
    return {
        name: value
        for name, value in os.environ.items()
        if name not in APP_VARIABLES and not name.startswith(APP_PREFIXES)
    }


def wait_for(
    check: Callable[[], T | None],
    *,
    timeout: float,
    what: str,
    interval: float = 0.1,
    stack: Stack | None = None,
) -> T:
    """Call `check` until it returns something truthy; fail (with the logs) after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            logs = f"\n{stack.logs()}" if stack is not None else ""
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}{logs}")
        time.sleep(interval)


@dataclass
class Service:
    """One subprocess, in its own process group so the whole group can be signalled."""

    name: str
    process: subprocess.Popen[bytes]
    log_path: Path

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def kill_group(self) -> None:
        """SIGKILL the process and every child it forked (a prefork worker's pool)."""
        if self.alive:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, timeout: float = 4.0) -> None:
        """SIGTERM the group, then SIGKILL whatever is left after `timeout`."""
        if self.alive:
            with suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=timeout)
        # children (pool processes) may outlive the parent: end the group for good
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(timeout=10)


@dataclass
class Stack:
    """The app on one configuration: `env` holds the settings every process of it gets."""

    folder: Path
    env: dict[str, str] = field(repr=False)
    services: list[Service] = field(default_factory=list, repr=False)
    worker: Service | None = None
    web: Service | None = None
    base_url: str = ""
    token: str = field(default="", repr=False)

    @classmethod
    def create(cls, folder: Path, settings: dict[str, str]) -> Stack:
        folder.mkdir(parents=True, exist_ok=True)
        var_dir = folder / "var"
        env = {
            **base_environment(),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "PYTHONPATH": str(ROOT),
            "PYTHONUNBUFFERED": "1",
            "VAR_DIR": str(var_dir),
            "AGENT_PLUGINS": PLUGIN,
            "AGENT_LEASE_SECONDS": "3",
            "AGENT_SWEEP_SECONDS": "1",
            "LOG_LEVEL": "INFO",
            **settings,
        }
        stack = cls(folder=folder, env=env)
        _live_stacks.append(stack)
        return stack

    # --- processes ---------------------------------------------------------------------------

    def manage(self, *args: str, timeout: float = 120) -> str:
        result = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0:
            raise AssertionError(
                f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
                f"{result.stdout}\n{result.stderr}"
            )
        return result.stdout

    def spawn(self, name: str, command: list[str]) -> Service:
        log_path = self.folder / f"{len(self.services) + 1:02d}-{name}.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        service = Service(name, process, log_path)
        self.services.append(service)
        return service

    def start_worker(
        self, *, pool: str = "prefork", concurrency: int = 1, wait: bool = True
    ) -> Service:
        """A Celery worker; once it says it is ready its sweeper thread runs too."""
        worker = self.spawn(
            "worker",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                f"--pool={pool}",
                "-c",
                str(concurrency),
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"w{len(self.services) + 1}@%h",
            ],
        )
        self.worker = worker
        if wait:
            self.wait_worker()
        return worker

    def wait_worker(self) -> None:
        worker = self.worker
        assert worker is not None
        wait_for(
            lambda: " ready." in worker.log() or _died(worker),
            timeout=60,
            what="the Celery worker to be ready",
            stack=self,
        )

    def start_web(self, *, wait: bool = True) -> str:
        """uvicorn serving config.asgi:application on a free port; returns its base URL."""
        port = free_port()
        self.web = self.spawn(
            "web",
            [
                str(BIN / "uvicorn"),
                "config.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--ws",
                "websockets-sansio",
                "--log-level",
                "warning",
            ],
        )
        self.base_url = f"http://127.0.0.1:{port}"
        if wait:
            self.wait_web()
        return self.base_url

    def wait_web(self, attempts: int = 3) -> None:
        """Wait until uvicorn answers; start it again if another process took its port."""

        def up() -> bool:
            assert self.web is not None
            _died(self.web)
            try:
                with urllib.request.urlopen(f"{self.base_url}/accounts/login/", timeout=2) as r:
                    return bool(r.status == 200)
            except (OSError, urllib.error.URLError):
                return False

        try:
            wait_for(up, timeout=60, interval=0.2, what="uvicorn to answer", stack=self)
        except AssertionError:
            assert self.web is not None
            if attempts <= 1 or self.web.alive or "address already in use" not in self.web.log():
                raise
            self.start_web(wait=False)
            self.wait_web(attempts - 1)

    def start(self, *, pool: str, concurrency: int, token_for: str | None = None) -> None:
        """Migrate, then start the worker and the server side by side and wait for both."""
        self.manage("migrate", "--noinput")
        self.start_worker(pool=pool, concurrency=concurrency, wait=False)
        self.start_web(wait=False)
        if token_for:
            self.create_token(token_for)
        self.wait_worker()
        self.wait_web()

    def create_token(self, username: str = "alice") -> str:
        self.token = self.manage("create_api_token", username, "--create-user").strip()
        assert self.token.startswith("aw_"), self.token
        return self.token

    def stop_all(self) -> None:
        for service in reversed(self.services):
            service.stop()
        if self in _live_stacks:
            _live_stacks.remove(self)

    def logs(self, tail: int = 6000) -> str:
        parts = []
        for service in self.services:
            text = service.log()
            state = "running" if service.alive else f"exited {service.process.returncode}"
            parts.append(f"----- {service.log_path.name} ({state}) -----\n{text[-tail:]}")
        return "\n".join(parts)

    # --- the REST API over real HTTP ---------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None, *, timeout: float = 15) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base_url + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            detail = error.read().decode(errors="replace")
            raise AssertionError(f"{method} {path} -> {error.code}: {detail}") from None

    def create_workspace(self, name: str = "E2E", kind: str = "finance") -> int:
        return int(self.api("POST", "/api/v1/workspaces/", {"name": name, "kind": kind})["id"])

    def create_run(self, workspace: int, prompt: str, options: dict[str, Any] | None = None) -> int:
        body = {"workspace": workspace, "prompt": prompt, "options": options or {}}
        run = self.api("POST", "/api/v1/runs/", body)
        assert run["status"] == "queued", run
        return int(run["id"])

    def run(self, run_id: int) -> dict[str, Any]:
        return dict(self.api("GET", f"/api/v1/runs/{run_id}/"))

    def events(self, run_id: int) -> list[dict[str, Any]]:
        """Every event of a run, following the `next` links."""
        found: list[dict[str, Any]] = []
        path: str | None = f"/api/v1/runs/{run_id}/events/?limit=100"
        while path:
            page = self.api("GET", path)
            found.extend(page["results"])
            path = page["next"][len(self.base_url) :] if page["next"] else None
        return found

    def wait_finished(self, run_id: int, timeout: float = 60) -> dict[str, Any]:
        def finished() -> dict[str, Any] | None:
            run = self.run(run_id)
            return run if run["status"] in FINISHED else None

        return wait_for(
            finished, timeout=timeout, interval=0.25, what=f"run {run_id} to finish", stack=self
        )


@contextmanager
def embedded(
    folder: Path, token_for: str | None = None, settings: dict[str, str] | None = None
) -> Iterator[Stack]:
    """The app on its embedded default: SQLite, the filesystem broker, a prefork worker (as
    `deploy/dev.py run` starts it); `settings` adds to its environment."""
    stack = Stack.create(folder, dict(settings or {}))
    try:
        stack.start(pool="prefork", concurrency=2, token_for=token_for)
        yield stack
    finally:
        stack.stop_all()


class EventSocket:
    """A WebSocket client of `ws/runs/<id>/`, authenticated with the stack's bearer token."""

    def __init__(self, stack: Stack, run_id: int, after: int = 0) -> None:
        url = stack.base_url.replace("http://", "ws://", 1) + f"/ws/runs/{run_id}/?after={after}"
        self._exit = ExitStack()
        self.connection = self._exit.enter_context(
            ws_connect(
                url, additional_headers={"Authorization": f"Bearer {stack.token}"}, open_timeout=10
            )
        )

    def next_event(self, timeout: float) -> dict[str, Any]:
        """The next event sent; TimeoutError if none comes within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"no event within {timeout:g} s")
            message = json.loads(self.connection.recv(timeout=remaining))
            if message.get("type") == "event":
                return dict(message["event"])
            if message.get("type") == "error":
                raise AssertionError(f"the server refused the socket: {message}")

    def close(self) -> None:
        self._exit.close()

    def __enter__(self) -> EventSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _died(service: Service) -> bool:
    if not service.alive:
        raise AssertionError(
            f"{service.name} exited with {service.process.returncode}:\n{service.log()[-6000:]}"
        )
    return False


def assert_seqs(events: list[dict[str, Any]], count: int | None = None) -> None:
    """Events are exactly seq 1..N, once each, in order."""
    seqs = [int(event["seq"]) for event in events]
    expected = list(range(1, (count if count is not None else len(seqs)) + 1))
    assert seqs == expected, f"seqs {seqs} are not 1..{len(expected)}"


def live_stacks() -> Iterator[Stack]:
    yield from list(_live_stacks)


def report_logs_on_failure(item: pytest.Item) -> None:
    """Print the logs of every running stack after a failed test (pytest shows them)."""
    report = getattr(item, "rep_call", None)
    if report is None or not report.failed:
        return
    for stack in live_stacks():
        print(f"\n===== logs of the app under {stack.folder} =====\n{stack.logs()}")
