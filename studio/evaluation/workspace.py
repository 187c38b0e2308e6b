"""The studio's side of a task's workspace: laying inputs in, what is already there, what a
task left (for the determinism check), and what the results depend on (library versions and the
renderer backend)."""

from __future__ import annotations

import os
from importlib import metadata
from typing import Any

from agents.evaluation.inputs import shared_input
from agents.evaluation.verdicts import VerifierContext
from agents.models import Workspace

LIBRARIES = ("trimesh", "pyrender", "PyOpenGL", "mujoco", "manifold3d", "numpy")
KEY_DECIMALS = 3
"""Millimetres: finer than any tolerance in the suite, coarse enough to be reproducible."""


def prepare(workspace: Workspace, inputs: dict[str, Any]) -> dict[str, Any]:
    """Upload a task's meshes (`inputs: {meshes: [studio/meshes/Duck.glb]}`, paths under the
    shared data folder) into its workspace; returns {"meshes": {"Duck": <upload id>}}."""
    from studio.exports import mesh_upload  # trimesh: only when an evaluation runs

    unknown = sorted(set(inputs) - {"meshes"})
    if unknown:
        raise ValueError(f"studio tasks take only 'meshes' as inputs, not {', '.join(unknown)}")
    uploaded: dict[str, int] = {}
    for relative in inputs.get("meshes") or []:
        path = shared_input(str(relative))
        mesh = mesh_upload(workspace=workspace, data=path.read_bytes(), filename=path.name)
        uploaded[path.stem] = mesh.pk
    return {"meshes": uploaded}


def leftovers(workspace: Workspace) -> list[str]:
    """Scene revisions and uploaded meshes already in the workspace (a fresh one has none)."""
    from studio.models import SceneRevision, UploadedMesh

    found = [
        f"scene revision {number} ({source})"
        for number, source in SceneRevision.objects.filter(workspace=workspace)
        .order_by("number")
        .values_list("number", "source")
    ]
    found += [
        f"uploaded mesh {name}"
        for name in UploadedMesh.objects.filter(workspace=workspace)
        .order_by("pk")
        .values_list("name", flat=True)
    ]
    return found


def key_outputs(context: VerifierContext) -> dict[str, Any]:
    """The final scene in brief: each object's size and centre (mm), the lights, the checks."""
    from studio.evaluation.result import ResultUnavailable, turn_scene

    try:
        result = turn_scene(context)
    except ResultUnavailable as error:
        return {"scene": None, "reason": str(error)}
    checks = result.report.get("checks") if isinstance(result.report, dict) else None
    return {
        "revision": result.revision_number,
        "built_this_turn": result.from_run,
        "objects": {
            item.name: {
                "size": [round(value, KEY_DECIMALS) for value in item.size],
                "at": [round(value, KEY_DECIMALS) for value in item.centre],
            }
            for item in result.scene.objects
        },
        "lights": sorted(f"{light.name}:{light.kind}" for light in result.scene.lights),
        "checks_passed": sorted(
            name for name, check in (checks or {}).items() if check.get("passed")
        ),
    }


def environment() -> dict[str, Any]:
    """Library versions and the OpenGL platform the renders (and so the checks) were made with."""
    versions: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return {"libraries": versions, "renderer": renderer_backend()}


def renderer_backend() -> dict[str, Any]:
    """The platform asked for and whether a headless GL context really renders here."""
    from studio.rendering.probe import probe_backend

    report = probe_backend()
    backend: dict[str, Any] = {
        "PYOPENGL_PLATFORM": os.environ.get("PYOPENGL_PLATFORM", ""),
        "MUJOCO_GL": os.environ.get("MUJOCO_GL", ""),
        "platform": report.platform,
        "renders": report.renders,
    }
    if not report.renders:
        return backend | {"error": report.error}
    from OpenGL import platform as gl_platform  # type: ignore[import-untyped]

    return backend | {
        "gl_platform": type(gl_platform.PLATFORM).__name__,
        "renderer": report.renderer,
        "reason": report.reason,
    }
