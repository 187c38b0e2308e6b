"""All a sandbox holds counts against its memory limit: memfd files and /tmp too, which belong to
no process, so that a script cannot take the host's memory from the web server and the workers."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

import pytest

from agents.sandbox import SandboxHost, SandboxLimits, SandboxUnavailable, available, run_code

LIMIT_MB = 256
LIMITS = SandboxLimits(timeout_s=30, cpu_s=30, memory_mb=LIMIT_MB, max_processes=24)
MEMFD_BOMB = """
    import os
    chunk = b"x" * (32 * 2**20)
    held = []
    for i in range(96):  # 3 GiB at most, in files each under the file-size limit
        fd = os.memfd_create(f"bomb{i}")
        os.write(fd, chunk)
        held.append(fd)
        print((i + 1) * 32, flush=True)
    print("held 3 GiB")
"""


def shared_memory_mb() -> int:
    """The host's shmem pages (memfd files and tmpfs among them), in MiB."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("Shmem:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no Shmem in /proc/meminfo")


def run(code: str, limits: SandboxLimits = LIMITS):
    return run_code(textwrap.dedent(code), limits)


def test_a_memfd_bomb_is_killed_at_the_sandboxs_memory_limit(bwrap):
    before = shared_memory_mb()
    result = run(MEMFD_BOMB)
    assert result.exit_reason == "memory", (result.exit_reason, result.stdout[-200:])
    assert "held 3 GiB" not in result.stdout
    held = [int(line) for line in result.stdout.split()]
    assert held and held[-1] <= LIMIT_MB, held[-1:]
    assert f"reached the memory limit of {LIMIT_MB} MiB" in result.stderr
    assert result.memory_peak_mb is not None and result.memory_peak_mb <= LIMIT_MB
    # the pages went with the sandbox: the host has what it had (other work may move it a little)
    assert shared_memory_mb() < before + 32


def test_memfd_files_of_several_processes_count_together(bwrap):
    result = run(
        """
        import os
        for child in range(4):  # 4 x 128 MiB: each process alone stays under the limit
            if os.fork() == 0:
                fd = os.memfd_create("part")
                for _ in range(4):
                    os.write(fd, b"x" * (32 * 2**20))
                print("child held 128", flush=True)
                os.pause()
        for _ in range(4):
            os.wait()
        """
    )
    assert result.exit_reason == "memory", (result.exit_reason, result.stdout)
    assert result.stdout.count("child held 128") < 2


def test_an_ordinary_script_runs_and_says_how_much_memory_it_used(bwrap):
    result = run("print(sum(range(10**6)))")
    assert (result.exit_reason, result.stdout) == ("ok", "499999500000\n")
    assert result.memory_peak_mb is not None and 0 < result.memory_peak_mb < LIMIT_MB


def test_where_no_memory_cgroup_can_be_made_nothing_runs(bwrap, tmp_path):
    host = SandboxHost(cgroup=str(tmp_path / "not-a-cgroup"))
    with pytest.raises(SandboxUnavailable, match="no memory cgroup can be made here"):
        available(bwrap, host)
    with pytest.raises(SandboxUnavailable, match="SANDBOX_REQUIRE_CGROUP=false"):
        run_code("print('unbounded')", LIMITS, host=host)


def test_without_a_cgroup_by_choice_each_memfd_file_is_still_bounded_by_the_file_size_limit(
    bwrap, tmp_path
):
    # SANDBOX_REQUIRE_CGROUP=false: RLIMIT_FSIZE bounds each memfd file, not how many there are
    host = SandboxHost(require_cgroup=False, cgroup=str(tmp_path / "not-a-cgroup"))
    result = run_code(
        textwrap.dedent(
            """
            import os
            fd = os.memfd_create("one")
            try:
                os.ftruncate(fd, 65 * 2**20)
            except OSError as error:
                print(error.strerror)
            """
        ),
        SandboxLimits(max_file_mb=64),
        host=host,
    )
    assert (result.exit_reason, result.stdout) == ("ok", "File too large\n"), result.stderr
    assert result.memory_peak_mb is None


def test_the_cgroups_of_a_process_that_died_mid_run_are_removed(bwrap):
    from agents.sandbox.runner import cgroup_root

    root = cgroup_root()
    dead = _a_dead_pid()
    left = [root.memory / f"sandbox-{dead}-0000"]
    if root.pids is not None:
        left.append(root.pids / f"sandbox-{dead}-0000")
    for directory in left:
        directory.mkdir()
    cgroup_root.cache_clear()
    cgroup_root()
    assert not any(directory.exists() for directory in left)
    assert run("print('still runs')").stdout == "still runs\n"


def _a_dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid
