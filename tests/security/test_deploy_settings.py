"""Production settings come from three variables: `check --deploy` passes with DEBUG=0, a
SECRET_KEY and ALLOWED_HOSTS naming the site, while development defaults keep plain http."""

from __future__ import annotations

import os
import secrets
import string
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_"))}
    for name in ("DEBUG", "ALLOWED_HOSTS", "SECRET_KEY", "HTTPS", "CSRF_TRUSTED_ORIGINS"):
        clean.pop(name, None)
    clean.update(VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_check_deploy_passes_with_only_debug_secret_and_hosts(tmp_path: Path) -> None:
    key = "".join(
        secrets.choice(string.ascii_letters + string.digits + "!@#%^&*") for _ in range(50)
    )
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        tmp_path=tmp_path, DEBUG="0", SECRET_KEY=key, ALLOWED_HOSTS="example.com",
    )  # fmt: skip

    assert result.returncode == 0, result.stdout + result.stderr


def test_development_defaults_serve_plain_http(tmp_path: Path) -> None:
    code = (
        "from django.conf import settings as s; "
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)"
    )
    result = manage("shell", "-v", "0", "-c", code, tmp_path=tmp_path)

    assert result.stdout.split() == ["False", "False", "0"], result.stderr
