"""Run Python the agent wrote inside a bubblewrap sandbox: no network, no host files but the
interpreter and its packages, one writable session directory, limits on every resource (a memory
cgroup, a seccomp filter, a cap on sandboxes at once)."""

from agents.sandbox.errors import SandboxBusy, SandboxError, SandboxUnavailable
from agents.sandbox.result import (
    ExitReason,
    SandboxHost,
    SandboxLimits,
    SandboxResult,
    WrittenFile,
)
from agents.sandbox.runner import SandboxSession, available, run_code, sandbox_session

__all__ = [
    "ExitReason",
    "SandboxBusy",
    "SandboxError",
    "SandboxHost",
    "SandboxLimits",
    "SandboxResult",
    "SandboxSession",
    "SandboxUnavailable",
    "WrittenFile",
    "available",
    "run_code",
    "sandbox_session",
]
