"""A host-wide cap on sandboxes at once: past it a run is refused at once, as busy, and nothing
starts; the slots are shared by every process (the web server and each worker)."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from agents.runtime import ToolError
from agents.sandbox import SandboxBusy, SandboxHost, SandboxLimits, run_code, sandbox_session
from agents.sandbox.configured import run_configured

LIMITS = SandboxLimits(timeout_s=20, cpu_s=20, memory_mb=256, max_processes=24)
HOLD = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def other_processes_hold(tmp_path):
    """Other processes (as other workers would be) each running a sandbox: they hold slots."""
    holders: list[subprocess.Popen[str]] = []

    def hold(count: int) -> None:
        for number in range(count):
            holder = subprocess.Popen(
                [sys.executable, "-c", HOLD, str(tmp_path / f"slot-{number}")],
                stdout=subprocess.PIPE,
                text=True,
            )
            holders.append(holder)
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"

    yield hold
    for holder in holders:
        holder.kill()
        holder.wait()


def test_the_run_past_the_cap_is_refused_at_once_and_runs_nothing(
    bwrap, tmp_path, other_processes_hold
):
    host = SandboxHost(max_concurrent=2, slots_dir=str(tmp_path))
    other_processes_hold(2)
    started = time.monotonic()
    with pytest.raises(SandboxBusy, match=r"busy.*try again"):
        run_code("print('third')", LIMITS, host=host)
    assert time.monotonic() - started < 2.0


def test_a_slot_is_free_again_when_its_run_ends(bwrap, tmp_path):
    host = SandboxHost(max_concurrent=1, slots_dir=str(tmp_path))
    with sandbox_session(LIMITS, host=host) as first:
        running = threading.Thread(
            target=first.run, args=("import time\nopen('out/started', 'w')\ntime.sleep(3)",)
        )
        running.start()
        deadline = time.monotonic() + 10
        while not (first.path / "out" / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        with pytest.raises(SandboxBusy):
            run_code("print('second')", LIMITS, host=host)
        running.join()
    assert run_code("print('second')", LIMITS, host=host).stdout == "second\n"


def test_the_tool_says_busy_to_the_model(bwrap, tmp_path, settings, other_processes_hold):
    settings.SANDBOX_MAX_CONCURRENT = 1
    settings.SANDBOX_SLOTS_DIR = str(tmp_path)
    other_processes_hold(1)
    with pytest.raises(ToolError, match="busy"):
        run_configured("print('hello')")


def test_the_command_says_busy(bwrap, tmp_path, settings, other_processes_hold):
    from django.core.management import CommandError, call_command

    settings.SANDBOX_MAX_CONCURRENT = 1
    settings.SANDBOX_SLOTS_DIR = str(tmp_path)
    other_processes_hold(1)
    script = Path(tmp_path, "script.py")
    script.write_text("print('hello')")
    with pytest.raises(CommandError, match="busy"):
        call_command("run_sandboxed", str(script))
