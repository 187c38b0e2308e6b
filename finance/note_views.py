"""Research notes: the HTML page, and JSON, Markdown and PDF downloads."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse


@login_required
def note_page(request: HttpRequest, note_id: int) -> HttpResponse:
    """GET /finance/notes/<id>/ : the note as a page, every number linked to its source."""
    return JsonResponse({"detail": "not written yet"}, status=501)


def note_download(request: HttpRequest, note_id: int, fmt: str) -> HttpResponse:
    """GET /api/v1/finance/notes/<id>[.json|.md|.pdf] (session or bearer token)."""
    return JsonResponse({"detail": "not written yet"}, status=501)
