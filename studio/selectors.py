"""Reads on scene revisions, scoped to a workspace the caller has already checked."""

from __future__ import annotations

from django.db.models import QuerySet

from agents.models import Workspace
from studio.models import SceneRevision


def revision_list(*, workspace: Workspace) -> QuerySet[SceneRevision]:
    return SceneRevision.objects.filter(workspace=workspace).order_by("number")


def revision_get(*, workspace: Workspace, number: int) -> SceneRevision | None:
    return SceneRevision.objects.filter(workspace=workspace).filter(number=number).first()


def revision_current(*, workspace: Workspace) -> SceneRevision | None:
    return SceneRevision.objects.filter(workspace=workspace).order_by("-number").first()
