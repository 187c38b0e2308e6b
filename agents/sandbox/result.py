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
    """Address space (RLIMIT_AS)."""
    cpu_s: int = 30
    """CPU time (RLIMIT_CPU)."""
    max_processes: int = 64
    """Processes and threads of the sandbox's user (RLIMIT_NPROC)."""
    max_file_mb: int = 64
    """The largest file the script may write (RLIMIT_FSIZE); its stdout and stderr too."""
    max_open_files: int = 256
    """RLIMIT_NOFILE."""
    tmp_mb: int = 64
    """Size of the private /tmp."""
    output_chars: int = 8000
    """Characters of stdout and of stderr kept in the result (head and tail)."""


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

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def exit_reason(code: int, *, timed_out: bool, stderr: str) -> ExitReason:
    """Classify an exit: bwrap passes the script's status on, 128 + N for a signal N."""
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
