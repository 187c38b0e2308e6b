"""REST representations of workspaces, runs, events and artifacts."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from agents.models import Artifact, Event, Run, Workspace
from agents.services.runs import MAX_PROMPT_CHARS, PROMPT_TOO_LONG


class WorkspaceSerializer(serializers.ModelSerializer[Workspace]):
    class Meta:
        model = Workspace
        fields = ["id", "name", "kind", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {"name": {"max_length": 200, "allow_blank": False}}


class RunCreateSerializer(serializers.Serializer[Any]):
    workspace = serializers.IntegerField(min_value=1)
    prompt = serializers.CharField(
        max_length=MAX_PROMPT_CHARS,
        trim_whitespace=True,
        error_messages={"max_length": PROMPT_TOO_LONG},
        help_text=f"The request, at most {MAX_PROMPT_CHARS} characters.",
    )
    options = serializers.DictField(required=False, default=dict)


class RunSerializer(serializers.ModelSerializer[Run]):
    workspace = serializers.IntegerField(source="workspace_id", read_only=True)
    events_url = serializers.SerializerMethodField()
    trajectory_url = serializers.SerializerMethodField()

    class Meta:
        model = Run
        fields = [
            "id",
            "workspace",
            "prompt",
            "options",
            "budget",
            "status",
            "message",
            "result",
            "cancel_requested",
            "last_seq",
            "created_at",
            "started_at",
            "finished_at",
            "reward",
            "events_url",
            "trajectory_url",
        ]
        read_only_fields = fields

    def get_events_url(self, run: Run) -> str:
        return reverse("api-run-events", args=[run.pk])

    def get_trajectory_url(self, run: Run) -> str:
        return reverse("api-run-trajectory", args=[run.pk])


class EventSerializer(serializers.ModelSerializer[Event]):
    class Meta:
        model = Event
        fields = ["seq", "type", "ts", "payload"]
        read_only_fields = fields


class EventPageSerializer(serializers.Serializer[Any]):
    results = EventSerializer(many=True)
    next = serializers.CharField(allow_null=True)


class ArtifactSerializer(serializers.ModelSerializer[Artifact]):
    download_url = serializers.SerializerMethodField()

    class Meta:
        model = Artifact
        fields = ["id", "ref", "kind", "name", "media_type", "size", "metadata", "created_at"]
        fields += ["download_url"]
        read_only_fields = fields

    def get_download_url(self, artifact: Artifact) -> str:
        return reverse("api-artifact-download", args=[artifact.run_id, artifact.pk])


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "enum": [1, -1]},
            {"type": "string", "enum": ["up", "down"]},
        ],
        "description": "Thumbs up (1 or 'up') or down (-1 or 'down').",
    }
)
class RatingField(serializers.Field[Any, Any, Any, Any]):
    """Accepts 1, -1, "up" or "down"; the service checks the value."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class FeedbackInputSerializer(serializers.Serializer[Any]):
    rating = RatingField()
    comment = serializers.CharField(
        required=False, allow_blank=True, default="", max_length=2000, trim_whitespace=True
    )


class FeedbackSerializer(serializers.Serializer[Any]):
    """The caller's feedback on a run; `rating` is null when they have not rated it."""

    run = serializers.IntegerField()
    rating = serializers.IntegerField(allow_null=True)
    comment = serializers.CharField(allow_blank=True)
    updated_at = serializers.DateTimeField(allow_null=True)


class TrajectoryRewardSerializer(serializers.Serializer[Any]):
    verifiers = serializers.FloatField(allow_null=True, help_text="The verifiers' reward, 0-1.")
    user = serializers.FloatField(allow_null=True, help_text="Mean rating of people, -1 to 1.")
    feedback = serializers.ListField(child=serializers.DictField())


class TrajectorySerializer(serializers.Serializer[Any]):
    """One run as a training record (one line of `export_trajectories`)."""

    messages = serializers.ListField(
        child=serializers.DictField(),
        help_text="OpenAI chat messages: system, user, assistant (with tool_calls), tool.",
    )
    tools = serializers.ListField(
        child=serializers.DictField(), help_text="OpenAI tool schemas the run could call."
    )
    reward = TrajectoryRewardSerializer()
    signals = serializers.ListField(
        child=serializers.DictField(),
        help_text="Step signals: tool_call (ok, duration_ms, error), round, sub_question.",
    )
    metadata = serializers.DictField(
        help_text="run_id, workspace_kind, policy, model, status, steps, tokens, timings, "
        "evaluation, repairs."
    )
