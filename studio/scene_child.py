"""The studio's heavy work on a person's input, in a bounded child (`agents.bounded_child`):
checking and rendering an edited scene, writing an export, reading an uploaded mesh.

Run by `agents.bounded_child`; no Django here: the caller (`studio.scene_work`) hands
over the scene as JSON and the meshes it uses as local files, and gets the results back packed
(`agents.bounded_child.pack`). A scene or mesh built to exhaust memory or CPU stops this child
only; an input the studio refuses comes back as its SceneError's message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.bounded_child import Job, pack
from studio.scene.model import SceneError, SceneObject, scene_from_dict

if TYPE_CHECKING:
    import trimesh

    from studio.scene.geometry import MeshResolver

RENDER_SIZE = (1024, 768)
REFUSALS = (SceneError,)
Emit = Callable[[str], None]


def resolver_from_files(
    meshes: Mapping[str, Mapping[str, Any]], limits: Mapping[str, int]
) -> MeshResolver:
    """`mesh:<id>` refs read from the local files the caller copied (`{"path", "name"}` each),
    each read once, within the caller's upload `limits`."""
    from studio.scene.mesh_import import UploadLimits, upload_resolver

    def open_ref(key: str) -> tuple[bytes, str]:
        entry = meshes.get(key)
        if entry is None:
            raise SceneError(f"mesh {key!r} is not uploaded to this workspace")
        return Path(entry["path"]).read_bytes(), str(entry["name"])

    return upload_resolver(open_ref, UploadLimits(**limits))


def edit_job(job: dict[str, Any], emit: Emit) -> bytes:
    """An edited scene checked against the caps (estimated, then built) and measured like a
    round: its report and notes, its GLB, render and thumbnail (no caps and no GLB where the job
    says `check_caps: false`)."""
    from studio.user_edits import check_caps, measure

    scene = scene_from_dict(job["scene"])
    faces = {str(ref): int(count) for ref, count in job["mesh_faces"].items()}

    def mesh_faces(ref: str) -> int:
        if ref.strip() not in faces:
            raise SceneError(f"mesh {ref.strip()!r} is not uploaded to this workspace")
        return faces[ref.strip()]

    resolver = resolver_from_files(job["meshes"], job["limits"])
    glb = b""
    if job.get("check_caps", True):  # a revert re-measures a stored scene: no caps, no GLB
        glb = check_caps(scene, resolve_mesh=resolver, mesh_faces=mesh_faces, caps=job["caps"])
        emit("built")
    measured = measure(scene, resolve_mesh=resolver)
    return pack(
        {"report": measured.report, "notes": measured.notes},
        {"glb": glb, "png": measured.png, "thumbnail": measured.thumbnail},
    )


def export_job(job: dict[str, Any], emit: Emit) -> bytes:
    """The scene as GLB, OBJ + MTL (zip) or STL, or its 1024 x 768 render; for a render that
    cannot be drawn, the reason instead of bytes (`no_render`)."""
    from studio.rendering.renderer import RenderUnavailable
    from studio.scene.export import scene_to_glb, scene_to_obj, scene_to_stl

    scene = scene_from_dict(job["scene"])
    resolver = resolver_from_files(job["meshes"], job["limits"])
    fmt = job["fmt"]
    if fmt == "png":
        try:
            return pack({}, {"data": render_png(job["scene"], resolver)})
        except RenderUnavailable as error:
            return pack({"no_render": str(error)}, {})
    writers = {"glb": scene_to_glb, "obj": scene_to_obj, "stl": scene_to_stl}
    return pack({}, {"data": writers[fmt](scene, resolve_mesh=resolver)})


def render_png(scene_data: dict[str, Any], resolver: MeshResolver) -> bytes:
    """The scene rendered at 1024 x 768 as PNG (RenderUnavailable where no GL context exists)."""
    from studio.rendering.renderer import render
    from studio.rendering.result import png
    from studio.scene.geometry import object_matrix, object_mesh

    scene = scene_from_dict(scene_data)

    def mesh_for(obj: SceneObject) -> tuple[trimesh.Trimesh, Any]:
        return object_mesh(obj, resolve_mesh=resolver), object_matrix(obj.transform)

    width, height = RENDER_SIZE
    return png(render(scene, mesh_for=mesh_for, width=width, height=height, segmentation=False))


def import_job(job: dict[str, Any], emit: Emit) -> bytes:
    """An uploaded mesh read within the upload limits: what the studio stores about it."""
    from studio.scene.mesh_import import import_mesh

    imported = import_mesh(
        Path(job["path"]).read_bytes(),
        str(job["filename"]),
        **job["limits"],
    )
    low, high = imported.bounds
    return pack(
        {
            "format": imported.format,
            "faces": imported.faces,
            "vertices": imported.vertices,
            "bounds": [list(low), list(high)],
            "extents": list(imported.extents),
            "watertight": imported.watertight,
            "units_guess": imported.units_guess,
            "scale_to_metres": imported.scale_to_metres,
        },
        {},
    )


def jobs() -> Mapping[str, Job]:
    return {"edit": edit_job, "export": export_job, "import": import_job}
