"""Run Python the agent wrote inside a bubblewrap sandbox: no network, no host files but the
interpreter and its packages, one writable session directory, limits on every resource."""

from agents.sandbox.result import ExitReason, SandboxLimits, SandboxResult, WrittenFile
from agents.sandbox.runner import (
    SandboxError,
    SandboxSession,
    SandboxUnavailable,
    available,
    run_code,
    sandbox_session,
)

__all__ = [
    "ExitReason",
    "SandboxError",
    "SandboxLimits",
    "SandboxResult",
    "SandboxSession",
    "SandboxUnavailable",
    "WrittenFile",
    "available",
    "run_code",
    "sandbox_session",
]
