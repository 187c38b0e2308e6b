"""Writes on scene revisions: record a round or an edit, revert to an earlier revision."""

from __future__ import annotations

from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max

from agents.models import Run, Workspace
from studio.models import SceneRevision
from studio.scene.model import Scene, scene_from_dict


class RevisionError(ValueError):
    """A revision that cannot be made; the message says why."""


def revision_create(
    *,
    workspace: Workspace,
    scene: Scene | dict[str, Any],
    source: str,
    run: Run | None = None,
    report: dict[str, Any] | None = None,
    thumbnail_png: bytes | None = None,
) -> SceneRevision:
    """Store the scene as the workspace's next revision (numbers are 1, 2, 3... per workspace)."""
    valid = scene if isinstance(scene, Scene) else scene_from_dict(scene)
    with transaction.atomic():
        # Lock the workspace row so two writers never take the same number.
        Workspace.objects.select_for_update().filter(pk=workspace.pk).exists()
        latest = (
            SceneRevision.objects.filter(workspace=workspace).aggregate(top=Max("number"))["top"]
            or 0
        )
        revision = SceneRevision(
            workspace=workspace,
            run=run,
            number=latest + 1,
            scene=valid.to_dict(),
            source=source[:200],
            report=report or {},
        )
        if thumbnail_png:
            name = f"w{workspace.pk}-r{revision.number}.png"
            revision.thumbnail.save(name, ContentFile(thumbnail_png), save=False)
        revision.save()
    return revision


def revision_revert(*, workspace: Workspace, number: int) -> SceneRevision:
    """Make the scene of revision `number` current again, as a new revision."""
    old = SceneRevision.objects.filter(workspace=workspace).filter(number=number).first()
    if old is None:
        raise RevisionError(f"no revision {number} in this workspace")
    return revision_create(
        workspace=workspace, scene=old.scene, source=f"revert to {number}", report=old.report
    )
