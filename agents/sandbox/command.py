"""The bubblewrap command line: what the sandbox sees, under which identity, with which limits."""

from __future__ import annotations

import json
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from agents.sandbox.result import SandboxLimits

SANDBOX_UID = 65534  # nobody
SESSION = "/session"
"""The session directory inside the sandbox: its working directory and only writable place."""
INPUT = "/input"
"""Where a read-only input folder appears."""
SITE_PACKAGES = "/opt/site-packages"

SYSTEM_DIRS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")
ENVIRONMENT = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": SESSION,
    "LANG": "C.UTF-8",
    "TMPDIR": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
    "MPLCONFIGDIR": "/tmp",
    # one BLAS thread: a thread counts against the process limit
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


@dataclass(frozen=True)
class Interpreter:
    """The Python that runs scripts: its installation and the packages it may import."""

    prefix: Path
    executable: Path
    site_packages: tuple[Path, ...]

    @classmethod
    def current(cls) -> Interpreter:
        """This process's interpreter (the real one, not a virtualenv's copy) and the virtualenv's
        site-packages: the project's own code is not among them."""
        prefix = Path(sys.base_prefix)
        version = f"python{sys.version_info.major}.{sys.version_info.minor}"
        packages = Path(sysconfig.get_paths()["purelib"])
        return cls(prefix, prefix / "bin" / version, (packages,))


@dataclass(frozen=True)
class Bind:
    """A host directory seen at `dest` inside the sandbox."""

    source: Path
    dest: str
    writable: bool = False


def rlimits(limits: SandboxLimits) -> dict[str, tuple[int, int]]:
    """The resource limits the launcher sets (CPU: SIGXCPU at the soft limit, kill a second on)."""
    megabyte = 2**20
    return {
        "RLIMIT_CPU": (limits.cpu_s, limits.cpu_s + 1),
        "RLIMIT_AS": (limits.memory_mb * megabyte,) * 2,
        "RLIMIT_FSIZE": (limits.max_file_mb * megabyte,) * 2,
        "RLIMIT_NOFILE": (limits.max_open_files,) * 2,
        "RLIMIT_NPROC": (limits.max_processes,) * 2,
        "RLIMIT_CORE": (0, 0),
    }


def bwrap_command(
    *,
    bwrap: str,
    privileged: bool,
    binds: list[Bind],
    limits: SandboxLimits,
    argv: list[str],
    info_fd: int | None = None,
    seccomp_fd: int | None = None,
) -> list[str]:
    """bwrap arguments that run `argv` in fresh namespaces (no network) with nothing of the host
    writable but the binds marked so, as an unprivileged user without capabilities.

    `privileged` (we are root): bwrap makes no user namespace, where uid 65534 would still be
    root on the host and exempt from the process limit; it keeps only CAP_SETUID and CAP_SETGID,
    which the launcher spends at once to become nobody, losing them. Otherwise bwrap makes a user
    namespace as this (unprivileged) user, whose limits bind. `seccomp_fd` holds the filter
    (agents.sandbox.seccomp) bwrap installs just before it starts `argv`."""
    command = [bwrap]
    if privileged:
        command += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts"]
        command += ["--unshare-cgroup-try", "--cap-drop", "ALL"]
        command += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    else:
        command += ["--unshare-all", "--unshare-user", "--cap-drop", "ALL"]
        command += ["--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID)]
    if info_fd is not None:  # bwrap writes the host pid of the sandbox's init there
        command += ["--info-fd", str(info_fd)]
    if seccomp_fd is not None:
        command += ["--seccomp", str(seccomp_fd)]
    command += ["--hostname", "sandbox", "--die-with-parent", "--new-session", "--clearenv"]
    for name, value in ENVIRONMENT.items():
        command += ["--setenv", name, value]
    command += ["--ro-bind", "/usr", "/usr"]
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            command += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            command += ["--ro-bind", path, path]
    for path in ETC_FILES:
        if os.path.exists(path):
            command += ["--ro-bind", path, path]
    command += ["--proc", "/proc", "--dev", "/dev"]
    for scratch in ("/tmp", "/dev/shm"):  # private and bounded (bwrap's own /dev/shm is not)
        command += ["--perms", "1777", "--size", str(limits.tmp_mb * 2**20), "--tmpfs", scratch]
    made = set()
    for bind in binds:
        # parents a bind needs are made open to all (bwrap would copy the host's modes: /root)
        for parent in reversed(PurePosixPath(bind.dest).parents[:-1]):
            if str(parent) not in made:
                made.add(str(parent))
                command += ["--perms", "0755", "--dir", str(parent)]
        command += ["--bind" if bind.writable else "--ro-bind", str(bind.source), bind.dest]
    command += ["--remount-ro", "/", "--chdir", SESSION, "--"]
    return command + argv


def launcher_argv(
    *, interpreter: Interpreter, limits: SandboxLimits, script: str, site_dirs: list[str]
) -> list[str]:
    """The interpreter, isolated (-I: no PYTHON* variables, no user site; -S: no automatic site
    directories), running the launcher on `script`."""
    source = (Path(__file__).with_name("launcher.py")).read_text()
    return [
        str(interpreter.executable),
        "-I",
        "-S",
        "-c",
        source,
        json.dumps({"uid": SANDBOX_UID, "rlimits": rlimits(limits)}),
        script,
        *site_dirs,
    ]
