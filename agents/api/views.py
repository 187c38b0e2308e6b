"""REST API: thin views that validate, call one service or selector, and return."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.throttling import BaseThrottle

from agents import selectors
from agents.api.renderers import TRAJECTORY_RENDERERS
from agents.api.serializers import (
    ArtifactSerializer,
    EventPageSerializer,
    EventSerializer,
    FeedbackInputSerializer,
    FeedbackSerializer,
    RunCreateSerializer,
    RunSerializer,
    TrajectorySerializer,
    WorkspaceSerializer,
)
from agents.models import Run, RunFeedback, Workspace
from agents.services.feedback import FeedbackError, RunNotFinished, feedback_of, feedback_set
from agents.services.options import OptionsError
from agents.services.runs import RunInputError, run_cancel, run_create
from agents.services.workspaces import workspace_create
from agents.storage_files import stored_file_response
from agents.trajectories.build import run_trajectory
from config.api_errors import LimitErrorSerializer


class RunStillActive(APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = "The run has not finished yet."
    default_code = "run_active"


class WorkspaceViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Workspace],
):
    serializer_class = WorkspaceSerializer

    def get_queryset(self) -> QuerySet[Workspace]:
        return selectors.workspace_list(user=self.request.user)

    def perform_create(self, serializer: BaseSerializer[Workspace]) -> None:
        data = serializer.validated_data
        serializer.instance = workspace_create(
            owner=self.request.user,  # type: ignore[arg-type]
            name=data["name"],
            kind=data["kind"],
        )


class RunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Run]):
    serializer_class = RunSerializer

    def get_throttles(self) -> list[BaseThrottle]:
        # Starting runs has its own rate (THROTTLE_RUN_CREATE) on top of the per-user one.
        self.throttle_scope = "run_create" if self.action == "create" else ""
        return super().get_throttles()

    def get_queryset(self) -> QuerySet[Run]:
        runs = selectors.run_list(user=self.request.user)
        workspace = self.request.query_params.get("workspace")
        if workspace is not None and self.action == "list":
            if not (workspace.isascii() and workspace.isdigit()) or int(workspace) >= 2**63:
                raise ValidationError({"workspace": "must be a workspace id"})
            runs = runs.filter(workspace_id=int(workspace))
        return runs

    @extend_schema(
        request=RunCreateSerializer,
        responses={
            201: RunSerializer,
            403: OpenApiResponse(
                LimitErrorSerializer, description="Over the tokens-per-run or stored-bytes quota."
            ),
            429: OpenApiResponse(
                LimitErrorSerializer,
                description="Too many runs at once or this hour (`quota`, `limit`, `retry_after`)"
                ", or too many requests.",
            ),
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        payload = RunCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        workspace = selectors.workspace_list(user=request.user).filter(pk=data["workspace"]).first()
        if workspace is None:
            raise ValidationError({"workspace": f"no workspace {data['workspace']}"})
        try:
            run = run_create(workspace=workspace, prompt=data["prompt"], options=data["options"])
        except OptionsError as error:
            raise ValidationError({"options": str(error)}) from error
        except RunInputError as error:
            raise ValidationError({"prompt": str(error)}) from error
        return Response(RunSerializer(run).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Only events with seq > after."),
            OpenApiParameter("limit", int, description="At most this many (1-500)."),
        ],
        responses=EventPageSerializer,
    )
    @action(detail=True, methods=["get"], url_path="events", url_name="events")
    def events(self, request: Request, pk: str | None = None) -> Response:
        run = self.get_object()
        after = _int_param(request, "after", 0, 0, 2**31)
        limit = _int_param(request, "limit", 500, 1, 500)
        page = selectors.events_after(run_id=run.pk, after=after, limit=limit)
        more = len(page) == limit and page[-1].seq < run.last_seq
        next_url = None
        if more:
            next_url = request.build_absolute_uri(
                f"{request.path}?after={page[-1].seq}&limit={limit}"
            )
        return Response({"results": EventSerializer(page, many=True).data, "next": next_url})

    @extend_schema(request=None, responses={202: RunSerializer})
    @action(detail=True, methods=["post"], url_path="cancel", url_name="cancel")
    def cancel(self, request: Request, pk: str | None = None) -> Response:
        run = run_cancel(run=self.get_object())
        return Response(RunSerializer(run).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses=ArtifactSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="artifacts", url_name="artifacts")
    def artifacts(self, request: Request, pk: str | None = None) -> Response:
        run = self.get_object()
        items = selectors.artifact_list(run=run)
        return Response(ArtifactSerializer(items, many=True).data)

    @extend_schema(
        responses={
            (200, "application/octet-stream"): bytes,
            302: OpenApiResponse(description="S3 storage: a short-lived presigned URL"),
        }
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"artifacts/(?P<artifact_id>\d+)/download",
        url_name="artifact-download",
    )
    def download(self, request: Request, pk: str | None = None, artifact_id: str = "") -> Any:
        run = self.get_object()
        artifact = selectors.artifact_list(run=run).filter(pk=int(artifact_id)).first()
        if artifact is None:
            raise Http404("No such artifact.")
        return stored_file_response(
            artifact.file, filename=artifact.name, content_type=artifact.media_type
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "format",
                str,
                enum=["json", "jsonl"],
                description="jsonl: one JSON line, downloaded (or Accept: application/x-ndjson)",
            )
        ],
        responses={
            200: TrajectorySerializer,
            409: OpenApiResponse(description="The run has not finished yet."),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="trajectory",
        url_name="trajectory",
        renderer_classes=TRAJECTORY_RENDERERS,
    )
    def trajectory(self, request: Request, pk: str | None = None) -> Response:
        """The finished run as a training record: chat messages, tools, rewards, signals."""
        run = self.get_object()
        if run.is_active:
            raise RunStillActive(f"run {run.pk} is {run.status}: its trajectory is not complete")
        response = Response(run_trajectory(run))
        if request.accepted_renderer.format == "jsonl":
            filename = f"run-{run.pk}-trajectory.jsonl"
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    @extend_schema(
        methods=["GET"],
        summary="The caller's feedback on the run (rating null when none)",
        request=None,
        responses=FeedbackSerializer,
    )
    @extend_schema(
        methods=["POST"],
        summary="Rate a finished run: thumbs up or down, with an optional comment",
        request=FeedbackInputSerializer,
        responses={
            200: FeedbackSerializer,
            201: FeedbackSerializer,
            409: OpenApiResponse(description="The run has not finished yet."),
        },
    )
    @action(detail=True, methods=["get", "post"], url_path="feedback", url_name="feedback")
    def feedback(self, request: Request, pk: str | None = None) -> Response:
        """The caller's thumbs up or down on a finished run; a second POST replaces the first."""
        run = self.get_object()
        user = request.user
        if not isinstance(user, AbstractBaseUser):  # IsAuthenticated lets no one else through
            raise NotAuthenticated()
        if request.method == "GET":
            return Response(_feedback_data(run, feedback_of(run=run, user=user)))
        payload = FeedbackInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            item, created = feedback_set(
                run=run,
                user=user,
                rating=payload.validated_data["rating"],
                comment=payload.validated_data["comment"],
            )
        except RunNotFinished as error:
            raise RunStillActive(str(error)) from error
        except FeedbackError as error:
            raise ValidationError({"rating": str(error)}) from error
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(_feedback_data(run, item), status=code)


def _feedback_data(run: Run, item: RunFeedback | None) -> dict[str, Any]:
    return {
        "run": run.pk,
        "rating": item.rating if item else None,
        "comment": item.comment if item else "",
        "updated_at": item.updated_at if item else None,
    }


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValidationError({name: "must be an integer"}) from None
    if not low <= value <= high:
        raise ValidationError({name: f"must be between {low} and {high}"})
    return value
