"""Run Python source in a bubblewrap sandbox: a fresh session directory per session, the wall
clock enforced from outside, the result read back without following anything the script made."""

from __future__ import annotations

import functools
import json
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

from agents.sandbox.cgroup import (
    JOIN,
    JOIN_FAILED,
    CgroupRoot,
    RunCgroup,
    find_root,
    run_cgroup,
    sweep,
)
from agents.sandbox.command import (
    INPUT,
    SANDBOX_UID,
    SESSION,
    SITE_PACKAGES,
    Bind,
    Interpreter,
    bwrap_command,
    launcher_argv,
)
from agents.sandbox.errors import SandboxError, SandboxUnavailable
from agents.sandbox.result import (
    SandboxHost,
    SandboxLimits,
    SandboxResult,
    WrittenFile,
    clip,
    exit_reason,
)
from agents.sandbox.seccomp import UnsupportedArchitecture, assemble
from agents.sandbox.slots import sandbox_slot

SCRIPT = "main.py"
OUT = "out"
MAX_LISTED_FILES = 200
DISABLED = "the Python sandbox is disabled: "
MEMORY_NOTE = (
    "\n[sandbox] killed: all it held (processes, memfd files, /tmp) reached the memory limit "
    "of {limit} MiB\n"
)


def available(bwrap: str | None = None, host: SandboxHost | None = None) -> str:
    """The usable bwrap executable; SandboxUnavailable saying why there is none (no bwrap, no
    seccomp filter for this machine, no memory cgroup where `host` requires one)."""
    host = host or SandboxHost()
    path = bwrap or shutil.which("bwrap") or "/usr/bin/bwrap"
    _seccomp_program()
    if host.require_cgroup:
        cgroup_root(host.cgroup)
    return _probe(path)


@functools.lru_cache(maxsize=8)
def cgroup_root(configured: str = "") -> CgroupRoot:
    """Where run cgroups are made (found once per process, and cleared of those a dead process
    left)."""
    root = find_root(configured)
    sweep(root)
    return root


@functools.lru_cache(maxsize=1)
def _seccomp_program() -> bytes:
    try:
        return assemble()
    except UnsupportedArchitecture as error:
        raise SandboxUnavailable(f"{DISABLED}{error}") from error


@functools.lru_cache(maxsize=8)
def _probe(path: str) -> str:
    if not os.access(path, os.X_OK):
        raise SandboxUnavailable(
            f"{DISABLED}bubblewrap is not installed ({path} is missing; "
            "Debian package 'bubblewrap')"
        )
    limits = SandboxLimits(timeout_s=20)
    # bwrap's own check: a trivial script, in no cgroup and taking no slot
    with _session(path, limits, SandboxHost(max_concurrent=0, require_cgroup=False)) as session:
        result = session.run("print('ok')")
    if result.exit_reason != "ok" or result.stdout.strip() != "ok":
        detail = (result.stderr or result.stdout).strip()[-500:]
        raise SandboxUnavailable(f"{DISABLED}bubblewrap cannot create its namespaces: {detail}")
    return path


@contextmanager
def sandbox_session(
    limits: SandboxLimits, *, bwrap: str | None = None, host: SandboxHost | None = None
) -> Iterator[SandboxSession]:
    """A fresh session directory for one or more runs, removed afterwards."""
    host = host or SandboxHost()
    with _session(available(bwrap, host), limits, host) as session:
        yield session


def run_code(
    code: str,
    limits: SandboxLimits,
    *,
    inputs: Path | None = None,
    bwrap: str | None = None,
    host: SandboxHost | None = None,
) -> SandboxResult:
    """Run `code` once in a fresh session; `inputs` appears read-only at /input. SandboxBusy
    when the host runs as many sandboxes as it allows."""
    with sandbox_session(limits, bwrap=bwrap, host=host) as session:
        return session.run(code, inputs=inputs)


@contextmanager
def _session(bwrap: str, limits: SandboxLimits, host: SandboxHost) -> Iterator[SandboxSession]:
    base = Path(tempfile.mkdtemp(prefix="sandbox-"))
    try:
        work = base / "session"
        (work / OUT).mkdir(parents=True)
        if os.geteuid() == 0:
            for path in (work, work / OUT):
                os.chown(path, SANDBOX_UID, SANDBOX_UID)
        yield SandboxSession(base, bwrap, limits, host)
    finally:
        shutil.rmtree(base, ignore_errors=True)


@dataclass
class SandboxSession:
    """One session directory (seen as /session, the working directory, inside the sandbox);
    its stdout and stderr files lie beside it, out of the sandbox's sight."""

    base: Path
    bwrap: str
    limits: SandboxLimits
    host: SandboxHost = field(default_factory=SandboxHost)

    @property
    def path(self) -> Path:
        return self.base / "session"

    def run(self, code: str, *, inputs: Path | None = None) -> SandboxResult:
        """Run `code` as /session/main.py; the result lists the files the session then holds.
        SandboxBusy, before anything runs, when the host runs as many sandboxes as it allows."""
        (self.path / SCRIPT).write_text(code)
        interpreter = Interpreter.current()
        binds = [Bind(self.path, SESSION, writable=True)]
        if not interpreter.prefix.is_relative_to("/usr"):
            binds.append(Bind(interpreter.prefix, str(interpreter.prefix)))
        site_dirs = [f"{SITE_PACKAGES}/{i}" for i in range(len(interpreter.site_packages))]
        for path, dest in zip(interpreter.site_packages, site_dirs, strict=True):
            binds.append(Bind(path, dest))
        if inputs is not None:
            binds.append(Bind(inputs, INPUT))
        argv = launcher_argv(
            interpreter=interpreter,
            limits=self.limits,
            script=f"{SESSION}/{SCRIPT}",
            site_dirs=site_dirs,
        )
        slots = Path(self.host.slots_dir or Path(tempfile.gettempdir(), "sandbox-slots"))
        with sandbox_slot(slots, self.host.max_concurrent), self._cgroup() as cgroup:
            code_, timed_out, took = self._execute(
                functools.partial(
                    bwrap_command,
                    bwrap=self.bwrap,
                    privileged=os.geteuid() == 0,
                    binds=binds,
                    limits=self.limits,
                    argv=argv,
                ),
                cgroup,
            )
            out_of_memory = cgroup is not None and cgroup.oom_kills() > 0
            peak = cgroup.peak_bytes() if cgroup is not None else None
        stdout = _read_clipped(self.base / "stdout", self.limits.output_chars)
        stderr = _read_clipped(self.base / "stderr", self.limits.output_chars)
        if code_ == 125 and JOIN_FAILED in stderr:
            raise SandboxError(stderr.strip())
        if out_of_memory:
            stderr += MEMORY_NOTE.format(limit=self.limits.memory_mb)
        return SandboxResult(
            exit_reason=exit_reason(
                code_, timed_out=timed_out, stderr=stderr, out_of_memory=out_of_memory
            ),
            exit_code=None if timed_out else code_,
            stdout=stdout,
            stderr=stderr,
            files=self.files(),
            duration_s=round(took, 3),
            memory_peak_mb=None if peak is None else round(peak / 2**20, 1),
        )

    def _cgroup(self) -> AbstractContextManager[RunCgroup | None]:
        """The run's memory and process cgroup; none where the host does not require one and
        none can be made."""
        try:
            root = cgroup_root(self.host.cgroup)
        except SandboxUnavailable:
            if self.host.require_cgroup:
                raise
            return nullcontext(None)
        memory = self.limits.memory_mb * 2**20
        return run_cgroup(root, memory_bytes=memory, max_processes=self.limits.max_processes)

    def _execute(
        self, command: Callable[..., list[str]], cgroup: RunCgroup | None
    ) -> tuple[int, bool, float]:
        started = time.monotonic()
        info_read, info_write = os.pipe()
        os.set_blocking(info_read, False)
        seccomp_read, seccomp_write = os.pipe()
        os.write(seccomp_write, _seccomp_program())  # far below a pipe's buffer
        os.close(seccomp_write)
        argv = command(info_fd=info_write, seccomp_fd=seccomp_read)
        if cgroup is not None:
            argv = ["/bin/sh", "-c", JOIN, "sh", *cgroup.procs_files, "--", *argv]
        with (
            open(self.base / "stdout", "wb") as stdout,
            open(self.base / "stderr", "wb") as stderr,
            open(info_read, "rb") as info,
        ):
            try:
                process = subprocess.Popen(
                    argv,
                    stdin=subprocess.DEVNULL,
                    stdout=stdout,
                    stderr=stderr,
                    env={},
                    pass_fds=[info_write, seccomp_read],
                    start_new_session=True,  # its own process group, killed whole
                )
            finally:
                os.close(info_write)
                os.close(seccomp_read)
            timed_out = False
            try:
                process.wait(timeout=self.limits.timeout_s)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                # also when the caller's own time limit interrupts the wait
                if process.poll() is None:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
                _wait_until_gone(info.read() or b"")
        return process.returncode, timed_out, time.monotonic() - started

    def files(self) -> list[WrittenFile]:
        """Regular files in the session (not the script), by relative path; links are skipped."""
        found: list[WrittenFile] = []
        for folder, dirs, names in os.walk(self.path):
            dirs.sort()
            for name in sorted(names):
                full = Path(folder, name)
                info = full.lstat()
                relative = full.relative_to(self.path).as_posix()
                if stat.S_ISREG(info.st_mode) and relative != SCRIPT:
                    found.append(WrittenFile(relative, info.st_size))
                if len(found) >= MAX_LISTED_FILES:
                    return found
        return found

    def read(self, relative: str, *, max_bytes: int) -> bytes:
        """A regular file the script wrote, at most `max_bytes`; never through a link it made."""
        target = self.path / relative
        root = os.path.realpath(self.path)
        if os.path.commonpath([root, os.path.realpath(target.parent)]) != root:
            raise SandboxError(f"{relative} is outside the session")
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as error:
            raise SandboxError(f"{relative}: {error.strerror}") from error
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise SandboxError(f"{relative} is not a regular file")
            if info.st_size > max_bytes:
                raise SandboxError(f"{relative} is {info.st_size} bytes; the limit is {max_bytes}")
            return handle.read(max_bytes)


def _wait_until_gone(info: bytes, seconds: float = 5.0) -> None:
    """Wait for the sandbox's init (whose end takes every process of the sandbox with it) to
    have ended, so that nothing of a killed run is left when the result is returned."""
    try:
        pid = int(json.loads(info.decode().split("}")[0] + "}")["child-pid"])
    except (ValueError, KeyError):
        return  # bwrap ended before it started the sandbox
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError, IndexError):
            return
        if state in ("Z", "X"):
            return
        time.sleep(0.02)


def _read_clipped(path: Path, limit: int) -> str:
    """The head and tail of an output file (which may be as large as the file-size limit)."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        if size <= 8 * limit:
            return clip(handle.read().decode(errors="replace"), limit)
        head = handle.read(limit // 2).decode(errors="replace")
        handle.seek(size - limit // 2)
        tail = handle.read().decode(errors="replace")
    return f"{head}\n[... {size} bytes in all, cut ...]\n{tail}"
