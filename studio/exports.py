"""A revision as downloadable files, uploaded meshes as scene refs, and the upload limits.

Mesh shapes name an upload as `{"kind": "mesh", "params": {"ref": "mesh:<id>"}}`; `mesh_resolver`
loads such refs, only from the workspace's own uploads, for geometry, exports and checks.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.utils.text import slugify

from agents.models import Workspace
from studio.models import SceneRevision, UploadedMesh
from studio.scene.model import SceneError

if TYPE_CHECKING:
    # Geometry, mesh files and rendering (trimesh, pyrender) load in the functions that use
    # them, not when the API imports this module.

    from studio.scene.geometry import MeshResolver
    from studio.scene.mesh_import import MeshImportError

MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_UPLOAD_FACES = 500_000
MAX_UPLOAD_VERTICES = 1_500_000

MESH_REF = re.compile(r"^mesh:([0-9]{1,18})$")


@dataclass(frozen=True)
class ExportFormat:
    extension: str
    content_type: str
    suffix: str
    """What the download's file name ends with."""


FORMATS: dict[str, ExportFormat] = {
    "glb": ExportFormat("glb", "model/gltf-binary", ".glb"),
    "obj": ExportFormat("obj", "application/zip", "-obj.zip"),
    "stl": ExportFormat("stl", "model/stl", ".stl"),
    "png": ExportFormat("png", "image/png", ".png"),
}
METADATA_KEYS = (
    "format",
    "bounds",
    "extents",
    "watertight",
    "units_guess",
    "scale_to_metres",
)


class NoRender(LookupError):
    """The revision has no rendered image."""


def mesh_resolver(workspace: Workspace) -> MeshResolver:
    """Loads `mesh:<id>` refs from the workspace's uploads (each file read once per resolver)."""
    from studio.scene.mesh_import import UploadLimits, upload_resolver

    def open_ref(key: str) -> tuple[bytes, str]:
        match = MESH_REF.match(key)
        if match is None:
            raise SceneError(f"mesh ref {key!r} must look like 'mesh:<id>' (an upload's ref)")
        row = UploadedMesh.objects.filter(workspace=workspace, pk=int(match[1])).first()
        if row is None:
            raise SceneError(f"mesh {key!r} is not uploaded to this workspace")
        with row.file.open("rb") as handle:
            return handle.read(), row.name

    limits = UploadLimits(MAX_UPLOAD_BYTES, MAX_UPLOAD_FACES, MAX_UPLOAD_VERTICES)
    return upload_resolver(open_ref, limits)


def mesh_face_counts(workspace: Workspace) -> Callable[[str], int]:
    """The stored face count of a `mesh:<id>` ref among the workspace's uploads, so a scene's
    size is known before its meshes are read."""

    def faces(ref: str) -> int:
        match = MESH_REF.match(ref.strip())
        if match is None:
            raise SceneError(f"mesh ref {ref!r} must look like 'mesh:<id>' (an upload's ref)")
        rows = UploadedMesh.objects.filter(workspace=workspace, pk=int(match[1]))
        count = rows.values_list("faces", flat=True).first()
        if count is None:
            raise SceneError(f"mesh {ref.strip()!r} is not uploaded to this workspace")
        return int(count)

    return faces


def scene_mesh_faces(workspace: Workspace, scene: dict[str, Any]) -> dict[str, int]:
    """The stored face count of each of the workspace's uploads the scene uses, by ref."""
    ids = {
        int(match[1])
        for _, ref in mesh_refs(scene)
        if (match := MESH_REF.match(ref.strip())) is not None
    }
    rows = UploadedMesh.objects.filter(workspace=workspace, pk__in=ids)
    return {f"mesh:{pk}": int(faces) for pk, faces in rows.values_list("pk", "faces")}


def mesh_refs(scene: dict[str, Any]) -> list[tuple[str, str]]:
    """(object name, ref) of every mesh shape in a stored scene, booleans' operands included."""
    found: list[tuple[str, str]] = []

    def visit(shape: Any, owner: str) -> None:
        if not isinstance(shape, dict):
            return
        params = shape.get("params")
        params = params if isinstance(params, dict) else {}
        if shape.get("kind") == "mesh":
            found.append((owner, str(params.get("ref", ""))))
        elif shape.get("kind") == "boolean":
            visit(params.get("a"), owner)
            visit(params.get("b"), owner)

    for item in scene.get("objects") or []:
        if isinstance(item, dict):
            visit(item.get("shape"), str(item.get("name", "")))
    return found


def check_mesh_refs(workspace: Workspace, scene: dict[str, Any]) -> None:
    """SceneError naming the object whose mesh ref is not one of the workspace's uploads."""
    for owner, ref in mesh_refs(scene):
        match = MESH_REF.match(ref.strip())
        if match is None:
            raise SceneError(f"object {owner!r}: mesh ref {ref!r} must look like 'mesh:<id>'")
        if not UploadedMesh.objects.filter(workspace=workspace, pk=int(match[1])).exists():
            raise SceneError(f"object {owner!r}: mesh {ref!r} is not uploaded to this workspace")


def export_filename(revision: SceneRevision, fmt: str) -> str:
    base = slugify(revision.workspace.name) or "scene"
    return f"{base}-r{revision.number}{FORMATS[fmt].suffix}"


def revision_export(revision: SceneRevision, fmt: str) -> bytes:
    """The revision's scene as GLB, OBJ + MTL (zip) or STL, or its 1024 x 768 render (PNG).

    Computed once per revision and kept (a revision never changes), so every download of it
    is the same bytes. SceneError says why a scene cannot be exported (no objects for OBJ/STL,
    a missing mesh); NoRender when a PNG is asked where no image can be rendered.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    path = export_path(revision, fmt)
    if default_storage.exists(path):
        with default_storage.open(path, "rb") as handle:
            cached: bytes = handle.read()
        return cached
    data = _build_export(revision, fmt)
    export_store(revision, fmt, data)
    return data


def revision_export_name(revision: SceneRevision, fmt: str) -> str:
    """The storage name of the revision's export in `fmt`, built and kept first where it is not
    yet (the errors of `revision_export`); downloads serve this file."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown export format {fmt!r}")
    path = export_path(revision, fmt)
    if not default_storage.exists(path):
        export_store(revision, fmt, _build_export(revision, fmt))
    return path


def export_store(revision: SceneRevision, fmt: str, data: bytes) -> None:
    """Keep `data` as the revision's export in `fmt` (the first one stored wins)."""
    path = export_path(revision, fmt)
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(data))


def export_path(revision: SceneRevision, fmt: str) -> str:
    """Where a revision's export is kept: named by the revision and a digest of its row and
    scene, so a reused id (a re-made database, a re-made workspace) never meets an old file."""
    identity = json.dumps(
        [revision.pk, revision.number, revision.created_at.isoformat(), revision.scene],
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(identity.encode()).hexdigest()[:20]
    return f"studio/exports/w{revision.workspace_id}/r{revision.number}-{digest}.{fmt}"


def revision_thumbnail(revision: SceneRevision) -> bytes:
    """The revision's small render for the history strip; NoRender where it has none."""
    if not revision.thumbnail:
        raise NoRender(f"revision {revision.number} has no render")
    with revision.thumbnail.open("rb") as handle:
        image: bytes = handle.read()
    return image


def _build_export(revision: SceneRevision, fmt: str) -> bytes:
    """The export written (or the PNG rendered) in a bounded child, never in the web process."""
    from studio.scene_work import NoImage, export_built

    try:
        return export_built(revision.workspace, revision.scene, fmt)
    except NoImage as error:
        raise NoRender(f"revision {revision.number} has no render ({error})") from error


def mesh_upload(*, workspace: Workspace, data: bytes, filename: str) -> UploadedMesh:
    """Check and store an uploaded mesh, read in a bounded child; MeshImportError says why it
    cannot be used (nothing is stored then)."""
    from studio.scene_work import mesh_read

    imported = mesh_read(workspace, data, filename)
    name = _safe_name(filename, imported["format"])
    with transaction.atomic():
        mesh = UploadedMesh(
            workspace=workspace,
            name=name,
            faces=imported["faces"],
            vertices=imported["vertices"],
            metadata={
                **{key: imported[key] for key in METADATA_KEYS},
                "bytes": len(data),
            },
        )
        mesh.file.save(name, ContentFile(data), save=False)
        mesh.save()
    return mesh


def upload_too_big(filename: str, size: int) -> MeshImportError | None:
    """The error for an upload over the byte limit, told before its bytes are read."""
    if size <= MAX_UPLOAD_BYTES:
        return None
    from studio.scene.mesh_import import MeshImportError

    name = PurePosixPath(filename.replace("\\", "/")).name[:100] or "the file"
    return MeshImportError(f"{name} is {_size(size)}; the limit is {_size(MAX_UPLOAD_BYTES)}")


def _size(count: int) -> str:
    """Bytes as a person reads them: 50 MB is the 50 MiB limit, as the upload form says."""
    for unit, scale in (("MB", 2**20), ("kB", 2**10)):
        if count >= scale:
            return f"{count / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{count} bytes"


def _safe_name(filename: str, fmt: str) -> str:
    """The upload's base name reduced to safe characters, keeping a mesh extension."""
    from studio.scene.mesh_import import FORMATS as MESH_FORMATS

    base = PurePosixPath(filename.replace("\\", "/")).name
    stem, suffix = PurePosixPath(base).stem, PurePosixPath(base).suffix.lower().lstrip(".")
    stem = re.sub(r"[^\w.\-]+", "_", stem).strip("._")[:80] or "mesh"
    return f"{stem}.{suffix if suffix in MESH_FORMATS else fmt}"
