"""A web request's heavy studio work, run in a bounded child (`studio.scene_child`), never in
the web process: an edit's build, render and checks, an export, an uploaded mesh's reading.

Each child has `STUDIO_CHILD_MEMORY_MB` of memory and `STUDIO_CHILD_CPU_SECONDS` of CPU; a host
runs at most `STUDIO_CHILDREN` at once and a person one (`person_child_slot`: 429 after
`STUDIO_CHILD_WAIT_SECONDS`). A child past its budget is a SceneError saying which one.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings

from agents.bounded_child import MB, ChildBudget, ChildErrors, run_child, unpack
from agents.models import Workspace
from agents.services.child_slots import person_child_slot
from agents.storage_files import local_copy
from studio.models import UploadedMesh
from studio.scene.model import SceneError
from studio.user_edits import current_caps

DEFAULTS = {
    "STUDIO_CHILD_MEMORY_MB": 3072.0,
    "STUDIO_CHILD_CPU_SECONDS": 60.0,
    "STUDIO_CHILDREN": 2,
    "STUDIO_CHILD_WAIT_SECONDS": 5.0,
}


class SceneChildExceeded(SceneError):
    """The child passed its memory or CPU budget; the message says which."""


ERRORS = ChildErrors(refused=SceneError, exceeded=SceneChildExceeded)


class NoImage(LookupError):
    """The scene cannot be drawn here (no GL context); the message says why."""


@dataclass(frozen=True)
class EditChecked:
    report: dict[str, Any]
    glb: bytes
    png: bytes
    thumbnail: bytes


def setting(name: str) -> float:
    return float(getattr(settings, name, DEFAULTS[name]))


def budget() -> ChildBudget:
    cpu = setting("STUDIO_CHILD_CPU_SECONDS")
    return ChildBudget(
        memory_bytes=int(setting("STUDIO_CHILD_MEMORY_MB") * MB),
        cpu_seconds=cpu,
        # A child that stops computing (a thread that could not start for want of memory
        # leaves Python waiting on it) is ended by the clock: an edit at the caps takes ~6 s.
        wall_seconds=cpu * 1.5,
        counts="data",  # the renderer may map a GPU driver's regions (EGL)
    )


def edit_checked(
    workspace: Workspace,
    scene: dict[str, Any],
    *,
    mesh_faces: dict[str, int],
    check_caps: bool = True,
) -> EditChecked:
    """Check an edited scene against the caps, then render and measure it, in a child (only
    measure it, without `check_caps`: no GLB then)."""
    with mesh_files(workspace, scene) as meshes:
        job = {
            "command": "edit",
            "scene": scene,
            "meshes": meshes,
            "mesh_faces": mesh_faces,
            "check_caps": check_caps,
            "caps": current_caps(),
        }
        header, blobs = unpack(_run(workspace, job, "checking the edited scene"))
    return EditChecked(header["report"], blobs["glb"], blobs["png"], blobs["thumbnail"])


def export_built(workspace: Workspace, scene: dict[str, Any], fmt: str) -> bytes:
    """The scene written as `fmt` (glb, obj, stl) or rendered (png), in a child; NoImage where a
    render cannot be drawn."""
    with mesh_files(workspace, scene) as meshes:
        job = {"command": "export", "scene": scene, "meshes": meshes, "fmt": fmt}
        header, blobs = unpack(_run(workspace, job, f"writing the {fmt.upper()} export"))
    if "no_render" in header:
        raise NoImage(header["no_render"])
    return blobs["data"]


def mesh_read(workspace: Workspace, data: bytes, filename: str) -> dict[str, Any]:
    """An uploaded mesh read in a child, within the upload limits: its format, sizes, bounds and
    units (MeshImportError, a SceneError, says why it cannot be used)."""
    with tempfile.NamedTemporaryFile(prefix="upload-", suffix=Path(filename).suffix[:16]) as copy:
        copy.write(data)
        copy.flush()
        job = {"command": "import", "path": copy.name, "filename": filename}
        try:
            header, _ = unpack(_run(workspace, job, "reading the mesh"))
        except SceneChildExceeded as error:
            from studio.scene.mesh_import import MeshImportError

            raise MeshImportError(str(error)) from error
    return header


@contextlib.contextmanager
def mesh_files(workspace: Workspace, scene: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Local files of the workspace's uploads the scene uses, by ref, for the child to read."""
    from studio.exports import MESH_REF, mesh_refs

    ids = {
        int(match[1])
        for _, ref in mesh_refs(scene)
        if (match := MESH_REF.match(ref.strip())) is not None
    }
    rows = UploadedMesh.objects.filter(workspace=workspace, pk__in=ids)
    with contextlib.ExitStack() as in_use:
        yield {
            f"mesh:{row.pk}": {
                "path": str(in_use.enter_context(local_copy(row.file))),
                "name": row.name,
            }
            for row in rows
        }


def upload_limits() -> dict[str, int]:
    from studio.exports import MAX_UPLOAD_BYTES, MAX_UPLOAD_FACES, MAX_UPLOAD_VERTICES

    return {
        "max_bytes": MAX_UPLOAD_BYTES,
        "max_faces": MAX_UPLOAD_FACES,
        "max_vertices": MAX_UPLOAD_VERTICES,
    }


def _run(workspace: Workspace, job: dict[str, Any], what: str) -> bytes:
    with person_child_slot(
        "scene-children",
        workspace.owner_id,
        host_count=int(setting("STUDIO_CHILDREN")),
        wait_seconds=setting("STUDIO_CHILD_WAIT_SECONDS"),
        busy="scenes are being built for you or others at the moment; try again in a few seconds",
    ):
        job = {**job, "limits": upload_limits()}  # every mesh read within the upload limits
        return run_child("studio.scene_child", job, budget=budget(), what=what, errors=ERRORS)
