"""Documents a person uploads to a finance workspace; parsed text and statements are derived."""

from __future__ import annotations

from django.db import models

from agents.models import Workspace


class Document(models.Model):
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="documents")
    name = models.CharField(max_length=255)
    file = models.FileField(upload_to="finance/documents/", max_length=400)
    sha256 = models.CharField(max_length=64)
    kind = models.CharField(max_length=10, default="pdf")
    pages = models.PositiveIntegerField()
    sections = models.JSONField(default=dict, blank=True)
    statements = models.JSONField(null=True, blank=True, help_text="Canonical statements, once.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["workspace", "sha256"], name="document_once_per_workspace"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.pages} pages)"
