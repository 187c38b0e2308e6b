"""Heavy PDF work (reading a filing, rendering a page) in a child process with a memory ceiling
and a CPU budget, so a file built to exhaust either stops its own child only: the caller gets a
`DocumentError` saying which limit it passed, never a dead web server or worker.

The child is a fresh interpreter (`python -m finance.documents.child JOB`), safe to start from a
threaded server and from a daemonic Celery worker alike. It sets `RLIMIT_AS` and `RLIMIT_CPU` on
itself before it imports pdfium; the processes it forks inherit them. Protocol: the result on
stdout; on stderr, `event ...` lines for the caller's progress and an `error ...` line with the
reason when a job refuses its input (exit 2). Running out of memory exits 3 (or dies of SIGABRT
or SIGSEGV in native code); passing the CPU budget dies of SIGXCPU.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from finance.documents.errors import DocumentError

logger = logging.getLogger(__name__)
MB = 1 << 20
REFUSED_EXIT, MEMORY_EXIT = 2, 3
OUT_OF_MEMORY = {MEMORY_EXIT, -signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS, -signal.SIGKILL}
ROOT = Path(__file__).resolve().parents[2]
Job = Callable[[dict[str, Any], Callable[[str], None]], bytes]


class ChildLimitExceeded(DocumentError):
    """The child passed its memory or CPU budget; the message says which, for the user."""


@dataclass(frozen=True)
class ChildBudget:
    memory_bytes: int
    cpu_seconds: float
    wall_seconds: float  # a backstop for a child that sleeps or blocks instead of computing
    cpu_rule: str = ""  # how the child narrows its CPU budget, for messages ("... a page")


def run_child(
    job: dict[str, Any],
    *,
    budget: ChildBudget,
    what: str,
    on_event: Callable[[str], None] | None = None,
) -> bytes:
    """Run `job` in a bounded child; its stdout, or DocumentError with the reason. `what` names
    the work in messages ("reading the file", "rendering the page")."""
    limits = {"memory_bytes": budget.memory_bytes, "cpu_seconds": budget.cpu_seconds}
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "finance.documents.child", json.dumps({**job, **limits})],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own process group: a kill reaches its pool too
        )
        expired = threading.Event()
        timer = threading.Timer(budget.wall_seconds, _expire, [child, expired])
        timer.start()
        try:
            refusal, tail = _read_stderr(child.stderr, on_event)
            code = child.wait()
        finally:
            timer.cancel()
            _kill_group(child)
        if code == 0:
            out.seek(0)
            return out.read()
    if code == REFUSED_EXIT and refusal:
        raise DocumentError(refusal)
    if code == -signal.SIGXCPU or expired.is_set():
        rule = budget.cpu_rule or f"{budget.cpu_seconds:g} s"
        raise ChildLimitExceeded(
            f"{what} took more than its time budget ({rule} of CPU): a file built to exhaust "
            "the servers is refused"
        )
    if code in OUT_OF_MEMORY:
        raise ChildLimitExceeded(
            f"{what} needed more than its {budget.memory_bytes // MB} MB of memory: "
            "a file built to exhaust the servers is refused"
        )
    logger.warning("%s failed in its child (exit status %s): %s", what, code, tail)
    raise DocumentError(f"{what} failed because of an internal error (exit status {code})")


def _expire(child: subprocess.Popen[bytes], expired: threading.Event) -> None:
    expired.set()
    _kill_group(child)


def _kill_group(child: subprocess.Popen[bytes]) -> None:
    """Kill the child and whatever it started (a pool left behind by a child that died)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(child.pid, signal.SIGKILL)


def _read_stderr(
    stream: IO[bytes] | None, on_event: Callable[[str], None] | None
) -> tuple[str, str]:
    """Pass `event` lines on while the child runs; the `error` line and the last other lines."""
    refusal, tail = "", ""
    for raw in stream or ():
        line = raw.decode("utf-8", "replace").rstrip("\n")
        if line.startswith("event "):
            if on_event is not None:
                on_event(line[6:])
        elif line.startswith("error "):
            refusal = line[6:]
        else:
            tail = (tail + "\n" + line)[-2000:]
    return refusal, tail


# --- the child ---------------------------------------------------------------------------------


def _limit_self(job: dict[str, Any]) -> None:
    memory = int(job["memory_bytes"])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = max(1, round(float(job["cpu_seconds"])))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))


def _emit(line: str) -> None:
    sys.stderr.write(f"event {line}\n")
    sys.stderr.flush()


def _jobs() -> dict[str, Job]:
    from finance.documents.pdf_page import page_text_job, render_job
    from finance.documents.reading import read_job, statements_job

    return {
        "render": render_job,
        "text": page_text_job,
        "read": read_job,
        "statements": statements_job,
    }


def main(argv: list[str]) -> int:
    job = json.loads(argv[1])
    _limit_self(job)
    try:
        result = _jobs()[job["command"]](job, _emit)
    except DocumentError as error:
        sys.stderr.write("error " + " ".join(str(error).split()) + "\n")
        return REFUSED_EXIT
    except MemoryError:
        return MEMORY_EXIT
    sys.stdout.buffer.write(result)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
