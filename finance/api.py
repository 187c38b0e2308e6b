"""Finance REST API under /api/v1/finance/: upload filings, read their canonical statements."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import selectors
from agents.models import Workspace
from finance.documents.ingest import DocumentError
from finance.models import Document
from finance.services import MAX_UPLOAD_BYTES, document_statements, document_upload


class BadRequest(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Bad request."


class DocumentSerializer(serializers.ModelSerializer[Document]):
    workspace = serializers.IntegerField(source="workspace_id", read_only=True)

    class Meta:
        model = Document
        fields = ["id", "workspace", "name", "kind", "pages", "sha256", "sections", "created_at"]
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
        responses={201: DocumentSerializer, 200: DocumentSerializer},
        summary="Upload a filing (10-K PDF or SEC HTML); the same file again returns it at once",
    )
    def post(self, request: Request, workspace_id: str) -> Response:
        workspace = finance_workspace(request, workspace_id)
        upload = request.FILES.get("file")
        if upload is None:
            raise BadRequest("upload the filing as multipart form field 'file'")
        if (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise BadRequest(f"the file is larger than {MAX_UPLOAD_BYTES // 2**20} MB")
        try:
            document, created = document_upload(
                workspace=workspace, data=upload.read(), filename=upload.name or ""
            )
        except DocumentError as error:
            raise BadRequest(str(error)) from error
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(DocumentSerializer(document).data, status=code)


class DocumentDetailView(APIView):
    @extend_schema(responses=DocumentSerializer)
    def get(self, request: Request, document_id: str) -> Response:
        return Response(DocumentSerializer(owned_document(request, document_id)).data)


class StatementsView(APIView):
    @extend_schema(responses={200: dict[str, Any]}, summary="Canonical statements (USD millions)")
    def get(self, request: Request, document_id: str) -> Response:
        document = owned_document(request, document_id)
        try:
            return Response(document_statements(document=document))
        except DocumentError as error:
            raise BadRequest(str(error)) from error
