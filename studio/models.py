"""Scene revisions (one per agent round or user edit) and meshes people upload."""

from __future__ import annotations

from django.db import models

from agents.models import Run, Workspace


class SceneRevision(models.Model):
    """A whole scene as it stood after a round or an edit; the source of truth for geometry."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="revisions")
    run = models.ForeignKey(
        Run, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions"
    )
    number = models.PositiveIntegerField()
    scene = models.JSONField()
    source = models.CharField(max_length=200, help_text='e.g. "round 2", "edit", "revert to 3"')
    report = models.JSONField(default=dict, blank=True, help_text="Check results of the round.")
    thumbnail = models.FileField(upload_to="studio/thumbnails/", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["workspace", "number"]
        constraints = [
            models.UniqueConstraint(fields=["workspace", "number"], name="revision_number_unique")
        ]

    def __str__(self) -> str:
        return f"{self.workspace_id} r{self.number} ({self.source})"


class UploadedMesh(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="meshes")
    name = models.CharField(max_length=200)
    file = models.FileField(upload_to="studio/meshes/")
    faces = models.PositiveIntegerField()
    vertices = models.PositiveIntegerField()
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.faces} faces)"

    @property
    def ref(self) -> str:
        return f"mesh:{self.pk}"


class WorkingScene(models.Model):
    """The scene a run is editing between rounds (each round stores a SceneRevision of it)."""

    run = models.OneToOneField(Run, on_delete=models.CASCADE, related_name="working_scene")
    scene = models.JSONField()
    rounds = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"working scene of run {self.run_id}"
