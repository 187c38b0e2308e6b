"""Hostile scripts in the sandbox: each is stopped or contained, said so, and the host unharmed."""

from __future__ import annotations

import ast
import os
import textwrap
from pathlib import Path

import pytest

from agents.sandbox import SandboxLimits, SandboxUnavailable, available, run_code, sandbox_session
from agents.sandbox.command import SANDBOX_UID

REPOSITORY = Path(__file__).resolve().parents[2]
LIMITS = SandboxLimits(timeout_s=4, cpu_s=10, memory_mb=256, max_processes=24)


def run(code: str, limits: SandboxLimits = LIMITS, **kwargs):
    return run_code(textwrap.dedent(code), limits, **kwargs)


def sandbox_processes() -> list[int]:
    """Host processes of the sandbox's user (none once a run is over)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and entry.stat().st_uid == SANDBOX_UID:
                found.append(int(entry.name))
        except FileNotFoundError:
            continue
    return found


@pytest.fixture(autouse=True)
def host_unaffected(bwrap):
    before = sandbox_processes()
    yield
    assert sandbox_processes() == before, "a sandboxed process outlived its run"


def test_a_fork_bomb_meets_the_process_limit_and_is_killed_with_the_sandbox():
    counted = run(
        """
        import os, time
        children = 0
        try:
            while True:
                if os.fork() == 0:
                    time.sleep(60)
                    os._exit(0)
                children += 1
        except OSError as error:
            print("stopped after", children, error.strerror)
        """
    )
    assert counted.exit_reason == "ok", counted.stderr
    assert counted.stdout.startswith("stopped after")
    assert int(counted.stdout.split()[2]) < LIMITS.max_processes
    bomb = run(
        """
        import os
        while True:
            try:
                os.fork()
            except OSError:
                pass
        """,
        SandboxLimits(timeout_s=2, max_processes=24),
    )
    assert bomb.exit_reason == "timeout" and bomb.exit_code is None


def test_a_memory_hog_is_stopped_at_the_address_space_limit():
    result = run("hog = bytearray(1024 * 1024 * 1024)\nprint('allocated')")
    assert result.exit_reason == "memory"
    assert "allocated" not in result.stdout and "MemoryError" in result.stderr


def test_an_infinite_loop_is_killed_at_the_wall_clock_or_cpu_limit():
    walled = run("while True:\n    pass", SandboxLimits(timeout_s=1.5, cpu_s=30))
    assert walled.exit_reason == "timeout" and walled.duration_s < 5
    spun = run("while True:\n    pass", SandboxLimits(timeout_s=20, cpu_s=1))
    assert spun.exit_reason == "timeout" and spun.duration_s < 10  # SIGXCPU


def test_the_network_is_private_so_host_services_are_unreachable():
    result = run(
        """
        import socket
        for port in (5432, 6379, 8000):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=2)
                print(port, "connected")
            except OSError as error:
                print(port, "refused", type(error).__name__)
        """
    )
    assert result.stdout.split("\n")[:3] == [
        "5432 refused ConnectionRefusedError",
        "6379 refused ConnectionRefusedError",
        "8000 refused ConnectionRefusedError",
    ]


def test_nothing_outside_the_session_is_writable_and_nothing_reaches_the_host(tmp_path):
    marker = f"sandbox-escape-{os.getpid()}"
    targets = ["/usr", "/etc", "/", "/opt/site-packages/0", "/root", str(REPOSITORY), "/var/tmp"]
    result = run(
        f"""
        import os
        for folder in {targets!r}:
            try:
                open(os.path.join(folder, {marker!r}), "w").write("x")
                print(folder, "written")
            except OSError as error:
                print(folder, "refused")
        open("/tmp/" + {marker!r}, "w").write("private /tmp")
        open("out/ok.txt", "w").write("the session is writable")
        """
    )
    assert result.exit_reason == "ok", result.stderr
    assert all(line.endswith("refused") for line in result.stdout.strip().split("\n"))
    assert [(item.path, item.bytes) for item in result.files] == [("out/ok.txt", 23)]
    for folder in [*targets, "/tmp"]:
        assert not Path(folder, marker).exists()


def test_the_apps_environment_and_secrets_are_out_of_sight(monkeypatch):
    monkeypatch.setenv("PLANTED_SECRET", "hunter2")
    result = run(
        f"""
        import os
        print(sorted(os.environ))
        print(any("hunter2" in value for value in os.environ.values()))
        for path in ({str(REPOSITORY / "var" / "secret_key")!r}, {str(REPOSITORY)!r},
                     "/root/.bash_history", "/var", "/etc/passwd", "/etc/shadow"):
            print(path, os.path.exists(path))
        print(os.listdir("/root") if os.path.isdir("/root") else [], os.getuid(), os.getgid())
        print([line for line in open("/proc/self/status") if line.startswith("CapEff")])
        """
    )
    assert result.exit_reason == "ok", result.stderr
    lines = result.stdout.strip().split("\n")
    names = ast.literal_eval(lines[0])
    assert "PLANTED_SECRET" not in names and "DJANGO_SETTINGS_MODULE" not in names
    assert not {"SECRET_KEY", "DATABASE_URL", "REDIS_URL"} & set(names)
    assert lines[1] == "False"
    assert all(line.endswith("False") for line in lines[2:8]), lines
    listed, uid, gid = lines[8].rsplit(" ", 2)
    assert set(ast.literal_eval(listed)) <= {".pyenv"}, listed  # an interpreter under /root
    assert (uid, gid) == (str(SANDBOX_UID), str(SANDBOX_UID))
    assert lines[9] == "['CapEff:\\t0000000000000000\\n']"


def test_two_sessions_do_not_see_each_others_files():
    with sandbox_session(LIMITS) as first, sandbox_session(LIMITS) as second:
        wrote = first.run("open('out/mine.txt', 'w').write('first');open('/tmp/t', 'w')")
        assert wrote.exit_reason == "ok", wrote.stderr
        looked = second.run(
            f"""import os
print(os.listdir('out'), os.listdir('/tmp'), os.path.exists({str(first.path)!r}))"""
        )
        assert looked.stdout.strip() == "[] [] False"
        assert (first.path / "out" / "mine.txt").read_text() == "first"


def test_a_link_the_script_leaves_is_never_followed_on_the_host():
    with sandbox_session(LIMITS) as session:
        session.run("import os; os.symlink('/etc/hostname', 'out/mesh.glb')")
        from agents.sandbox import SandboxError

        with pytest.raises(SandboxError):
            session.read("out/mesh.glb", max_bytes=1000)
        assert session.files() == []


def test_without_bubblewrap_nothing_runs():
    with pytest.raises(SandboxUnavailable, match="sandbox is disabled: bubblewrap is not"):
        available("/nonexistent/bwrap")
    with pytest.raises(SandboxUnavailable):
        run_code("print('unsandboxed')", LIMITS, bwrap="/nonexistent/bwrap")
