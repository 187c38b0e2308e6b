"""Finance pages: the page viewer with a highlighted value, and the panel's document list."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import render
from django.views.decorators.http import require_GET

from agents import selectors
from agents.models import Workspace
from agents.services.quotas import QuotaExceeded
from finance.documents.ingest import DocumentError
from finance.models import Document
from finance.pages import document_rows, viewer_context
from finance.services import PageError, page_info
from finance.services.pages import parse_box

MAX_LABEL_CHARS = 200


def _owned_document(request: HttpRequest, document_id: int) -> Document:
    document = Document.objects.filter(pk=document_id, workspace__owner_id=request.user.pk).first()
    if document is None:
        raise Http404("No such document.")
    return document


@login_required
@require_GET
def document_page(request: HttpRequest, document_id: int, page: int) -> HttpResponse:
    """GET /finance/documents/<id>/pages/<n>/?box=x0,top,x1,bottom&label=...&q=..."""
    document = _owned_document(request, document_id)
    try:
        info = page_info(document=document, page=page)
        box = parse_box(request.GET.get("box"), width=info.width, height=info.height)
    except PageError as error:
        if error.status == 404:
            raise Http404(str(error)) from error
        return HttpResponseBadRequest(str(error))
    except QuotaExceeded as error:  # every page slot busy: waiting helps
        busy = HttpResponse(str(error), status=429, content_type="text/plain; charset=utf-8")
        busy["Retry-After"] = "2"
        return busy
    except DocumentError as error:  # not ready yet, or failed
        return render(
            request,
            "finance/page_unavailable.html",
            {"document": document, "reason": str(error)},
            status=409,
        )
    label = request.GET.get("label", "")[:MAX_LABEL_CHARS]
    query = request.GET.get("q", "")[:MAX_LABEL_CHARS]
    context = viewer_context(info, box=box, label=label, query=query)
    return render(request, "finance/page.html", context)


@login_required
@require_GET
def document_list_fragment(request: HttpRequest, workspace_id: int) -> HttpResponse:
    """The panel's document list as HTML, re-fetched by the page when a document changes state."""
    workspace = selectors.workspace_list(user=request.user).filter(pk=workspace_id).first()
    if workspace is None or workspace.kind != Workspace.Kind.FINANCE:
        raise Http404("No such finance workspace.")
    rows = document_rows(Document.objects.filter(workspace=workspace))
    return render(request, "finance/_documents.html", {"rows": rows})
