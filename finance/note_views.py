"""Research notes: the HTML page, and JSON, Markdown and PDF downloads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.utils.text import slugify
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from finance.models import Note

if TYPE_CHECKING:
    from finance.note.model import Note as NoteDocument

# The renderers (matplotlib, fpdf2) load on the first note served, not with the URL conf.
NOTE_HTML_SECONDS = 7 * 24 * 3600


def _owned(request: HttpRequest, note_id: int) -> Note:
    note = Note.objects.filter(pk=note_id, workspace__owner_id=request.user.pk).first()
    if note is None:
        raise Http404("No such note.")
    return note


def _document(note: Note) -> NoteDocument:
    from finance.note.model import Note as NoteDocument
    from finance.note.validation import NoteError

    try:
        return NoteDocument.from_dict(note.body)
    except NoteError as error:  # stored notes are validated when written; say so if one is not
        raise Http404(f"The note cannot be read: {error}") from error


@login_required
def note_page(request: HttpRequest, note_id: int) -> HttpResponse:
    """GET /finance/notes/<id>/ : the note as a page, every number linked to its source."""
    from finance.note.html import render_html
    from finance.note.links import PathLinks

    note = _owned(request, note_id)
    # A note never changes once written; drawing its charts takes about half a second, so the
    # fragment is rendered once (the key holds the creation time: ids can be reused by SQLite).
    key = f"finance:note-html:{note.pk}:{note.created_at.timestamp()}"
    body = cache.get(key)
    if not isinstance(body, str):
        body = render_html(_document(note), PathLinks(""))
        cache.set(key, body, NOTE_HTML_SECONDS)
    return render(
        request,
        "finance/note.html",
        # The renderer escapes every text it writes, so the fragment is safe to embed.
        {"note": note, "body": mark_safe(body)},
    )


@extend_schema(
    summary="A research note as JSON, Markdown (.md) or PDF (.pdf)",
    responses={200: dict},
)
@api_view(["GET"])
def note_download(request: Request, note_id: int, fmt: str = "json") -> HttpResponse:
    """GET /api/v1/finance/notes/<id>[.json|.md|.pdf] (session or bearer token)."""
    note = Note.objects.filter(pk=note_id, workspace__owner_id=request.user.pk).first()
    if note is None:
        raise NotFound("No such note.")
    if fmt == "json":
        return Response(
            {
                "id": note.pk,
                "workspace": note.workspace_id,
                "run": note.run_id,
                "created_at": note.created_at,
                "note": note.body,
            }
        )
    from finance.note.links import PathLinks
    from finance.note.markdown import render_markdown
    from finance.note.model import Note as NoteDocument
    from finance.note.pdf import render_pdf
    from finance.note.validation import NoteError

    try:
        document = NoteDocument.from_dict(note.body)
    except NoteError as error:
        raise NotFound(f"The note cannot be read: {error}") from error
    links = PathLinks(request.build_absolute_uri("/").rstrip("/"))
    name = slugify(note.title)[:80] or f"note-{note.pk}"
    if fmt == "md":
        response = HttpResponse(
            render_markdown(document, links), content_type="text/markdown; charset=utf-8"
        )
    else:
        response = HttpResponse(render_pdf(document, links), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
