"""The workspace and documents a tool call works on."""

from __future__ import annotations

from agents.models import Run, Workspace
from agents.runtime import ToolContext, ToolError
from finance.models import Document


def run_of(context: ToolContext) -> Run:
    value = context.options.get("run_id")
    if not isinstance(value, int):
        raise ToolError("finance tools run inside a run")
    return Run.objects.select_related("workspace").get(pk=value)


def workspace_of(context: ToolContext) -> Workspace:
    return run_of(context).workspace


def document_of(context: ToolContext, document_id: int) -> Document:
    workspace = workspace_of(context)
    document = Document.objects.filter(workspace=workspace, pk=document_id).first()
    if document is None:
        known = list(Document.objects.filter(workspace=workspace).values_list("pk", "name")[:20])
        listed = ", ".join(f"{pk} ({name})" for pk, name in known) or "none uploaded yet"
        raise ToolError(f"no document {document_id} in this workspace; documents: {listed}")
    if document.status != Document.Status.READY:
        raise ToolError(
            f"document {document_id} ({document.name}) is {document.status}"
            + (f": {document.message}" if document.message else "")
        )
    return document
