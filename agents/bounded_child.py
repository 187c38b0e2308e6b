"""Heavy work on a user's input (reading a filing, drawing a page, building and rendering a scene)
in a child process with a memory ceiling and a CPU budget, so an input built to exhaust either
stops its own child only: the caller gets an error saying which limit it passed, never a dead
web server or worker.

The child is a fresh interpreter (`python -m agents.bounded_child MODULE JOB`), safe to start
from a threaded server and from a daemonic Celery worker alike. It sets its memory limit
(`RLIMIT_AS`, or `RLIMIT_DATA`) and `RLIMIT_CPU` on itself before it imports MODULE; the
processes it forks inherit them. Protocol: the result on stdout; on stderr, `event ...` lines for
the caller's progress and an `error ...` line with the reason when a job refuses its input (exit
2). Running out of memory exits 3 (or dies of SIGABRT, SIGSEGV or SIGBUS in native code); passing
the CPU budget dies of SIGXCPU.

A workspace's child module has its table of jobs (`jobs()`) and the exceptions that refuse an
input (`REFUSALS`); its callers call `run_child` with the module's name and the exception
classes they answer with.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

logger = logging.getLogger(__name__)
MB = 1 << 20
REFUSED_EXIT, MEMORY_EXIT = 2, 3
OUT_OF_MEMORY = {MEMORY_EXIT, -signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS, -signal.SIGKILL}
NATIVE_OUT_OF_MEMORY = ("MemoryError", "Memory allocation", "bad_alloc", "Cannot allocate memory")
"""What a native library prints when it exits for want of memory (OpenBLAS exits 1 so)."""
ROOT = Path(__file__).resolve().parents[1]
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
Job = Callable[[dict[str, Any], Callable[[str], None]], bytes]


@dataclass(frozen=True)
class ChildBudget:
    memory_bytes: int
    cpu_seconds: float
    wall_seconds: float  # a backstop for a child that sleeps or blocks instead of computing
    cpu_rule: str = ""  # how the child narrows its CPU budget, for messages ("... a page")
    counts: str = "address space"
    """What the memory ceiling limits: "address space" (RLIMIT_AS, every mapping), or "data"
    (RLIMIT_DATA: heap and private writable mappings, for a child that may map a GPU driver's
    large shared regions, which RLIMIT_AS would refuse)."""


@dataclass(frozen=True)
class ChildErrors:
    """The exceptions a caller answers with: `refused` for an input the job refused (its own
    message), `exceeded` for a child past its memory or time budget."""

    refused: type[Exception]
    exceeded: type[Exception]


def run_child(
    module: str,
    job: dict[str, Any],
    *,
    budget: ChildBudget,
    what: str,
    errors: ChildErrors,
    on_event: Callable[[str], None] | None = None,
) -> bytes:
    """Run `job` in a bounded child of `module`; its stdout, or one of `errors` with the reason.
    `what` names the work in messages ("reading the file", "rendering the page")."""
    limits = {
        "memory_bytes": budget.memory_bytes,
        "memory_counts": budget.counts,
        "cpu_seconds": budget.cpu_seconds,
    }
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    # One thread for numeric libraries: their per-thread buffers would count against the budget.
    env = {**os.environ, "PYTHONPATH": path, **ONE_THREAD}
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            [sys.executable, "-m", "agents.bounded_child", module, json.dumps({**job, **limits})],
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
        raise errors.refused(refusal)
    if code == -signal.SIGXCPU or expired.is_set():
        rule = budget.cpu_rule or f"{budget.cpu_seconds:g} s"
        raise errors.exceeded(
            f"{what} took more than its time budget ({rule} of CPU): an input built to exhaust "
            "the servers is refused"
        )
    if code in OUT_OF_MEMORY or (code != 0 and any(sign in tail for sign in NATIVE_OUT_OF_MEMORY)):
        raise errors.exceeded(
            f"{what} needed more than its {budget.memory_bytes // MB} MB of memory: "
            "an input built to exhaust the servers is refused"
        )
    logger.warning("%s failed in its child (exit status %s): %s", what, code, tail)
    raise errors.refused(f"{what} failed because of an internal error (exit status {code})")


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


def _limit_self(job: Mapping[str, Any]) -> None:
    memory = int(job["memory_bytes"])
    kind = resource.RLIMIT_DATA if job.get("memory_counts") == "data" else resource.RLIMIT_AS
    resource.setrlimit(kind, (memory, memory))
    cpu = max(1, round(float(job["cpu_seconds"])))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))


def _emit(line: str) -> None:
    sys.stderr.write(f"event {line}\n")
    sys.stderr.flush()


def main(argv: list[str]) -> int:
    """The child: `python -m agents.bounded_child MODULE JOB`. It limits itself, then imports
    MODULE (whose `jobs()` names its jobs and `REFUSALS` the exceptions that are the input's
    fault, their message going back to the caller) and runs the job named by `command`. Every
    import happens under the limits, so running out of memory there is counted as such."""
    module_name, job = argv[1], json.loads(argv[2])
    _limit_self(job)
    try:
        module = importlib.import_module(module_name)
        refusals: tuple[type[Exception], ...] = module.REFUSALS
        try:
            result = module.jobs()[job["command"]](job, _emit)
        except refusals as error:
            sys.stderr.write("error " + " ".join(str(error).split()) + "\n")
            return REFUSED_EXIT
    except MemoryError:
        return MEMORY_EXIT
    sys.stdout.buffer.write(result)
    sys.stdout.flush()
    return 0


def pack(header: Mapping[str, Any], blobs: Mapping[str, bytes]) -> bytes:
    """A child's result with binary parts: one JSON line (the header, and each blob's length),
    then the blobs one after another."""
    sizes = {name: len(data) for name, data in blobs.items()}
    line = json.dumps({"header": header, "blobs": sizes}).encode() + b"\n"
    return line + b"".join(blobs.values())


def unpack(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The header and blobs of `pack`."""
    line, _, rest = data.partition(b"\n")
    meta = json.loads(line)
    blobs: dict[str, bytes] = {}
    offset = 0
    for name, size in meta["blobs"].items():
        blobs[name] = rest[offset : offset + size]
        offset += size
    return meta["header"], blobs


if __name__ == "__main__":
    sys.exit(main(sys.argv))
