"""The sandbox's seccomp filter: no namespaces (so no capabilities in them), no mounts, no kernel
code, keys or tracing; what ordinary Python does still works."""

from __future__ import annotations

import errno
import re
import struct
import textwrap
from pathlib import Path

import pytest

from agents.sandbox import SandboxLimits, run_code
from agents.sandbox.seccomp import (
    AUDIT_ARCH,
    CLONE,
    CLONE3,
    DENIED,
    RET_ALLOW,
    RET_ERRNO,
    RET_KILL_PROCESS,
    assemble,
    program,
)

LIMITS = SandboxLimits(timeout_s=20, cpu_s=20, memory_mb=512, max_processes=24)
EPERM, ENOSYS = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.ENOSYS
SIGCHLD, CLONE_NEWUSER, CLONE_NEWNS, CLONE_THREAD = 17, 0x10000000, 0x20000, 0x10000


def run(code: str):
    return run_code(textwrap.dedent(code), LIMITS)


CALLS = """
    import ctypes, errno, os
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    def call(name, *args):
        result = libc.syscall(*args)
        print(name, "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()], flush=True)
"""


def test_a_script_cannot_make_a_user_namespace_and_hold_capabilities_there(bwrap):
    result = run(
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unshare(0x10000000) == 0:  # CLONE_NEWUSER
            print([line for line in open("/proc/self/status") if line.startswith("CapEff")])
        else:
            print("unshare", os.strerror(ctypes.get_errno()))
        try:
            os.fork() or os._exit(0)
            print("fork still works")
        except OSError as error:
            print("fork", error)
        """
    )
    assert result.stdout.split("\n")[:2] == ["unshare Operation not permitted", "fork still works"]


def test_mount_bpf_keyctl_ptrace_and_their_kin_fail_with_eperm(bwrap):
    # Arguments that fail some other way where the call is allowed (EINVAL, ESRCH, ...): only the
    # filter answers EPERM to every one of them. Numbers are x86_64's or aarch64's.
    numbers = {name: DENIED[_arch()][name] for name in ("umount2", "bpf", "keyctl", "ptrace")}
    numbers["clone"] = CLONE[_arch()]
    result = run(
        CALLS
        + f"""
    n = {numbers!r}
    call("mount_in_new_namespace", n["clone"], 0x10000000 | 0x20000 | 17, 0, 0, 0, 0)
    call("umount2", n["umount2"], b"/nonexistent", 0xFFFF)
    call("bpf", n["bpf"], 9999, 0, 0)
    call("keyctl", n["keyctl"], 9999, 0, 0, 0, 0)
    call("ptrace", n["ptrace"], 16, 999999, 0, 0)  # PTRACE_ATTACH to no process
    """
    )
    assert result.exit_reason == "ok", result.stderr
    lines = result.stdout.strip().split("\n")
    assert lines == [f"{name} EPERM" for name in ("mount_in_new_namespace", *list(numbers)[:4])]


def test_threads_and_subprocesses_still_work(bwrap):
    result = run(
        """
        import subprocess, sys, threading
        box = []
        thread = threading.Thread(target=lambda: box.append("thread"))
        thread.start(); thread.join()
        child = subprocess.run([sys.executable, "-c", "print('child')"], capture_output=True)
        print(box[0], child.stdout.decode().strip())
        """
    )
    assert (result.exit_reason, result.stdout) == ("ok", "thread child\n"), result.stderr


def _arch() -> str:
    import platform

    return platform.machine()


@pytest.mark.parametrize("arch", sorted(AUDIT_ARCH))
def test_the_filter_denies_namespaces_and_allows_fork_on_each_architecture(arch):
    def decide(nr: int, arg0: int = 0, audit_arch: int = AUDIT_ARCH[arch]) -> int:
        return run_filter(assemble(program(arch)), audit_arch, nr, arg0)

    for name, number in DENIED[arch].items():
        assert decide(number) == EPERM, name
    assert decide(CLONE[arch], CLONE_NEWUSER | SIGCHLD) == EPERM
    assert decide(CLONE[arch], CLONE_NEWNS | SIGCHLD) == EPERM
    assert decide(CLONE[arch], SIGCHLD) == RET_ALLOW  # fork
    assert decide(CLONE[arch], 0x3D0F00 | CLONE_THREAD) == RET_ALLOW  # a thread
    assert decide(CLONE3) == ENOSYS
    assert decide(0) == decide(1) == RET_ALLOW  # read, write (x86_64) / io_setup (aarch64)
    assert decide(0, audit_arch=0x40000003) == RET_KILL_PROCESS  # i386's ABI
    if arch == "x86_64":
        assert decide(0x40000000 + 272) == EPERM  # x32's unshare


HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}


@pytest.mark.parametrize("arch", sorted(HEADERS))
def test_the_numbers_are_the_kernel_headers(arch):
    if not HEADERS[arch].exists():
        pytest.skip(f"{HEADERS[arch]} is missing (Debian package linux-libc-dev)")
    text = HEADERS[arch].read_text()
    for name, number in {**DENIED[arch], "clone": CLONE[arch], "clone3": CLONE3}.items():
        if name in ("iopl", "ioperm") and arch == "aarch64":
            continue
        found = re.search(rf"#define __NR(?:3264)?_{name}\s+(\d+)", text)
        assert found and int(found.group(1)) == number, name


def run_filter(code: bytes, arch: int, nr: int, arg0: int) -> int:
    """A classic BPF interpreter for the instructions the filter uses, over struct seccomp_data."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    steps = [struct.unpack("=HBBI", code[i : i + 8]) for i in range(0, len(code), 8)]
    accumulator, pc = 0, 0
    while True:
        op, true, false, k = steps[pc]
        if op == 0x20:
            accumulator = struct.unpack_from("<I", data, k)[0]
        elif op == 0x06:
            return k
        else:
            holds = {0x15: accumulator == k, 0x35: accumulator >= k, 0x45: accumulator & k != 0}
            pc += true if holds[op] else false
        pc += 1
