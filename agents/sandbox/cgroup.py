"""A memory and process cgroup for each run. The kernel charges it every page the sandbox holds:
its processes', and those of memfd files, /tmp and /dev/shm, which belong to no process and which
an address-space limit (RLIMIT_AS) never sees. Past the limit the kernel's OOM killer acts inside
the cgroup only, never on the web server or the workers.

cgroup v2 where its memory controller is enabled (a directory whose cgroup.subtree_control has
memory and pids: SANDBOX_CGROUP, or this process's own cgroup), else the v1 memory and pids
hierarchies (a hybrid host, where this process may create cgroups)."""

from __future__ import annotations

import os
import secrets
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from agents.sandbox.errors import SandboxUnavailable

NO_CGROUP = (
    "the Python sandbox is disabled: no memory cgroup can be made here ({why}), so memfd files "
    "and /tmp would hold host memory without a bound. Run as a user who may create cgroups "
    "(a delegated cgroup v2 directory in SANDBOX_CGROUP, or root), or set "
    "SANDBOX_REQUIRE_CGROUP=false to run with the per-process limits only"
)
JOIN_FAILED = "sandbox: cannot join its cgroup"
JOIN = (
    'for f do [ "$f" = -- ] && break; echo $$ > "$f" || { echo "' + JOIN_FAILED + '" >&2; '
    'exit 125; }; shift; done; shift; exec "$@"'
)
"""A shell step that moves itself into the run's cgroups, then becomes bubblewrap: every process
of the sandbox is charged from its first page on."""


@dataclass(frozen=True)
class CgroupRoot:
    """Where run cgroups are made: one directory (v2), or the memory and pids hierarchies (v1)."""

    version: int
    memory: Path
    pids: Path | None = None


@dataclass
class RunCgroup:
    """The cgroups of one run: the files that take a process in, and what they counted."""

    root: CgroupRoot
    directories: list[Path] = field(default_factory=list)

    @property
    def procs_files(self) -> list[str]:
        return [str(directory / "cgroup.procs") for directory in self.directories]

    @property
    def memory(self) -> Path:
        return self.directories[0]

    def oom_kills(self) -> int:
        """Processes the kernel killed because the sandbox reached its memory limit."""
        name = "memory.events" if self.root.version == 2 else "memory.oom_control"
        return _keyed(self.memory / name).get("oom_kill", 0)

    def peak_bytes(self) -> int | None:
        """The most memory the sandbox held at once (None where the kernel does not say)."""
        name = "memory.peak" if self.root.version == 2 else "memory.max_usage_in_bytes"
        try:
            return int((self.memory / name).read_text())
        except (OSError, ValueError):
            return None


def find_root(configured: str = "") -> CgroupRoot:
    """The place to make run cgroups; SandboxUnavailable saying why there is none."""
    mounts = _cgroup_mounts()
    own = _own_cgroups()
    unified = mounts.get("cgroup2")
    if configured or unified is not None:
        why = "no cgroup2 file system" if unified is None else ""
        if unified is not None:
            parent = Path(configured) if configured else _inside(unified, own.get("", "/"))
            why = _enable_v2(parent)
            if not why:
                return CgroupRoot(2, parent)
        if configured or "memory" not in mounts:
            raise SandboxUnavailable(NO_CGROUP.format(why=why))
    if "memory" not in mounts:
        raise SandboxUnavailable(NO_CGROUP.format(why="no memory controller is mounted"))
    memory = _inside(mounts["memory"], own.get("memory", "/"))
    pids = _inside(mounts["pids"], own.get("pids", "/")) if "pids" in mounts else None
    for directory in (memory, pids):
        if directory is not None and not os.access(directory, os.W_OK):
            raise SandboxUnavailable(NO_CGROUP.format(why=f"{directory} is not writable"))
    return CgroupRoot(1, memory, pids)


def sweep(root: CgroupRoot) -> None:
    """Remove run cgroups a process left when it died mid-run (empty by then: the sandbox dies
    with its parent)."""
    for parent in (root.memory, root.pids):
        for directory in parent.glob("sandbox-*-*") if parent is not None else ():
            pid = directory.name.split("-")[1]
            if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                with suppress(OSError):
                    directory.rmdir()


@contextmanager
def run_cgroup(root: CgroupRoot, *, memory_bytes: int, max_processes: int) -> Iterator[RunCgroup]:
    """Fresh cgroups with the limits (no swap), removed afterwards with anything left in them."""
    name = f"sandbox-{os.getpid()}-{secrets.token_hex(4)}"
    made = RunCgroup(root)
    try:
        if root.version == 2:
            made.directories.append(_make(root.memory / name))
            _write(made.memory / "memory.max", memory_bytes)
            _write(made.memory / "memory.swap.max", 0, optional=True)  # absent: no swap
            _write(made.memory / "memory.oom.group", 1)  # an OOM kill takes the whole sandbox
            _write(made.memory / "pids.max", max_processes)
        else:
            made.directories.append(_make(root.memory / name))
            _write(made.memory / "memory.limit_in_bytes", memory_bytes)
            _write(made.memory / "memory.memsw.limit_in_bytes", memory_bytes, optional=True)
            if root.pids is not None:
                made.directories.append(_make(root.pids / name))
                _write(made.directories[1] / "pids.max", max_processes)
        yield made
    finally:
        for directory in reversed(made.directories):
            _remove(directory)


def _enable_v2(parent: Path) -> str:
    """Why run cgroups cannot be made under `parent` ("" when they can)."""
    try:
        enabled = (parent / "cgroup.subtree_control").read_text().split()
        missing = {"memory", "pids"} - set(enabled)
        if missing:  # possible where `parent` holds no process itself
            (parent / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in missing))
        probe = _make(parent / f"sandbox-probe-{os.getpid()}-{secrets.token_hex(4)}")
        probe.rmdir()
    except OSError as error:
        return f"{parent}: {error.strerror or error}"
    return ""


def _cgroup_mounts() -> dict[str, Path]:
    """Mount points by controller ("cgroup2" for the unified hierarchy)."""
    found: dict[str, Path] = {}
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        before, _, after = line.partition(" - ")
        fields, (fstype, _source, options) = before.split(), after.split()[:3]
        point = Path(fields[4])
        if fstype == "cgroup2":
            found.setdefault("cgroup2", point)
        elif fstype == "cgroup":
            for controller in options.split(","):
                if controller in ("memory", "pids"):
                    found.setdefault(controller, point)
    return found


def _own_cgroups() -> dict[str, str]:
    """This process's cgroup path by controller ("" for the unified hierarchy)."""
    own: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            own[controller] = path
    return own


def _inside(mount: Path, path: str) -> Path:
    return mount / path.lstrip("/")


def _make(directory: Path) -> Path:
    directory.mkdir(mode=0o755)
    return directory


def _write(path: Path, value: int, *, optional: bool = False) -> None:
    if optional and not path.exists():
        return
    path.write_text(f"{value}\n")


def _keyed(path: Path) -> dict[str, int]:
    values: dict[str, int] = {}
    with suppress(OSError):
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if value.strip().isdigit():
                values[key] = int(value)
    return values


def _remove(directory: Path, seconds: float = 5.0) -> None:
    """Kill what is left in the cgroup (nothing, normally), then remove it."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            directory.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            if time.monotonic() > deadline:
                return  # the kernel frees it with its last process; a name that is never reused
        with suppress(OSError, ValueError):
            for pid in (directory / "cgroup.procs").read_text().split():
                with suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.02)
