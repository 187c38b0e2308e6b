"""What a sandboxed run gives back, and the limits it ran under."""

from __future__ import annotations

import signal
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

ExitReason = Literal["ok", "error", "timeout", "memory", "killed"]

MEMORY_EXIT = 102
"""The launcher's exit status when the script ran out of address space (a MemoryError)."""


@dataclass(frozen=True)
class SandboxLimits:
    """The limits of one run; every one binds the script, none the host."""

    timeout_s: float = 30.0
    """Wall clock: past it the whole sandbox is killed."""
    memory_mb: int = 1024
    """Address space of each process (RLIMIT_AS), and all the sandbox holds at once (its memory
    cgroup: every process, memfd files, /tmp and /dev/shm)."""
    cpu_s: int = 30
    """CPU time (RLIMIT_CPU)."""
    max_processes: int = 64
    """Processes and threads of the sandbox's user (RLIMIT_NPROC) and of the sandbox (pids.max)."""
    max_file_mb: int = 64
    """The largest file the script may write (RLIMIT_FSIZE); its stdout and stderr too."""
    max_open_files: int = 256
    """RLIMIT_NOFILE."""
    tmp_mb: int = 64
    """Size of the private /tmp."""
    output_chars: int = 8000
    """Characters of stdout and of stderr kept in the result (head and tail)."""


@dataclass(frozen=True)
class SandboxHost:
    """What the host allows all sandboxes together, and what it requires of each."""

    max_concurrent: int = 4
    """Sandboxes running at once on this host (0: no cap); past it a run is refused as busy."""
    slots_dir: str = ""
    """The lock files that count them, shared by every process (default: in the temp folder)."""
    require_cgroup: bool = True
    """Refuse to run where no memory cgroup can be made (memfd and /tmp would be unbounded)."""
    cgroup: str = ""
    """A delegated cgroup v2 directory to make run cgroups in (default: this process's own)."""


@dataclass(frozen=True)
class WrittenFile:
    path: str
    """Relative to the session directory, as the script named it ("out/mesh.glb")."""
    bytes: int


@dataclass(frozen=True)
class SandboxResult:
    """How a sandboxed script ended, what it printed (capped) and the files it left."""

    exit_reason: ExitReason
    exit_code: int | None
    stdout: str
    stderr: str
    files: list[WrittenFile] = field(default_factory=list)
    duration_s: float = 0.0
    memory_peak_mb: float | None = None
    """The most memory the sandbox held at once, as its cgroup counted (None without one)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def exit_reason(
    code: int, *, timed_out: bool, stderr: str, out_of_memory: bool = False
) -> ExitReason:
    """Classify an exit: bwrap passes the script's status on, 128 + N for a signal N;
    `out_of_memory` when the kernel killed a process of the sandbox at its memory limit (even
    one the script outlived)."""
    if out_of_memory:
        return "memory"
    if timed_out or code == 128 + signal.SIGXCPU:
        return "timeout"
    if code == 0:
        return "ok"
    if code == MEMORY_EXIT or "MemoryError" in stderr[-2000:]:
        return "memory"
    if code < 0 or code > 128:
        return "killed"
    return "error"


def clip(text: str, limit: int) -> str:
    """Keep the head and the tail of `text` (a traceback ends at the tail), saying what was cut."""
    if len(text) <= limit:
        return text
    half = max(limit // 2, 1)
    cut = len(text) - 2 * half
    return f"{text[:half]}\n[... {cut} characters cut ...]\n{text[-half:]}"
