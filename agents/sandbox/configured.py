"""The sandbox as the settings configure it, and what a `run_python` tool shares."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from django.conf import settings

from agents.runtime import ToolError
from agents.sandbox.errors import SandboxBusy, SandboxUnavailable
from agents.sandbox.result import SandboxHost, SandboxLimits, SandboxResult
from agents.sandbox.runner import SandboxSession, available, sandbox_session

CODE = {"type": "string", "minLength": 1, "maxLength": 100_000, "description": "Python 3 source."}
TOOL_SLACK_S = 30.0
"""A run_python call's own time limit is the sandbox's wall clock plus this (start, read-back)."""


def configured_limits(**overrides: Any) -> SandboxLimits:
    """The SANDBOX_* settings as limits; `overrides` replace single ones (a CLI --timeout)."""
    limits = SandboxLimits(
        timeout_s=settings.SANDBOX_TIMEOUT_SECONDS,
        cpu_s=settings.SANDBOX_CPU_SECONDS,
        memory_mb=settings.SANDBOX_MEMORY_MB,
        max_processes=settings.SANDBOX_MAX_PROCESSES,
        max_file_mb=settings.SANDBOX_MAX_FILE_MB,
        max_open_files=settings.SANDBOX_MAX_OPEN_FILES,
        tmp_mb=settings.SANDBOX_TMP_MB,
        output_chars=settings.SANDBOX_OUTPUT_CHARS,
    )
    return SandboxLimits(**{**limits.__dict__, **overrides})


def configured_host() -> SandboxHost:
    """The SANDBOX_* settings that bind every sandbox of the host together."""
    return SandboxHost(
        max_concurrent=settings.SANDBOX_MAX_CONCURRENT,
        slots_dir=settings.SANDBOX_SLOTS_DIR,
        require_cgroup=settings.SANDBOX_REQUIRE_CGROUP,
        cgroup=settings.SANDBOX_CGROUP,
    )


def tool_timeout_s() -> float:
    return float(settings.SANDBOX_TIMEOUT_SECONDS) + TOOL_SLACK_S


@contextmanager
def configured_session() -> Iterator[SandboxSession]:
    """A sandbox session under the settings' limits (a context manager); ToolError when the
    sandbox is disabled or busy, so the policy reads why and nothing runs."""
    host = configured_host()
    try:
        bwrap = available(settings.SANDBOX_BWRAP, host)
    except SandboxUnavailable as error:
        raise ToolError(str(error)) from error
    with sandbox_session(configured_limits(), bwrap=bwrap, host=host) as session:
        try:
            yield session
        except SandboxBusy as error:
            raise ToolError(str(error)) from error


def run_configured(code: str, *, inputs: Path | None = None) -> SandboxResult:
    """Run `code` once under the settings' limits (ToolError when the sandbox is disabled)."""
    with configured_session() as session:
        return session.run(code, inputs=inputs)
