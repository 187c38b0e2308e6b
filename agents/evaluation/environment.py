"""What results depend on besides the code: interpreter, libraries, backends, policy, model."""

from __future__ import annotations

import platform
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from django.conf import settings

from agents.evaluation.kinds import evaluation_kinds

CORE_PACKAGES = ("django", "celery", "channels", "openai", "numpy")


def package_versions(names: tuple[str, ...]) -> dict[str, str]:
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "absent"
    return versions


def environment_report(*, policy: str, model: str, kinds: list[str]) -> dict[str, Any]:
    """The facts an evaluation's numbers depend on, stored with the evaluation."""
    report: dict[str, Any] = {
        "policy": policy,
        "model": model,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "packages": package_versions(CORE_PACKAGES),
        "database": settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
        "commit": _commit(),
    }
    registered = evaluation_kinds()
    for key in kinds:
        try:
            report[key] = registered[key].environment()
        except Exception as error:  # an environment probe must not stop the evaluation
            report[key] = {"error": f"{type(error).__name__}: {error}"}
    return report


def _commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(settings.BASE_DIR),
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
