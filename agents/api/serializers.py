"""REST representations of workspaces, runs, events and artifacts."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from agents.models import Artifact, Event, Run, Workspace


class WorkspaceSerializer(serializers.ModelSerializer[Workspace]):
    class Meta:
        model = Workspace
        fields = ["id", "name", "kind", "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {"name": {"max_length": 200, "allow_blank": False}}


class RunCreateSerializer(serializers.Serializer[Any]):
    workspace = serializers.IntegerField(min_value=1)
    prompt = serializers.CharField(max_length=20_000, trim_whitespace=True)
    options = serializers.DictField(required=False, default=dict)


class RunSerializer(serializers.ModelSerializer[Run]):
    workspace = serializers.IntegerField(source="workspace_id", read_only=True)
    events_url = serializers.SerializerMethodField()

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
            "events_url",
        ]
        read_only_fields = fields

    def get_events_url(self, run: Run) -> str:
        return reverse("api-run-events", args=[run.pk])


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
