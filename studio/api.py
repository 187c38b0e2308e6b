"""Studio REST API: a studio workspace's scene, its revisions (read, edit, revert, diff, export)
and mesh uploads. Thin views: check the workspace is the caller's and a studio one, call one
service or selector, return. Every error is JSON with a `detail` a person can act on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict

from django.http import HttpResponse, HttpResponseBase, HttpResponseRedirect
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from agents import selectors as agent_selectors
from agents.models import Workspace
from agents.services.quotas import check_stored_bytes
from agents.storage_files import presigned_url
from studio import exports, selectors
from studio.models import SceneRevision
from studio.scene.diff import diff_scenes
from studio.scene.materials import PRESETS
from studio.scene.model import SceneError
from studio.serializers import (
    DIFF_SCHEMA,
    REVISION_CREATE_SCHEMA,
    MeshSerializer,
    RevisionSerializer,
    RevisionSummarySerializer,
    SceneSerializer,
)
from studio.services import RevisionError, revision_edit, revision_revert

MAX_REVISION_NUMBER = 2**31 - 1


class BadRequest(APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = "Bad request."
    default_code = "bad_request"


class Unexportable(APIException):
    """The revision exists but its scene cannot be written in the asked format."""

    status_code = status.HTTP_409_CONFLICT
    default_detail = "The scene cannot be exported."
    default_code = "unexportable"


class SceneView(APIView):
    @extend_schema(responses=SceneSerializer, summary="The current revision's scene")
    def get(self, request: Request, workspace_id: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        revision = selectors.revision_current(workspace=workspace)
        if revision is None:
            raise NotFound("no scene yet")
        return Response(SceneSerializer(revision).data)


class RevisionListView(APIView):
    @extend_schema(responses=RevisionSummarySerializer(many=True), summary="Every revision")
    def get(self, request: Request, workspace_id: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        revisions = selectors.revision_list(workspace=workspace)
        return Response(RevisionSummarySerializer(revisions, many=True).data)

    @extend_schema(
        request=REVISION_CREATE_SCHEMA,
        responses={201: RevisionSerializer},
        summary="Store an edited scene as the next revision",
    )
    def post(self, request: Request, workspace_id: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        data = request.data if isinstance(request.data, dict) else {}
        scene = data.get("scene")
        if not isinstance(scene, dict):
            raise BadRequest('send {"scene": {...}}: the whole scene as a JSON object')
        try:
            revision = revision_edit(
                workspace=workspace, scene=scene, description=data.get("source")
            )
        except SceneError as error:
            raise BadRequest(str(error)) from error
        return Response(RevisionSerializer(revision).data, status=status.HTTP_201_CREATED)


class RevisionDetailView(APIView):
    @extend_schema(responses=RevisionSerializer, summary="One revision: its scene and report")
    def get(self, request: Request, workspace_id: str, number: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        return Response(RevisionSerializer(revision_or_404(workspace, number)).data)


class RevisionRevertView(APIView):
    @extend_schema(
        request=None,
        responses={201: RevisionSerializer},
        summary="Make this revision's scene current again, as a new revision",
    )
    def post(self, request: Request, workspace_id: str, number: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        try:
            revision = revision_revert(workspace=workspace, number=int(number))
        except RevisionError as error:
            raise NotFound(str(error)) from error
        return Response(RevisionSerializer(revision).data, status=status.HTTP_201_CREATED)


class _AnyAccept(DefaultContentNegotiation):
    """Files are served whatever the Accept header says; errors are JSON."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, str(renderer.media_type)


class RevisionExportView(APIView):
    content_negotiation_class = _AnyAccept

    @extend_schema(
        responses={
            (200, "model/gltf-binary"): OpenApiTypes.BINARY,
            (200, "application/zip"): OpenApiTypes.BINARY,
            (200, "model/stl"): OpenApiTypes.BINARY,
            (200, "image/png"): OpenApiTypes.BINARY,
            302: OpenApiResponse(description="S3 storage: a short-lived presigned URL"),
        },
        summary="The revision as GLB, OBJ + MTL (zip), STL, or its render (PNG)",
        operation_id="studio_revision_export",
    )
    def get(self, request: Request, workspace_id: str, number: str, fmt: str) -> HttpResponseBase:
        workspace = studio_workspace(request, workspace_id)
        revision = revision_or_404(workspace, number)
        kind = exports.FORMATS[fmt]
        filename = exports.export_filename(revision, fmt)
        try:
            name = exports.revision_export_name(revision, fmt)
            url = presigned_url(name, filename=filename, content_type=kind.content_type)
            data = b"" if url else exports.revision_export(revision, fmt)
        except exports.NoRender as error:
            raise NotFound(str(error)) from error
        except SceneError as error:
            raise Unexportable(
                f"revision {revision.number} cannot be exported as {fmt.upper()}: {error}"
            ) from error
        if url is not None:  # S3: the bytes come straight from the bucket
            return HttpResponseRedirect(url)
        response = HttpResponse(data, content_type=kind.content_type)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        response["Cache-Control"] = "private, max-age=3600"  # a revision never changes
        return response


class RevisionThumbnailView(APIView):
    content_negotiation_class = _AnyAccept

    @extend_schema(
        responses={(200, "image/png"): OpenApiTypes.BINARY},
        summary="The revision's thumbnail (the history strip's small render)",
    )
    def get(self, request: Request, workspace_id: str, number: str) -> HttpResponse:
        workspace = studio_workspace(request, workspace_id)
        revision = revision_or_404(workspace, number)
        try:
            data = exports.revision_thumbnail(revision)
        except exports.NoRender as error:
            raise NotFound(str(error)) from error
        response = HttpResponse(data, content_type="image/png")
        response["Cache-Control"] = "private, max-age=3600"
        return response


class DiffView(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("a", int, required=True, description="The revision before."),
            OpenApiParameter("b", int, required=True, description="The revision after."),
        ],
        responses=DIFF_SCHEMA,
        summary="What changed from revision a to revision b",
    )
    def get(self, request: Request, workspace_id: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        a, b = (_revision_param(request, name) for name in ("a", "b"))
        found = {}
        for number in (a, b):
            revision = selectors.revision_get(workspace=workspace, number=number)
            if revision is None:
                raise BadRequest(f"no revision {number} in this workspace")
            found[number] = revision
        return Response(diff_scenes(found[a].scene, found[b].scene).to_dict())


class MaterialPresetsView(APIView):
    @extend_schema(
        responses=inline_serializer(
            "MaterialPreset",
            {
                "name": serializers.CharField(),
                "base_color": serializers.ListField(child=serializers.FloatField()),
                "metallic": serializers.FloatField(),
                "roughness": serializers.FloatField(),
                "emissive": serializers.ListField(child=serializers.FloatField()),
                "opacity": serializers.FloatField(),
            },
            many=True,
        ),
        summary="The named material presets (wood, gold, glass...) an object's material can use",
    )
    def get(self, request: Request) -> Response:
        return Response([asdict(material) for material in PRESETS.values()])


class MeshUploadView(APIView):
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        request={
            "multipart/form-data": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }
        },
        responses={201: MeshSerializer},
        summary="Upload a mesh (GLB, glTF, OBJ, STL, PLY) for mesh shapes to use by its ref",
    )
    def post(self, request: Request, workspace_id: str) -> Response:
        workspace = studio_workspace(request, workspace_id)
        upload = request.FILES.get("file")
        if upload is None:
            raise BadRequest("upload the mesh file as multipart form field 'file'")
        filename = upload.name or ""
        too_big = exports.upload_too_big(filename, upload.size or 0)
        if too_big is not None:
            raise BadRequest(str(too_big))
        check_stored_bytes(user=workspace.owner, adding=upload.size or 0)  # 403 past the quota
        try:
            mesh = exports.mesh_upload(workspace=workspace, data=upload.read(), filename=filename)
        except SceneError as error:  # MeshImportError is one
            raise BadRequest(str(error)) from error
        return Response(MeshSerializer(mesh).data, status=status.HTTP_201_CREATED)


# --- helpers -----------------------------------------------------------------------------------


def studio_workspace(request: Request, workspace_id: str) -> Workspace:
    """The caller's workspace, which must be a studio one; another user's does not exist."""
    workspace = (
        agent_selectors.workspace_list(user=request.user).filter(pk=int(workspace_id)).first()
    )
    if workspace is None:
        raise NotFound("No such workspace.")
    if workspace.kind != Workspace.Kind.STUDIO:
        raise NotFound(
            f"Workspace {workspace.pk} is a {workspace.get_kind_display()} workspace; "
            "scenes live in studio workspaces."
        )
    return workspace


def revision_or_404(workspace: Workspace, number: str) -> SceneRevision:
    revision = selectors.revision_get(workspace=workspace, number=int(number))
    if revision is None:
        raise NotFound(f"no revision {number} in this workspace")
    return revision


def _revision_param(request: Request, name: str) -> int:
    raw = request.query_params.get(name, "")
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_REVISION_NUMBER:
        raise BadRequest(f"{name} must be a revision number (e.g. ?a=1&b=3), not {raw!r}")
    return int(raw)
