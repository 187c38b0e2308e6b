"""What the benchmarks share: percentiles, safe URLs, process CPU, ports, the app's environment."""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (p50 of an even count is the lower middle value)."""
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def safe_url(url: str) -> str:
    """The URL with its password masked, for printing."""
    parts = urlsplit(url)
    if parts.password:
        netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
        parts = parts._replace(netloc=netloc)
    return urlunsplit(parts)


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds a process has used so far (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def bench_env(*, var_dir: str, database_url: str, redis_url: str) -> dict[str, str]:
    """The app's settings for a benchmark: its own VAR_DIR, database and Redis (empty: SQLite in
    VAR_DIR, no channel layer), Celery offline (nothing is enqueued), no model server."""
    return {
        "VAR_DIR": var_dir,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "CELERY_BROKER_URL": "memory://",  # nothing is enqueued: this process is the worker
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"),
        "DEBUG": "0",
        "MODEL_BASE_URL": "",
    }
