"""The scene a run works on: loaded and saved around every tool call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import trimesh

from agents.models import Run
from agents.runtime import ToolContext, ToolError
from studio.exports import mesh_face_counts
from studio.exports import mesh_resolver as workspace_mesh_resolver
from studio.models import WorkingScene
from studio.scene.model import Scene, SceneError, scene_from_dict
from studio.selectors import revision_current
from studio.user_edits import check_estimate

T = TypeVar("T")


def run_id(context: ToolContext) -> int:
    value = context.options.get("run_id")
    if not isinstance(value, int):
        raise ToolError("studio tools run inside a run")
    return value


def load(context: ToolContext) -> Scene:
    """The run's working scene; a new run starts from the workspace's current revision."""
    working = WorkingScene.objects.filter(run_id=run_id(context)).first()
    if working is not None:
        return scene_from_dict(working.scene)
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    current = revision_current(workspace=run.workspace)
    return scene_from_dict(current.scene) if current else Scene()


def save(context: ToolContext, scene: Scene, **fields: Any) -> None:
    """Store the run's working scene; ToolError (nothing stored) when it is over the caps, so
    no later round renders or exports a scene a person could not have made."""
    check_budget(context, scene)
    WorkingScene.objects.update_or_create(
        run_id=run_id(context), defaults={"scene": scene.to_dict(), **fields}
    )


def rounds_done(context: ToolContext) -> int:
    working = WorkingScene.objects.filter(run_id=run_id(context)).first()
    return working.rounds if working else 0


def mesh_resolver(context: ToolContext) -> Callable[[str], trimesh.Trimesh]:
    """Loads `mesh:<id>` refs of meshes uploaded to this run's workspace."""
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    return workspace_mesh_resolver(run.workspace)


def guarded(scene_change: Callable[[], T]) -> T:
    """Turn scene errors into tool errors the policy can read and correct."""
    try:
        return scene_change()
    except (SceneError, ValueError, KeyError) as error:
        raise ToolError(str(error).strip("'\"")) from error


def check_budget(context: ToolContext, scene: Scene) -> None:
    """ToolError when the scene, estimated before anything is built, is over the caps a
    person's edit has (objects, triangles, boolean work)."""
    run = Run.objects.select_related("workspace").get(pk=run_id(context))
    guarded(lambda: check_estimate(scene, mesh_faces=mesh_face_counts(run.workspace)))
