"""Reading settings from the environment, with the embedded defaults in one place."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


def env_float(name: str, default: float) -> float:
    value = env_str(name)
    return float(value) if value else default


def secret_key(var_dir: Path) -> str:
    """SECRET_KEY from the environment, or one generated once and kept in var/ (embedded)."""
    key = env_str("SECRET_KEY")
    if key:
        return key
    path = var_dir / "secret_key"
    if path.exists():
        return path.read_text().strip()
    var_dir.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    # Created 0600 by the open itself: a write-then-chmod leaves a moment when others can read it.
    try:
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text().strip()
    with os.fdopen(descriptor, "w") as handle:
        handle.write(key)
    return key
