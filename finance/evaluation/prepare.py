"""Laying a task's documents into its fresh workspace, as a person's upload would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.evaluation.inputs import shared_input
from agents.models import Workspace
from finance.services.documents import document_upload
from finance.services.ingestion import document_ingest


def prepare(workspace: Workspace, inputs: dict[str, Any]) -> dict[str, Any]:
    """Upload each of `inputs["documents"]` (paths under SHARED_DATA) and ingest it now.

    Ingestion is the service the Celery task calls, run in this process so the task's run
    starts with ready documents; its caches (by content hash) make a document seen before
    cost a JSON load. Returns {"documents": {name: id}}, the name being the file's stem.
    """
    documents: dict[str, int] = {}
    for relative in inputs.get("documents") or []:
        path = shared_input(str(relative))
        documents[Path(relative).stem] = _upload(workspace, path)
    return {"documents": documents}


def _upload(workspace: Workspace, path: Path) -> int:
    document, _ = document_upload(workspace=workspace, data=path.read_bytes(), filename=path.name)
    # A no-op when the upload's own task already ran inline (the harness runs tasks eagerly).
    document_ingest(document_id=document.pk)
    return document.pk
