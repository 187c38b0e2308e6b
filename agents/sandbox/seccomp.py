"""The seccomp filter bubblewrap installs (`--seccomp FD`) before the script starts: the system
calls that make namespaces, mount, load kernel code, read keys or trace processes fail with EPERM.

A classic BPF program, written here because it is a short list of numbers: libseccomp's Python
bindings are not on PyPI. Without it an unprivileged script could `unshare(CLONE_NEWUSER)` and hold
every capability in namespaces of its own, the way into most kernel attack surface."""

from __future__ import annotations

import errno
import platform
import struct
import sys
from dataclasses import dataclass

# <linux/audit.h>: the ABI a system call came through
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000
"""x86_64's x32 ABI: the same calls under other numbers, never needed here."""

# The names of the calls denied, and their numbers per architecture (<asm/unistd.h>).
DENIED: dict[str, dict[str, int]] = {
    "x86_64": {
        "unshare": 272,
        "setns": 308,
        "mount": 165,
        "umount2": 166,
        "pivot_root": 155,
        "chroot": 161,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "bpf": 321,
        "perf_event_open": 298,
        "userfaultfd": 323,
        "keyctl": 250,
        "add_key": 248,
        "request_key": 249,
        "ptrace": 101,
        "process_vm_readv": 310,
        "process_vm_writev": 311,
        "kexec_load": 246,
        "kexec_file_load": 320,
        "init_module": 175,
        "finit_module": 313,
        "delete_module": 176,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "name_to_handle_at": 303,
        "open_by_handle_at": 304,
        "swapon": 167,
        "swapoff": 168,
        "reboot": 169,
        "sethostname": 170,
        "setdomainname": 171,
        "syslog": 103,
        "acct": 163,
        "quotactl": 179,
        "quotactl_fd": 443,
        "lookup_dcookie": 212,
        "vhangup": 153,
        "iopl": 172,
        "ioperm": 173,
    },
    "aarch64": {
        "unshare": 97,
        "setns": 268,
        "mount": 40,
        "umount2": 39,
        "pivot_root": 41,
        "chroot": 51,
        "open_tree": 428,
        "move_mount": 429,
        "fsopen": 430,
        "fsconfig": 431,
        "fsmount": 432,
        "fspick": 433,
        "mount_setattr": 442,
        "bpf": 280,
        "perf_event_open": 241,
        "userfaultfd": 282,
        "keyctl": 219,
        "add_key": 217,
        "request_key": 218,
        "ptrace": 117,
        "process_vm_readv": 270,
        "process_vm_writev": 271,
        "kexec_load": 104,
        "kexec_file_load": 294,
        "init_module": 105,
        "finit_module": 273,
        "delete_module": 106,
        "io_uring_setup": 425,
        "io_uring_enter": 426,
        "io_uring_register": 427,
        "name_to_handle_at": 264,
        "open_by_handle_at": 265,
        "swapon": 224,
        "swapoff": 225,
        "reboot": 142,
        "sethostname": 161,
        "setdomainname": 162,
        "syslog": 116,
        "acct": 89,
        "quotactl": 60,
        "quotactl_fd": 443,
        "lookup_dcookie": 18,
        "vhangup": 58,
    },
}
CLONE = {"x86_64": 56, "aarch64": 220}
"""clone(flags, ...) is allowed (fork, threads) unless its flags ask for a namespace."""
CLONE3 = 435
"""clone3 passes its flags in memory a filter cannot read: ENOSYS, and the C library falls back
to clone."""
NAMESPACE_FLAGS = 0x7E020000
"""CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET (NEWTIME is not a clone
flag: its bit is the exit signal's there)."""

# <linux/filter.h>, <linux/seccomp.h>
LD_W_ABS, JEQ, JGE, JSET, RET = 0x20, 0x15, 0x35, 0x45, 0x06
RET_KILL_PROCESS, RET_ERRNO, RET_ALLOW = 0x80000000, 0x00050000, 0x7FFF0000
# struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6]
NR, ARCH, ARG0_LOW = 0, 4, 16  # the low half of args[0] on a little-endian machine


class UnsupportedArchitecture(Exception):
    """No filter is written for this machine."""


@dataclass(frozen=True)
class Instruction:
    code: int
    k: int
    true: str | int = 0
    """Where a jump goes when its test holds: the next instruction (0) or a label."""
    false: str | int = 0
    label: str = ""
    """The name jumps use for this instruction."""


def machine() -> str:
    """The architecture the filter is for (this machine's)."""
    name = platform.machine()
    if name not in AUDIT_ARCH or sys.byteorder != "little":
        raise UnsupportedArchitecture(f"no seccomp filter for {name} ({sys.byteorder}-endian)")
    return name


def program(arch: str | None = None) -> list[Instruction]:
    """The filter as instructions (jumps to labels), for `arch` or this machine."""
    arch = arch or machine()
    head = [
        Instruction(LD_W_ABS, ARCH),
        Instruction(JEQ, AUDIT_ARCH[arch], false="kill"),  # another ABI (i386 on x86_64)
        Instruction(LD_W_ABS, NR),
    ]
    if arch == "x86_64":
        head.append(Instruction(JGE, X32_SYSCALL_BIT, true="deny"))
    checks = [Instruction(JEQ, number, true="deny") for number in DENIED[arch].values()]
    checks.append(Instruction(JEQ, CLONE3, true="nosys"))
    checks.append(Instruction(JEQ, CLONE[arch], true="clone"))
    tail = [
        Instruction(RET, RET_ALLOW),
        Instruction(LD_W_ABS, ARG0_LOW, label="clone"),
        Instruction(JSET, NAMESPACE_FLAGS, true="deny"),
        Instruction(RET, RET_ALLOW),
        Instruction(RET, RET_ERRNO | errno.EPERM, label="deny"),
        Instruction(RET, RET_ERRNO | errno.ENOSYS, label="nosys"),
        Instruction(RET, RET_KILL_PROCESS, label="kill"),
    ]
    return head + checks + tail


def assemble(instructions: list[Instruction] | None = None) -> bytes:
    """The program as the kernel reads it (struct sock_filter[]), labels resolved to offsets."""
    instructions = instructions if instructions is not None else program()
    labels = {step.label: index for index, step in enumerate(instructions) if step.label}
    code = b""
    for index, step in enumerate(instructions):
        true, false = (_offset(index, target, labels) for target in (step.true, step.false))
        code += struct.pack("=HBBI", step.code, true, false, step.k)
    return code


def _offset(index: int, target: str | int, labels: dict[str, int]) -> int:
    if isinstance(target, int):
        return target
    offset = labels[target] - index - 1
    if not 0 <= offset <= 255:
        raise ValueError(f"jump to {target} out of reach ({offset})")
    return offset
