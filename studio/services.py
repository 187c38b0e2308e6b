"""Writes on scene revisions: record a round, a person's edit, or a revert to an earlier one.

Every revision a person makes (an edit, a revert) is checked and rendered like an agent round:
its report holds the checks, it has a 1024 x 768 render and a thumbnail for the history strip.
The building and rendering run in a bounded child, never in the web process.
"""

from __future__ import annotations

from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max

from agents.models import Run, Workspace
from studio import exports, scene_work
from studio.models import SceneRevision
from studio.scene.model import Scene, scene_from_dict
from studio.user_edits import check_estimate, edit_source


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
    render_png: bytes | None = None,
) -> SceneRevision:
    """Store the scene as the workspace's next revision (numbers are 1, 2, 3... per workspace);
    `render_png` is its full-size render, served as the PNG export."""
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
        if render_png:
            exports.export_store(revision, "png", render_png)
    return revision


def revision_edit(
    *, workspace: Workspace, scene: dict[str, Any], description: Any = None
) -> SceneRevision:
    """Validate a person's edited scene, check it as a round would, and store it.

    The scene's size is estimated here, before anything is built; the build, the render and the
    checks run in a bounded child (`studio.scene_work`). SceneError (CapExceeded among them)
    says what is wrong; nothing is stored then."""
    source = edit_source(description)
    valid = scene_from_dict(scene)
    exports.check_mesh_refs(workspace, scene)
    faces = exports.scene_mesh_faces(workspace, scene)
    check_estimate(valid, mesh_faces=lambda ref: faces[ref.strip()])
    checked = scene_work.edit_checked(workspace, valid.to_dict(), mesh_faces=faces)
    revision = revision_create(
        workspace=workspace,
        scene=valid,
        source=source,
        report=checked.report,
        thumbnail_png=checked.thumbnail,
        render_png=checked.png,
    )
    exports.export_store(revision, "glb", checked.glb)
    return revision


def revision_revert(*, workspace: Workspace, number: int) -> SceneRevision:
    """Make the scene of revision `number` current again, as a new revision."""
    old = SceneRevision.objects.filter(workspace=workspace).filter(number=number).first()
    if old is None:
        raise RevisionError(f"no revision {number} in this workspace")
    thumbnail = exports.revision_thumbnail(old) if old.thumbnail else None
    try:
        render = exports.revision_export(old, "png") if thumbnail else None
    except exports.NoRender:
        render = None
    report = old.report
    if not thumbnail or not render:  # an old revision never rendered: render and check it now
        checked = scene_work.edit_checked(
            workspace,
            old.scene,
            mesh_faces=exports.scene_mesh_faces(workspace, old.scene),
            check_caps=False,
        )
        thumbnail, render = checked.thumbnail or None, checked.png or None
        report = old.report or checked.report
    return revision_create(
        workspace=workspace,
        scene=old.scene,
        source=f"revert to {number}",
        report=report,
        thumbnail_png=thumbnail,
        render_png=render,
    )
