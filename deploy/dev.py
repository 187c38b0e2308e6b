#!/usr/bin/env python3
"""Set up and run the app, or its tests, on a fresh machine with only Python 3.11+ and git.

    python3 deploy/dev.py run    # install, migrate, serve on 127.0.0.1:$PORT (8000) with a worker
    python3 deploy/dev.py test   # install the test dependencies, lint, type-check, run the suite

With POSTGRES_TEST_URL set (CI sets it), the Django tests run a second time on PostgreSQL.

Everything goes into ./.venv (made with the standard library's venv, then `uv sync --frozen`
against uv.lock). The app runs on its embedded defaults: SQLite, a Celery broker in var/broker
that needs no server, no Redis, no model server. A worker or server that dies is started again
(the others keep serving); Ctrl-C, SIGTERM or SIGHUP stops every process it started (and their
children).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
UV_VERSION = "0.9.5"


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def sh(*args: str | Path, env: dict[str, str] | None = None) -> None:
    result = subprocess.run([str(arg) for arg in args], cwd=ROOT, env=env)
    if result.returncode != 0:
        sys.exit(f"command failed ({result.returncode}): {' '.join(map(str, args))}")


def ensure_environment(*, dev: bool) -> None:
    if sys.version_info < (3, 11):
        sys.exit("Python 3.11 or newer is needed (this is %d.%d)." % sys.version_info[:2])
    if not PYTHON.exists():
        say("creating .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    if not (BIN / "uv").exists():
        say("installing uv into .venv")
        if subprocess.run([PYTHON, "-m", "pip", "--version"], capture_output=True).returncode:
            sh(PYTHON, "-m", "ensurepip", "--upgrade")
        sh(
            PYTHON,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            f"uv>={UV_VERSION}",
        )
    say("installing dependencies from uv.lock")
    groups = [] if dev else ["--no-dev", "--inexact"]
    env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV)}
    sh(BIN / "uv", "sync", "--frozen", "--quiet", *groups, env=env)


def manage(*args: str) -> None:
    sh(PYTHON, "manage.py", *args)


def run() -> None:
    ensure_environment(dev=False)
    os.environ.setdefault("LOG_FORMAT", "text")  # a person reads this console; deployments: JSON
    say("migrating the database")
    manage("migrate", "--noinput")
    # Metrics files of the processes of an earlier start would be added to this one's.
    metrics = Path(os.environ.get("VAR_DIR") or ROOT / "var") / "prometheus"
    shutil.rmtree(metrics, ignore_errors=True)
    check_rendering()
    port = os.environ.get("PORT", "8000")
    host = os.environ.get("HOST", "127.0.0.1")
    worker = [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "--loglevel=INFO",
        # prefork: each task runs in a child's main thread, where the task and tool time limits
        # (SIGUSR1 from Celery, SIGALRM per tool call) can stop it; a threads pool cannot.
        "--pool=prefork",
        "--concurrency=2",
        "--without-gossip",
        "--without-mingle",
    ]
    server = server_command(host=host, port=port)
    say(f"serving on http://{host}:{port}/  (sign up there; Ctrl-C stops everything)")
    supervise([worker, server], names=["worker", "web server"])


# uvicorn's bounds on what clients hold (README: Security), each overridable in the environment.
# uvicorn itself has no header timeout: its protocols with one are config/web_protocols.py
# (WEB_HEADER_TIMEOUT, 10 s). Per-address limits are the production proxy's (deploy/nginx/).
SERVER_LIMITS = {
    # The HTTP protocol: uvicorn's httptools one, closing a connection whose request headers are
    # not complete within WEB_HEADER_TIMEOUT seconds (a trickling client holds nothing).
    "WEB_HTTP_PROTOCOL": ("--http", "config.web_protocols:HttpToolsProtocol"),
    # Connections and tasks at once (sockets included); past it requests are answered 503.
    "WEB_LIMIT_CONCURRENCY": ("--limit-concurrency", "1000"),
    # An idle keep-alive connection is closed after this many seconds.
    "WEB_TIMEOUT_KEEP_ALIVE": ("--timeout-keep-alive", "5"),
    # A WebSocket message is at most this many bytes (clients send only small JSON pings).
    "WEB_WS_MAX_SIZE": ("--ws-max-size", "65536"),
    # Bytes buffered of a request not yet complete (the h11 parser; httptools caps headers).
    "WEB_MAX_INCOMPLETE_EVENT_BYTES": ("--h11-max-incomplete-event-size", "65536"),
}


def server_command(*, host: str, port: str) -> list[str]:
    """The web server's command line, with its connection bounds."""
    limits = [
        item
        for variable, (flag, default) in SERVER_LIMITS.items()
        for item in (flag, os.environ.get(variable) or default)
    ]
    return [
        str(BIN / "uvicorn"),
        "config.asgi:application",
        "--host",
        host,
        "--port",
        port,
        "--ws",
        "websockets-sansio",
        *limits,
    ]


def check_rendering() -> None:
    """Say which headless GL backend the studio renders with, proved by one small frame.

    The rule (studio/rendering/_gl.py) takes OSMesa where it is installed, else EGL. Where the
    chosen one cannot draw and nothing was forced, the other is tried, and the one that draws is
    handed to the server and the worker. Where neither draws, the app still serves: the studio's
    runs then fail saying why, and the finance workspace works as ever.
    """
    report = _render_check({})
    if not report["renders"] and not os.environ.get("PYOPENGL_PLATFORM", "").strip():
        other = "egl" if report["platform"] == "osmesa" else "osmesa"
        retried = _render_check({"PYOPENGL_PLATFORM": other})
        if retried["renders"]:
            os.environ["PYOPENGL_PLATFORM"] = other
            report = retried | {"reason": f"{report['platform']} does not render here"}
    if report["renders"]:
        line = f"{report['platform']} ({report['renderer']}): {report['reason']}"
        say(f"rendering: {line}")
    else:
        line = f"{report['platform']} does not render: {report['error']}"
        say(f"rendering: UNAVAILABLE, studio runs fail until it is fixed; {line}")
    os.environ["RENDERING_CHECKED"] = line  # /readyz repeats it


def _render_check(extra: dict[str, str]) -> dict[str, Any]:
    """`manage.py render_check --json` in a process of its own (GL is chosen once a process)."""
    env = {**os.environ, "LOG_LEVEL": "WARNING", **extra}
    try:
        done = subprocess.run(
            [str(PYTHON), "manage.py", "render_check", "--json"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        lines = done.stdout.strip().splitlines()
        report: dict[str, Any] = json.loads(lines[-1])
        return report
    except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError) as error:
        platform = extra.get("PYOPENGL_PLATFORM", "the chosen platform")
        return {"platform": platform, "renders": False, "error": f"the check failed: {error!r}"}


class Stopped(Exception):
    """SIGINT, SIGTERM or SIGHUP reached the runner: stop everything."""


def _stop_on_signal(signum: int, frame: object) -> None:
    raise Stopped(signal.Signals(signum).name)


def supervise(
    commands: list[list[str]],
    *,
    names: list[str] | None = None,
    poll_seconds: float = 0.5,
    restart_window: float = 60.0,
    max_restarts: int = 5,
) -> None:
    """Start the commands and keep them running until Ctrl-C, SIGTERM or SIGHUP; then stop all.

    A process that stops on its own (a worker killed by the kernel's OOM killer, a crash) is
    started again while the others keep serving; one that stops more than ``max_restarts`` times
    within ``restart_window`` seconds (a port already taken, a broken install) cannot be helped
    by starting it again, so everything stops with the reason. Each child leads its own process
    group, and stopping signals the whole group: a uvicorn or Celery parent that dies first
    would otherwise leave its own children holding the port.
    """
    # SIGINT too: a runner started in the background of a script inherits SIGINT ignored, and
    # Python then leaves it ignored, so Ctrl-C's signal sent by `kill -INT` would do nothing.
    for signum in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, _stop_on_signal)
    labels = names or [Path(command[0]).name for command in commands]
    children: list[subprocess.Popen[bytes]] = []
    stops: list[list[float]] = [[] for _ in commands]
    try:
        for command in commands:
            children.append(_start(command))
        while True:
            time.sleep(poll_seconds)
            for index, child in enumerate(children):
                code = child.poll()
                if code is None:
                    continue
                _signal_group(child, getattr(signal, "SIGKILL", signal.SIGTERM))  # its orphans
                now = time.monotonic()
                recent = [at for at in stops[index] if now - at < restart_window] + [now]
                stops[index] = recent
                if len(recent) > max_restarts:
                    sys.exit(
                        f"the {labels[index]} stopped {len(recent)} times within "
                        f"{restart_window:g} s (last exit code {code}); stopping the others"
                    )
                say(f"the {labels[index]} stopped (exit code {code}); starting it again")
                children[index] = _start(commands[index])
    except (KeyboardInterrupt, Stopped):
        say("stopping")
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):  # a second signal must not cut this short
            signal.signal(signum, signal.SIG_IGN)
        stop(children)


def _start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=ROOT, start_new_session=True)


def stop(children: list[subprocess.Popen[bytes]], timeout: float = 10) -> None:
    """SIGTERM each child's process group, then SIGKILL what is left after ``timeout``."""
    for child in children:
        _signal_group(child, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        # the leader may be gone while its children (a pool, a reloader's server) are not
        _signal_group(child, getattr(signal, "SIGKILL", signal.SIGTERM))
        child.wait()


def _signal_group(child: subprocess.Popen[bytes], signum: int) -> None:
    if os.name == "nt":
        if child.poll() is None:
            child.terminate()
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
        os.killpg(child.pid, signum)


def test() -> None:
    ensure_environment(dev=True)
    say("ruff")
    sh(BIN / "ruff", "check", ".")
    sh(BIN / "ruff", "format", "--check", ".")
    say("mypy")
    sh(BIN / "mypy", ".")
    if len(sys.argv) == 2:  # the whole suite, as CI runs it (not `test -k ...`)
        evaluate_quick()
    say("pytest")
    sh(BIN / "pytest", *sys.argv[2:])
    postgres = os.environ.get("POSTGRES_TEST_URL")
    if postgres:
        say("pytest: the Django suite again on PostgreSQL")
        env = {**os.environ, "DATABASE_URL": postgres}
        sh(BIN / "pytest", "-q", "tests/agents", "tests/accounts", "-m", "not browser", env=env)


def evaluate_quick() -> None:
    """The quick evaluation subset, on a throwaway database, held to the floors in the repo;
    then its verifiers' quality control (a verifier passing a null or wrong solver fails)."""
    say("evaluation: quick subset of every suite against its floor")
    with tempfile.TemporaryDirectory(prefix="agentworks-eval-") as var:
        env = {**os.environ, "VAR_DIR": var}
        env.pop("DATABASE_URL", None)
        shared = os.environ.get("SHARED_DATA", str(ROOT.parent / "shared" / "data"))
        env.setdefault("FINANCE_RECORDED_DIR", os.path.join(shared, "finance"))
        sh(PYTHON, "manage.py", "migrate", "--noinput", "-v", "0", env=env)
        absent = [] if Path(shared).is_dir() else ["--allow-absent-inputs"]  # a laptop's clone
        sh(
            PYTHON,
            "manage.py",
            "evaluate",
            "--suite",
            "all",
            "--quick",
            "--check-floors",
            *absent,
            env=env,
        )
        say("evaluation: quality control of the quick subsets' verifiers (gold, null, wrong)")
        sh(PYTHON, "manage.py", "evaluate", "--suite", "all", "--quick", "--qc", env=env)


def main() -> None:
    # Every process started here imports the same large libraries: let Python keep their
    # compiled bytecode (a shell that forbids it makes each start compile them again, ~10 s).
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    commands = {"run": run, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 {Path(__file__).relative_to(ROOT)} run|test [pytest args]")
    commands[sys.argv[1]]()


if __name__ == "__main__":
    main()
