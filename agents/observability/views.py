"""`/metrics` for Prometheus: open in development, else for staff or a bearer METRICS_TOKEN."""

from __future__ import annotations

import hmac
import os

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector

from agents.observability.collectors import DatabaseCollector


def metrics_allowed(request: HttpRequest) -> bool:
    if settings.DEBUG:
        return True
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    token = settings.METRICS_TOKEN
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    return bool(token) and hmac.compare_digest(given.encode(), token.encode())


def metrics_view(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return JsonResponse(
            {"detail": "Metrics need a staff session or the METRICS_TOKEN bearer token."},
            status=403,
        )
    registry = CollectorRegistry()
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # all processes' figures
        body = b""
    else:
        body = generate_latest(REGISTRY)
    registry.register(DatabaseCollector())
    return HttpResponse(body + generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
