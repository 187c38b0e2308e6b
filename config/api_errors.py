"""Every API error is JSON with a `detail`, whatever raised it, and every one is in the schema."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from drf_spectacular.openapi import AutoSchema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from agents.services.quotas import QuotaExceeded


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, QuotaExceeded):
        return quota_response(exc)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, list):
        response.data = {"detail": response.data}
    return response


def quota_response(exc: QuotaExceeded) -> Response:
    """429 (waiting helps) or 403 (it does not), naming the quota, its limit and when it frees."""
    body = exc.to_dict()
    response = Response(body, status=exc.status)
    if body["retry_after"] is not None:
        response["Retry-After"] = str(body["retry_after"])
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


# --- the error bodies in the OpenAPI schema ----------------------------------------------------


class ErrorSerializer(serializers.Serializer[Any]):
    """An error: what went wrong, in words a person can act on."""

    detail = serializers.CharField()


class LimitErrorSerializer(serializers.Serializer[Any]):
    """A refusal by a rate limit or a quota; quotas also name themselves, their limit and when
    they free up (`retry_after` seconds, null when only deleting something frees it)."""

    detail = serializers.CharField()
    quota = serializers.ChoiceField(
        choices=["concurrent_runs", "runs_per_hour", "tokens_per_run", "stored_bytes"],
        required=False,
    )
    limit = serializers.IntegerField(required=False)
    retry_after = serializers.IntegerField(required=False, allow_null=True)
    retry_at = serializers.DateTimeField(required=False, allow_null=True)


VALIDATION_ERROR: dict[str, Any] = {
    "type": "object",
    "description": "The request is invalid: `detail`, or each invalid field with its messages.",
    "additionalProperties": True,
}
ERROR_DESCRIPTIONS = {
    "400": "Invalid request.",
    "401": "Not authenticated: send a session cookie or `Authorization: Bearer <token>`.",
    "403": "Not allowed, or refused by a quota (`quota` says which).",
    "404": "Not found (or not yours).",
    "405": "Method not allowed.",
    "406": "None of the accepted media types can be produced.",
    "409": "Conflict with the current state (e.g. the run has not finished yet).",
    "413": "The request body is over the size limit.",
    "415": "Unsupported media type.",
    "429": "Too many requests: a rate limit or a quota; see `retry_after`.",
}
WITH_BODY = {"POST", "PUT", "PATCH"}


class ErrorDocumentingSchema(AutoSchema):
    """drf-spectacular's schema, plus every error an operation can answer, with its JSON body."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        # Errors are rendered by the view's own JSON renderers (JSON lines for a trajectory).
        media = [kind for kind in self.map_renderers("media_type") if "json" in kind]
        codes = ["400", "401", "403", "404", "405", "406", "409", "429"]
        if self.method in WITH_BODY:
            codes += ["413", "415"]
        for code in codes:
            entry = responses.get(code)
            if entry is not None and entry.get("content"):
                continue
            body: Any = {
                "400": VALIDATION_ERROR,
                "403": LimitErrorSerializer,
                "429": LimitErrorSerializer,
            }.get(code, ErrorSerializer)
            built = self._get_response_for_code(  # type: ignore[no-untyped-call]
                body, code, media or ["application/json"], direction
            )
            built["description"] = (entry or {}).get("description") or ERROR_DESCRIPTIONS[code]
            responses[code] = built
        return responses
