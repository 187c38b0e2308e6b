#!/usr/bin/env python3
"""Set up and run the app, or its tests, on a fresh machine with only Python 3.11+ and git.

    python3 deploy/dev.py run    # install, migrate, serve on 127.0.0.1:$PORT (8000) with a worker
    python3 deploy/dev.py test   # install the test dependencies, lint, type-check, run the suite

With POSTGRES_TEST_URL set (CI sets it), the Django tests run a second time on PostgreSQL.

Everything goes into ./.venv (made with the standard library's venv, then `uv sync --frozen`
against uv.lock). The app runs on its embedded defaults: SQLite, a Celery broker in var/broker
that needs no server, no Redis, no model server. Ctrl-C stops every process it started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

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
    say("migrating the database")
    manage("migrate", "--noinput")
    port = os.environ.get("PORT", "8000")
    host = os.environ.get("HOST", "127.0.0.1")
    worker = [
        str(BIN / "celery"),
        "-A",
        "config",
        "worker",
        "--loglevel=INFO",
        "--pool=threads",
        "--concurrency=4",
        "--without-gossip",
        "--without-mingle",
    ]
    server = [
        str(BIN / "uvicorn"),
        "config.asgi:application",
        "--host",
        host,
        "--port",
        port,
        "--ws",
        "websockets-sansio",
    ]
    children = [subprocess.Popen(worker, cwd=ROOT), subprocess.Popen(server, cwd=ROOT)]
    say(f"serving on http://{host}:{port}/  (sign up there; Ctrl-C stops everything)")
    try:
        while all(child.poll() is None for child in children):
            time.sleep(0.5)
        sys.exit("a process stopped unexpectedly; stopping the others")
    except KeyboardInterrupt:
        say("stopping")
    finally:
        stop(children)


def stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()


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
    """The quick evaluation subset, on a throwaway database, held to the floors in the repo."""
    say("evaluation: quick subset of every suite against its floor")
    with tempfile.TemporaryDirectory(prefix="agentworks-eval-") as var:
        env = {**os.environ, "VAR_DIR": var}
        env.pop("DATABASE_URL", None)
        shared = os.environ.get("SHARED_DATA", str(ROOT.parent / "shared" / "data"))
        env.setdefault("FINANCE_RECORDED_DIR", os.path.join(shared, "finance"))
        sh(PYTHON, "manage.py", "migrate", "--noinput", "-v", "0", env=env)
        sh(PYTHON, "manage.py", "evaluate", "--suite", "all", "--quick", "--check-floors", env=env)


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
