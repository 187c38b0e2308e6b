"""`manage.py run_sandboxed SCRIPT.py`: run a file as `run_python` runs the agent's code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from agents.sandbox import SandboxError, run_code
from agents.sandbox.configured import configured_host, configured_limits


class Command(BaseCommand):
    help = (
        "Run a Python file in the sandbox (bubblewrap, no network, a seccomp filter, a memory "
        "cgroup, the SANDBOX_* limits) and "
        "print the result as JSON: exit_reason, exit_code, stdout, stderr, files."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("script", help="The Python file to run.")
        parser.add_argument(
            "--timeout", type=float, help="Wall-clock seconds (default SANDBOX_TIMEOUT_SECONDS)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        script = Path(options["script"])
        if not script.is_file():
            raise CommandError(f"no such file: {script}")
        timeout = options["timeout"]
        if timeout is not None and timeout <= 0:
            raise CommandError("--timeout must be more than 0 seconds")
        limits = configured_limits(**({"timeout_s": timeout} if timeout else {}))
        try:
            code = script.read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {script}: {error}") from error
        try:
            result = run_code(code, limits, bwrap=settings.SANDBOX_BWRAP, host=configured_host())
        except SandboxError as error:  # disabled, or busy
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(result.to_dict(), indent=2))
