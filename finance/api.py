"""Finance REST API under /api/v1/finance/: upload filings, follow them, read statements, pages."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, HttpResponseBase
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import selectors
from agents.models import Workspace
from agents.storage_files import stored_file_response
from finance.documents.ingest import DocumentError
from finance.models import Document
from finance.services import (
    PageError,
    document_delete,
    document_statements,
    document_upload,
    max_upload_bytes,
    page_info,
    page_png,
)
from finance.services.documents import NotReady
from finance.services.pages import parse_box, parse_scale


class BadRequest(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Bad request."


class Conflict(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The document is not ready."


class DocumentSerializer(serializers.ModelSerializer[Document]):
    workspace = serializers.IntegerField(source="workspace_id", read_only=True)

    class Meta:
        model = Document
        fields = [
            "id", "workspace", "name", "kind", "status", "progress", "message", "company",
            "title", "pages", "sha256", "sections", "created_at",
        ]  # fmt: skip
        read_only_fields = fields


def finance_workspace(request: Request, workspace_id: str) -> Workspace:
    workspace = selectors.workspace_list(user=request.user).filter(pk=int(workspace_id)).first()
    if workspace is None or workspace.kind != Workspace.Kind.FINANCE:
        raise NotFound("No such finance workspace.")
    return workspace


def owned_document(request: Request, document_id: str) -> Document:
    document = Document.objects.filter(
        pk=int(document_id), workspace__owner_id=request.user.pk
    ).first()
    if document is None:
        raise NotFound("No such document.")
    return document


def api_error(error: DocumentError) -> APIException:
    """The HTTP face of a service error: 409 for not ready, a page error's own status (404, 422
    for a page that cannot be rendered), else 400."""
    if isinstance(error, NotReady):
        return Conflict(str(error))
    if isinstance(error, PageError) and error.status == status.HTTP_404_NOT_FOUND:
        return NotFound(str(error))
    if isinstance(error, PageError) and error.status != status.HTTP_400_BAD_REQUEST:
        refused = APIException(str(error))
        refused.status_code = error.status
        return refused
    return BadRequest(str(error))


class DocumentListView(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(responses=DocumentSerializer(many=True))
    def get(self, request: Request, workspace_id: str) -> Response:
        workspace = finance_workspace(request, workspace_id)
        documents = Document.objects.filter(workspace=workspace)
        return Response(DocumentSerializer(documents, many=True).data)

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }
        },
        responses={202: DocumentSerializer, 200: DocumentSerializer},
        summary="Upload a filing (10-K PDF or SEC HTML); it is processed in the background "
        "(202, follow `status`/`progress`); the same file again returns it at once (200)",
    )
    def post(self, request: Request, workspace_id: str) -> Response:
        workspace = finance_workspace(request, workspace_id)
        upload = request.FILES.get("file")
        if upload is None:
            raise BadRequest("upload the filing as multipart form field 'file'")
        if (upload.size or 0) > max_upload_bytes():
            raise BadRequest(f"the file is larger than {max_upload_bytes() // 2**20} MB")
        try:
            document, created = document_upload(
                workspace=workspace, data=upload.read(), filename=upload.name or ""
            )
        except DocumentError as error:
            raise BadRequest(str(error)) from error
        document.refresh_from_db()  # an eager task outside a transaction has finished it
        code = status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK
        return Response(DocumentSerializer(document).data, status=code)


class DocumentDetailView(APIView):
    @extend_schema(responses=DocumentSerializer)
    def get(self, request: Request, document_id: str) -> Response:
        return Response(DocumentSerializer(owned_document(request, document_id)).data)

    @extend_schema(responses={204: None}, summary="Delete a document and its stored file")
    def delete(self, request: Request, document_id: str) -> Response:
        document_delete(document=owned_document(request, document_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


DOCUMENT_MEDIA_TYPES = {"pdf": "application/pdf", "html": "text/html", "csv": "text/csv"}


class DocumentFileView(APIView):
    @extend_schema(
        responses={
            (200, "application/pdf"): bytes,
            302: OpenApiResponse(description="S3 storage: a short-lived presigned URL"),
        },
        summary="The uploaded file itself (a redirect to the bucket where storage is S3)",
    )
    def get(self, request: Request, document_id: str) -> HttpResponseBase:
        document = owned_document(request, document_id)
        if not document.file:
            raise NotFound("This document has no stored file.")
        media_type = DOCUMENT_MEDIA_TYPES.get(document.kind, "application/octet-stream")
        return stored_file_response(document.file, filename=document.name, content_type=media_type)


class StatementsView(APIView):
    @extend_schema(
        responses={200: dict[str, Any]},
        summary="Canonical statements (USD millions); 409 while processing or after a failure",
    )
    def get(self, request: Request, document_id: str) -> Response:
        document = owned_document(request, document_id)
        try:
            return Response(document_statements(document=document))
        except DocumentError as error:
            raise api_error(error) from error


def page_image_url(document_id: int, page: int) -> str:
    return reverse("finance-page-png", kwargs={"document_id": document_id, "page": page})


class PageView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("box", str, description="x0,top,x1,bottom in PDF points")],
        responses={200: dict[str, Any]},
        summary="One page (0-indexed): size in points, text, image URL; a box as page percentages",
    )
    def get(self, request: Request, document_id: str, page: str) -> Response:
        document = owned_document(request, document_id)
        try:
            info = page_info(document=document, page=int(page))
            box = parse_box(request.query_params.get("box"), width=info.width, height=info.height)
        except DocumentError as error:
            raise api_error(error) from error
        data = info.to_dict(page_image_url(document.pk, info.page))
        if box is not None:
            data["box"] = {"x0": box.x0, "top": box.top, "x1": box.x1, "bottom": box.bottom}
            if info.width and info.height:
                data["box"]["percent"] = box.percent(info.width, info.height)
        return Response(data)


class PageImageView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter("scale", float, description="0.5 to 3 (1 = 72 dpi)")],
        responses={(200, "image/png"): bytes},
        summary="One page of a PDF filing as PNG (HTML filings have none: 404)",
    )
    def get(self, request: Request, document_id: str, page: str) -> HttpResponse:
        document = owned_document(request, document_id)
        try:
            scale = parse_scale(request.query_params.get("scale"))
            png = page_png(document=document, page=int(page), scale=scale)
        except DocumentError as error:
            raise api_error(error) from error
        response = HttpResponse(png, content_type="image/png")
        response["Cache-Control"] = "private, max-age=86400"
        return response
