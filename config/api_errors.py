"""Every API error is JSON with a `detail`, whatever raised it."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, list):
        response.data = {"detail": response.data}
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> Any:
    from django.views.defaults import page_not_found

    if _is_api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return page_not_found(request, exception or Exception())


def server_error(request: HttpRequest) -> Any:
    from django.views.defaults import server_error as html_server_error

    if _is_api(request):
        return JsonResponse({"detail": "Internal server error."}, status=500)
    return html_server_error(request)
