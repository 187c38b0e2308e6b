"""Health endpoints for load balancers and orchestrators; no authentication, no host check.

* ``/healthz``: the process is alive and serving (no dependency is touched): a liveness probe.
* ``/readyz``: the database, the Celery broker, the channel layer and artifact storage answer
  within ``CHECK_TIMEOUT_SECONDS``: a readiness probe. 200 with ``{"checks": {name: "ok"}}`` when
  all pass, 503 naming the ones that failed and why. It also says which headless GL backend the
  studio renders with, and why (``rendering``): information, not a check, since a web process
  never renders.

Probes arrive with the pod's address as Host and over plain http, so ``HealthCheckMiddleware``
(first in MIDDLEWARE) answers them before ALLOWED_HOSTS and the HTTPS redirect apply; the same
views are routed in config/urls.py.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.files.storage import FileSystemStorage, storages
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

CHECK_TIMEOUT_SECONDS = 2.0
PATHS = ("/healthz", "/readyz")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness: answers as long as the process serves requests."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> JsonResponse:
    """Readiness: every dependency answers; 503 naming the failing ones otherwise."""
    results = run_checks(CHECKS)
    failing = sorted(name for name, result in results.items() if result != "ok")
    body = {
        "status": "fail" if failing else "ok",
        "failing": failing,
        "checks": results,
        "rendering": rendering(),
    }
    return JsonResponse(body, status=503 if failing else 200)


def rendering() -> dict[str, str]:
    """The GL backend the studio's renders use, why, and what the run command's check drew."""
    platform, reason = _chosen_platform()
    return {
        "platform": platform,
        "reason": reason,
        "checked": os.environ.get("RENDERING_CHECKED", ""),
    }


@functools.cache
def _chosen_platform() -> tuple[str, str]:
    # The choice reads the environment and the installed libraries, fixed for the process's life.
    from studio.rendering._gl import describe_platform

    return describe_platform()


def run_checks(checks: dict[str, Callable[[], None]]) -> dict[str, str]:
    """Run the checks side by side; each is "ok", the error it raised, or "timed out"."""
    pool = ThreadPoolExecutor(max_workers=len(checks), thread_name_prefix="readyz")
    try:
        futures = {name: pool.submit(check) for name, check in checks.items()}
        deadline = time.monotonic() + CHECK_TIMEOUT_SECONDS
        results: dict[str, str] = {}
        for name, future in futures.items():
            try:
                future.result(timeout=max(0.0, deadline - time.monotonic()))
                results[name] = "ok"
            except FutureTimeout:
                results[name] = f"timed out after {CHECK_TIMEOUT_SECONDS:g} s"
            except Exception as error:
                results[name] = f"{type(error).__name__}: {error}"[:300]
        return results
    finally:
        pool.shutdown(wait=False)  # a hung check ends on its own socket timeout


def check_database() -> None:
    connection = connections["default"]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # this thread's connection: not left open for the next probe


def check_broker() -> None:
    from kombu import Connection

    url = settings.CELERY_BROKER_URL
    options = dict(settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    if url.startswith("filesystem://"):
        for key in ("data_folder_in", "data_folder_out"):
            _writable_folder(Path(options[key]))
        return
    with Connection(url, transport_options=options, connect_timeout=CHECK_TIMEOUT_SECONDS) as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=1)


def check_channel_layer() -> None:
    import redis

    layers: dict[str, Any] = settings.CHANNEL_LAYERS
    config = layers.get("default", {}).get("CONFIG", {})
    for host in config.get("hosts", []):  # the in-memory layer has none: nothing to reach
        address = host["address"] if isinstance(host, dict) else host
        if not isinstance(address, str):
            raise ValueError(f"cannot check a channel layer host given as {address!r}")
        client = redis.Redis.from_url(
            address,
            socket_connect_timeout=CHECK_TIMEOUT_SECONDS,
            socket_timeout=CHECK_TIMEOUT_SECONDS,
        )
        try:
            client.ping()
        finally:
            client.close()


def check_storage() -> None:
    storage = storages["default"]
    if isinstance(storage, FileSystemStorage):
        _writable_folder(Path(storage.location))
    else:  # an object store: one HEAD request for a key that need not exist
        storage.exists(".readyz")


def _writable_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if not os.access(folder, os.W_OK):
        raise PermissionError(f"{folder} is not writable")


CHECKS: dict[str, Callable[[], None]] = {
    "database": check_database,
    "broker": check_broker,
    "channel_layer": check_channel_layer,
    "storage": check_storage,
}


class HealthCheckMiddleware:
    """Answers GET /healthz and /readyz before host validation and the HTTPS redirect."""

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in ("GET", "HEAD") and request.path in PATHS:
            return healthz(request) if request.path == "/healthz" else readyz(request)
        response: HttpResponse = self.get_response(request)
        return response
