"""Why a sandbox run could not happen."""


class SandboxError(Exception):
    """The sandbox cannot run, or a file it left cannot be read."""


class SandboxUnavailable(SandboxError):
    """bubblewrap, the seccomp filter or a memory cgroup is missing: nothing runs (never
    unsandboxed)."""


class SandboxBusy(SandboxError):
    """As many sandboxes as the host allows are running: try again in a moment."""
