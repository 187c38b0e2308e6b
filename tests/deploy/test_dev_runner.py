"""`python3 deploy/dev.py run` stops its server and worker (and their children) on SIGTERM as on
Ctrl-C, so a killed runner does not leave the port held."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

# A server-like child: it forks a grandchild that listens on the port (as uvicorn's or Celery's
# pool processes do), then waits; both ignore nothing, so only a signal to the group ends both.
SERVER = """
import subprocess, sys, time
port, pids = sys.argv[1], sys.argv[2]
listener = subprocess.Popen([sys.executable, "-c", '''
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen()
time.sleep(600)
''', port])
open(pids, "w").write(f"{__import__('os').getpid()} {listener.pid}")
time.sleep(600)
"""
WORKER = """
import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(600)
"""
SUPERVISOR = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("dev", sys.argv[1])
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)
py = sys.executable
server = [py, "-c", sys.argv[2], sys.argv[4], sys.argv[5]]
worker = [py, "-c", sys.argv[3], sys.argv[6]]
dev.supervise([server, worker], poll_seconds=0.1)
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state  # a zombie nobody reaped yet holds nothing


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def wait_until(check, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_signal_to_the_runner_stops_every_process_it_started(tmp_path, signum):
    port = free_port()
    server_pids, worker_pid = tmp_path / "server", tmp_path / "worker"
    runner = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, str(ROOT / "deploy" / "dev.py"), SERVER, WORKER,
         str(port), str(server_pids), str(worker_pid)],
        cwd=tmp_path,
    )  # fmt: skip
    try:
        assert wait_until(lambda: server_pids.exists() and worker_pid.exists() and listening(port))
        pids = [int(pid) for pid in server_pids.read_text().split()] + [int(worker_pid.read_text())]
        assert all(alive(pid) for pid in pids)

        runner.send_signal(signum)
        assert runner.wait(timeout=15) is not None

        assert wait_until(lambda: not any(alive(pid) for pid in pids)), [
            pid for pid in pids if alive(pid)
        ]
        assert not listening(port), "the port is still held after the runner stopped"
        with socket.socket() as again:  # and the next `dev.py run` can take it
            again.bind(("127.0.0.1", port))
    finally:
        if runner.poll() is None:
            runner.kill()
            runner.wait()


RESTARTING_WORKER = """
import os, sys, time
with open(sys.argv[1], "a") as pids:
    pids.write(f"{os.getpid()}\\n")
time.sleep(600)
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads process states from /proc")
def test_a_worker_that_dies_is_started_again_while_the_server_keeps_serving(tmp_path):
    port = free_port()
    server_pids, worker_pids = tmp_path / "server", tmp_path / "workers"
    runner = subprocess.Popen(
        [sys.executable, "-c", SUPERVISOR, str(ROOT / "deploy" / "dev.py"), SERVER,
         RESTARTING_WORKER, str(port), str(server_pids), str(worker_pids)],
        cwd=tmp_path,
    )  # fmt: skip
    try:
        assert wait_until(lambda: worker_pids.exists() and listening(port))
        first = int(worker_pids.read_text().split()[0])
        os.kill(first, signal.SIGKILL)  # as the kernel's OOM killer does

        assert wait_until(lambda: len(worker_pids.read_text().split()) == 2), "not restarted"
        second = int(worker_pids.read_text().split()[1])
        assert alive(second) and not alive(first)
        assert runner.poll() is None, "the runner stopped with its worker"
        assert listening(port), "the web server stopped serving when the worker died"
    finally:
        runner.send_signal(signal.SIGTERM)
        runner.wait(timeout=15)
    assert not listening(port)


CRASHING = """
import sys
open(sys.argv[1], "a").write("x")
sys.exit(3)
"""
CRASH_SUPERVISOR = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("dev", sys.argv[1])
dev = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dev)
py = sys.executable
dev.supervise([[py, "-c", sys.argv[2], sys.argv[3]], [py, "-c", "import time; time.sleep(600)"]],
              names=["worker", "web server"], poll_seconds=0.05, max_restarts=3)
"""


def test_a_process_that_keeps_dying_stops_everything_and_says_why(tmp_path):
    starts = tmp_path / "starts"
    runner = subprocess.run(
        [sys.executable, "-c", CRASH_SUPERVISOR, str(ROOT / "deploy" / "dev.py"), CRASHING,
         str(starts)],
        cwd=tmp_path, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert runner.returncode != 0
    assert "the worker stopped 4 times within 60 s (last exit code 3)" in runner.stderr
    assert len(starts.read_text()) == 4  # the first start and three restarts, no more


@pytest.fixture
def clean_environment(monkeypatch):
    """What the run command sets for its children is undone after each test."""
    for name in ("PYOPENGL_PLATFORM", "RENDERING_CHECKED"):
        monkeypatch.setenv(name, "recorded so that it is restored")
        monkeypatch.delenv(name)


def load_dev() -> Any:
    spec = importlib.util.spec_from_file_location("dev_runner", ROOT / "deploy" / "dev.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_run_command_falls_back_to_the_backend_that_draws(
    monkeypatch, capsys, clean_environment
):
    dev = load_dev()

    def render_check(extra: dict[str, str]) -> dict[str, Any]:
        if extra.get("PYOPENGL_PLATFORM") == "egl":
            return {"platform": "egl", "renders": True, "renderer": "llvmpipe", "reason": "x"}
        return {"platform": "osmesa", "renders": False, "error": "no context", "reason": "y"}

    monkeypatch.setattr(dev, "_render_check", render_check)
    dev.check_rendering()
    assert os.environ["PYOPENGL_PLATFORM"] == "egl"  # handed to the server and the worker
    out = capsys.readouterr().out
    assert "rendering: egl (llvmpipe): osmesa does not render here" in out
    assert os.environ["RENDERING_CHECKED"] == "egl (llvmpipe): osmesa does not render here"


def test_the_run_command_says_when_nothing_renders_and_serves_anyway(
    monkeypatch, capsys, clean_environment
):
    dev = load_dev()
    monkeypatch.setattr(
        dev,
        "_render_check",
        lambda extra: {"platform": "osmesa", "renders": False, "error": "libOSMesa missing"},
    )
    dev.check_rendering()
    assert "PYOPENGL_PLATFORM" not in os.environ
    assert "rendering: UNAVAILABLE" in capsys.readouterr().out
