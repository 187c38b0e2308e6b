"""uvicorn serving the app in a subprocess, for the benchmarks that need real WebSockets."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class Server:
    """uvicorn serving config.asgi:application in a subprocess."""

    def __init__(self, *, port: int, env: dict[str, str], log_path: Path) -> None:
        self.port = port
        self.log_path = log_path
        self.command = [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        self.log = log_path.open("wb")
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env={**os.environ, **env, "PYTHONUNBUFFERED": "1"},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 60.0) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"uvicorn exited ({self.process.returncode}):\n{self.tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return time.monotonic() - started
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"uvicorn did not listen within {timeout:.0f} s:\n{self.tail()}")

    def tail(self, chars: int = 4000) -> str:
        self.log.flush()
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()
