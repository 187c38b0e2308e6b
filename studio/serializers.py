"""The studio API's representations: revisions, scenes and uploaded meshes as JSON, and the
schemas of its request bodies."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from studio.models import SceneRevision, UploadedMesh
from studio.user_edits import MAX_EXPORT_BYTES, MAX_OBJECTS, MAX_SOURCE_CHARS, MAX_TRIANGLES


class RevisionSummarySerializer(serializers.ModelSerializer[SceneRevision]):
    run = serializers.IntegerField(source="run_id", read_only=True, allow_null=True)
    passed = serializers.SerializerMethodField()
    checks_passed = serializers.SerializerMethodField()
    checks_total = serializers.SerializerMethodField()
    thumbnail_url = serializers.SerializerMethodField()
    render_url = serializers.SerializerMethodField()

    class Meta:
        model = SceneRevision
        fields = [
            "number",
            "source",
            "run",
            "created_at",
            "passed",
            "checks_passed",
            "checks_total",
            "thumbnail_url",
            "render_url",
        ]
        read_only_fields = fields

    def get_passed(self, revision: SceneRevision) -> bool | None:
        """The round's verdict: the report's `passed`, else whether all its checks passed; null
        for a revision without checks (an edit, a revert of one)."""
        report = _report(revision)
        if isinstance(report.get("passed"), bool):
            return bool(report["passed"])
        results = _check_results(report)
        return all(results) if results else None

    def get_checks_passed(self, revision: SceneRevision) -> int:
        return sum(1 for passed in _check_results(_report(revision)) if passed)

    def get_checks_total(self, revision: SceneRevision) -> int:
        return len(_check_results(_report(revision)))

    def get_thumbnail_url(self, revision: SceneRevision) -> str | None:
        """The small render for the history strip; null where the revision has none."""
        if not revision.thumbnail:
            return None
        return reverse(
            "studio-revision-thumbnail",
            kwargs={"workspace_id": revision.workspace_id, "number": revision.number},
        )

    def get_render_url(self, revision: SceneRevision) -> str | None:
        """The 1024 x 768 render (PNG export); null where the revision was never rendered."""
        return export_url(revision, "png") if revision.thumbnail else None


class RevisionSerializer(RevisionSummarySerializer):
    scene = serializers.JSONField(read_only=True)
    report = serializers.JSONField(read_only=True)

    class Meta(RevisionSummarySerializer.Meta):
        fields = [*RevisionSummarySerializer.Meta.fields, "scene", "report"]
        read_only_fields = fields


class SceneSerializer(serializers.ModelSerializer[SceneRevision]):
    scene = serializers.JSONField(read_only=True)

    class Meta:
        model = SceneRevision
        fields = ["number", "source", "created_at", "scene"]
        read_only_fields = fields


REVISION_CREATE_SCHEMA = inline_serializer(
    "RevisionCreate",
    {
        "scene": serializers.JSONField(
            help_text=f"The whole scene, as GET revisions/{{n}} returns it: at most {MAX_OBJECTS} "
            f"objects, {MAX_TRIANGLES:,} triangles and a {MAX_EXPORT_BYTES // 2**20} MB GLB "
            "export."
        ),
        "source": serializers.CharField(
            required=False,
            max_length=MAX_SOURCE_CHARS,
            help_text='What the edit did, e.g. "edit: moved chair", "edit: deleted lamp"; '
            'stored as the revision\'s source ("edit: " is added where missing, "edit" alone '
            "when omitted).",
        ),
    },
)


class MeshSerializer(serializers.ModelSerializer[UploadedMesh]):
    ref = serializers.CharField(read_only=True)
    bounds = serializers.SerializerMethodField()
    format = serializers.SerializerMethodField()
    watertight = serializers.SerializerMethodField()
    units_guess = serializers.SerializerMethodField()
    scale_to_metres = serializers.SerializerMethodField()

    class Meta:
        model = UploadedMesh
        fields = [
            "id",
            "ref",
            "name",
            "faces",
            "vertices",
            "bounds",
            "format",
            "watertight",
            "units_guess",
            "scale_to_metres",
            "created_at",
        ]
        read_only_fields = fields

    def get_bounds(self, mesh: UploadedMesh) -> list[list[float]] | None:
        bounds = mesh.metadata.get("bounds")
        return bounds if isinstance(bounds, list) else None

    def get_format(self, mesh: UploadedMesh) -> str:
        return str(mesh.metadata.get("format", ""))

    def get_watertight(self, mesh: UploadedMesh) -> bool:
        return bool(mesh.metadata.get("watertight", False))

    def get_units_guess(self, mesh: UploadedMesh) -> str:
        return str(mesh.metadata.get("units_guess", "m"))

    def get_scale_to_metres(self, mesh: UploadedMesh) -> float:
        return float(mesh.metadata.get("scale_to_metres", 1.0))


DIFF_SCHEMA = inline_serializer(
    "SceneDiff",
    {
        "added": serializers.ListField(child=serializers.CharField()),
        "removed": serializers.ListField(child=serializers.CharField()),
        "changed": serializers.DictField(
            help_text='object name (or "lights:<name>", "camera", "scene") -> field path -> '
            "{before, after}"
        ),
    },
)


def export_url(revision: SceneRevision, fmt: str) -> str:
    return reverse(
        "studio-revision-export",
        kwargs={"workspace_id": revision.workspace_id, "number": revision.number, "fmt": fmt},
    )


# --- views -------------------------------------------------------------------------------------


def _report(revision: SceneRevision) -> dict[str, Any]:
    return revision.report if isinstance(revision.report, dict) else {}


def _check_results(report: dict[str, Any]) -> list[bool]:
    checks = report.get("checks")
    if not isinstance(checks, dict):
        return []
    return [
        bool(check.get("passed"))
        for check in checks.values()
        if isinstance(check, dict) and "passed" in check
    ]
