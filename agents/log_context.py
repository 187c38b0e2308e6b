"""The web side of the log context: every line a request logs names its user and a request id."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.log import log_response

from agents.runtime.log_context import log_scope

# An id the proxy in front already gave the request is kept, so its lines and ours match up.
REQUEST_ID_HEADER = "X-Request-ID"
_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


def request_id(request: HttpRequest) -> str:
    """The proxy's id for the request when it sent a plausible one, else a new one."""
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if _REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


class LogContextMiddleware:
    """Sets user_id and request_id for the request's log lines, and sends the id back.

    A session's user is known here; an API token's only in the view, where
    `accounts.authentication` binds it for the rest of this scope."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        user = getattr(request, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else None
        rid = request_id(request)
        with log_scope(request_id=rid, user_id=user_id):
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = rid
            if response.status_code >= 400 and isinstance(response, HttpResponse):
                # Django logs 4xx/5xx responses after the middleware returns, outside this
                # scope; logged here (the same line, once) it carries the user and request id.
                log_response(
                    "%s: %s",
                    response.reason_phrase,
                    request.path,
                    response=response,
                    request=request,
                )
        return response
