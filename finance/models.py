"""Documents a person uploads to a finance workspace, and the research notes written from them."""

from __future__ import annotations

from django.db import models

from agents.models import Run, Workspace


class Document(models.Model):
    """An uploaded filing. Parsing runs in the background; `status` and `progress` say how far."""

    class Status(models.TextChoices):
        PROCESSING = "processing", "Processing"
        READY = "ready", "Ready"
        FAILED = "failed", "Failed"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=255)
    file = models.FileField(upload_to="finance/documents/", max_length=400, blank=True)
    sha256 = models.CharField(max_length=64)
    kind = models.CharField(max_length=10, default="pdf")
    pages = models.PositiveIntegerField(default=0)
    company = models.CharField(max_length=200, blank=True)
    title = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.READY)
    progress = models.FloatField(default=1.0, help_text="0..1 while processing.")
    message = models.CharField(
        max_length=500, blank=True, help_text="What ingestion is doing, or why it failed."
    )
    sections = models.JSONField(default=dict, blank=True)
    statements = models.JSONField(null=True, blank=True, help_text="Canonical statements, once.")
    created_at = models.DateTimeField(auto_now_add=True)
    # Ingestion's bookkeeping (finance/services/rescue.py): when it was last sent to the workers,
    # when a worker last said it is still reading it, and how many times a worker began it.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "sha256"], name="document_once_per_workspace"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.pages} pages)"


class Note(models.Model):
    """A research note: structured blocks (see `finance.note.model`) rendered to HTML/MD/PDF."""

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="notes")
    run = models.ForeignKey(Run, on_delete=models.SET_NULL, null=True, blank=True)
    title = models.CharField(max_length=300)
    body = models.JSONField(help_text="The note as `finance.note.model.Note.to_dict()`.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.title
