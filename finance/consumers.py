"""`ws/finance/workspaces/<id>/documents/`: ingestion progress of a workspace's documents.

The document rows are the truth: on connect the consumer sends each processing document's state,
then forwards pushed `document.progress` events and, because a push may never arrive (no shared
channel layer between worker and web process), re-reads the workspace's rows and sends every
state it has not sent: a document uploaded after connecting whose ingestion ended between two
reads (a re-upload of known bytes is a cache hit, over in milliseconds) is sent as ready too.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async

from agents.consumer_base import CLOSE_NOT_FOUND, CLOSE_UNAUTHENTICATED, GroupTailConsumer
from agents.models import Workspace
from finance.models import Document
from finance.services.progress import documents_group, progress_event

State = tuple[float, str, str]


class DocumentProgressConsumer(GroupTailConsumer):
    workspace_id: int

    async def connect(self) -> None:
        self.sent: dict[int, State] = {}
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_UNAUTHENTICATED, "authentication required")
            return
        self.workspace_id = int(self.scope["url_route"]["kwargs"]["workspace_id"])
        if not await _owns_finance_workspace(user, self.workspace_id):
            await self.refuse(CLOSE_NOT_FOUND, "workspace not found")
            return
        await self.accept()
        await self.subscribe(documents_group(self.workspace_id))
        for event in await _events(self.workspace_id):
            if event["status"] == Document.Status.PROCESSING:
                await self.forward(event)
            else:  # known to the page already (it rendered them): only remembered
                self.sent[int(event["document"])] = _state(event)
        self.tail = asyncio.create_task(self.tail_rows())

    async def document_progress(self, event: dict[str, Any]) -> None:
        """Pushed by the worker: forward it unless the same state was already sent."""
        await self.forward(event)

    async def forward(self, event: dict[str, Any]) -> None:
        state = _state(event)
        if self.sent.get(int(event["document"])) == state:
            return
        self.sent[int(event["document"])] = state
        await self.send_json(event)

    async def send_changed(self) -> None:
        """Every document whose state differs from the last one sent (new ones included)."""
        for event in await _events(self.workspace_id):
            await self.forward(event)

    async def tail_rows(self) -> None:
        while True:
            await self.next_poll()
            await self.send_changed()


def _state(event: dict[str, Any]) -> State:
    return (float(event["progress"]), str(event["message"]), str(event["status"]))


@database_sync_to_async
def _owns_finance_workspace(user: Any, workspace_id: int) -> bool:
    return Workspace.objects.filter(
        pk=workspace_id, owner_id=user.pk, kind=Workspace.Kind.FINANCE
    ).exists()


@database_sync_to_async
def _events(workspace_id: int) -> list[dict[str, Any]]:
    """The `document.progress` event of each of the workspace's documents as its row is now."""
    rows = Document.objects.filter(workspace_id=workspace_id).only(
        "id", "workspace_id", "progress", "message", "status"
    )
    return [progress_event(document) for document in rows.order_by("pk")]
