"""Uploaded meshes (GLB, glTF, OBJ, STL, PLY) read defensively into one triangle mesh.

The extension must be one of those formats; the bytes decide which parser reads them, so a GLB
named `.gltf` or an ASCII STL named `.obj` still loads. Limits are checked before parsing where the
file declares its size (every glTF accessor, PLY header counts, STL headers and facets, OBJ
lines; see `studio.scene.mesh_limits`), so a small file cannot make the server allocate for
millions of triangles or vertices. Scenes (a GLB with several nodes) are flattened into
one mesh in their node transforms; materials and textures are not read.
"""

from __future__ import annotations

import io
import re
import struct
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

import numpy as np
import trimesh

from studio.scene.mesh_limits import (
    STL_HEADER,
    STL_TRIANGLE,
    MeshFormat,
    MeshImportError,
    check_declared,
    stl_declared_triangles,
    too_many,
    too_many_vertices,
)
from studio.scene.model import Vec3

__all__ = ["FORMATS", "ImportedMesh", "MeshFormat", "MeshImportError", "import_mesh"]

Units = Literal["m", "cm", "mm"]

FORMATS: tuple[MeshFormat, ...] = ("glb", "gltf", "obj", "stl", "ply")
MAX_BYTES = 50 * 1024 * 1024
MAX_FACES = 500_000
MAX_VERTICES = 1_500_000
UNITS_PER_METRE: dict[Units, float] = {"m": 1.0, "cm": 100.0, "mm": 1000.0}

_SNIFF_BYTES = 65536
_OBJ_VERTEX = re.compile(r"^[ \t]*v[ \t]", re.MULTILINE)


@dataclass(frozen=True)
class ImportedMesh:
    """A mesh read from an upload, in the file's own units and axes, with what a person checks."""

    mesh: trimesh.Trimesh
    format: MeshFormat
    faces: int
    vertices: int
    bounds: tuple[Vec3, Vec3]
    watertight: bool
    units_guess: Units
    """glTF is metres by definition; other formats are guessed from their size (see below)."""

    @property
    def extents(self) -> Vec3:
        low, high = self.bounds
        return (high[0] - low[0], high[1] - low[1], high[2] - low[2])

    @property
    def scale_to_metres(self) -> float:
        """The mesh scale that turns the guessed units into metres (0.001 for millimetres)."""
        return 1.0 / UNITS_PER_METRE[self.units_guess]


def import_mesh(
    data: bytes,
    filename: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_faces: int = MAX_FACES,
    max_vertices: int = MAX_VERTICES,
) -> ImportedMesh:
    """Read an uploaded mesh file; MeshImportError says why one cannot be used. Its declared
    triangles and vertices are bounded before the parser allocates anything."""
    name = PurePosixPath(filename.replace("\\", "/")).name[:100] or "the file"
    extension = PurePosixPath(name).suffix.lower().lstrip(".")
    if extension not in FORMATS:
        shown = f"'.{extension}'" if extension else "no extension"
        raise MeshImportError(
            f"{name} has {shown}; upload a mesh as .glb, .gltf, .obj, .stl or .ply"
        )
    if not data:
        raise MeshImportError(f"{name} is empty (0 bytes)")
    if len(data) > max_bytes:
        raise MeshImportError(f"{name} is {_bytes(len(data))}; the limit is {_bytes(max_bytes)}")
    fmt = _sniff(data, extension, name)
    check_declared(data, fmt, name, max_faces=max_faces, max_vertices=max_vertices)
    mesh = _load(data, fmt, name)
    if len(mesh.faces) == 0:
        raise _no_triangles(name)
    if len(mesh.faces) > max_faces:
        raise too_many(name, len(mesh.faces), max_faces)
    if len(mesh.vertices) > max_vertices:
        raise too_many_vertices(name, len(mesh.vertices), max_vertices)
    if not np.isfinite(mesh.vertices).all():
        raise MeshImportError(f"{name} has NaN or infinite vertex coordinates")
    mesh.merge_vertices()
    low, high = (tuple(float(v) for v in corner) for corner in mesh.bounds)
    return ImportedMesh(
        mesh=mesh,
        format=fmt,
        faces=len(mesh.faces),
        vertices=len(mesh.vertices),
        bounds=((low[0], low[1], low[2]), (high[0], high[1], high[2])),
        watertight=bool(mesh.is_watertight),
        units_guess=_units_guess(fmt, float(mesh.extents.max())),
    )


@dataclass(frozen=True)
class UploadLimits:
    max_bytes: int = MAX_BYTES
    max_faces: int = MAX_FACES
    max_vertices: int = MAX_VERTICES


def upload_resolver(
    open_ref: Callable[[str], tuple[bytes, str]], limits: UploadLimits
) -> Callable[[str], trimesh.Trimesh]:
    """`mesh:<id>` refs resolved to meshes: `open_ref` gives an upload's bytes and file name
    (SceneError where there is none); each is read once, within `limits`."""
    loaded: dict[str, trimesh.Trimesh] = {}

    def resolve(ref: str) -> trimesh.Trimesh:
        key = ref.strip()
        if key not in loaded:
            data, name = open_ref(key)
            loaded[key] = import_mesh(
                data,
                name,
                max_bytes=limits.max_bytes,
                max_faces=limits.max_faces,
                max_vertices=limits.max_vertices,
            ).mesh
        return loaded[key]

    return resolve


def _sniff(data: bytes, extension: str, name: str) -> MeshFormat:
    if data[:4] == b"glTF":
        return "glb"
    if data[:3] == b"ply" and data[3:4] in (b"\n", b"\r"):
        return "ply"
    if stl_declared_triangles(data) is not None:
        return "stl"
    text = _text(data[:_SNIFF_BYTES])
    if text is not None:
        start = text.lstrip()[:5].lower()
        if start.startswith("{"):
            return "gltf"
        if start == "solid" and "facet" in text:
            return "stl"
        if _OBJ_VERTEX.search(text):
            return "obj"
    raise MeshImportError(
        f"{name} is not a valid {extension.upper()} file: {_why_not(data, extension)}"
    )


def _why_not(data: bytes, extension: str) -> str:
    is_text = _text(data[:_SNIFF_BYTES]) is not None
    if extension == "stl":
        if is_text:
            return "it is text but not an ASCII STL ('solid' ... 'facet' lines)"
        if len(data) < STL_HEADER:
            return f"{len(data)} bytes is shorter than a binary STL's 84-byte header"
        (count,) = struct.unpack_from("<I", data, 80)
        expected = STL_HEADER + STL_TRIANGLE * count
        return (
            f"its binary header declares {count:,} triangles ({expected:,} bytes) but the file "
            f"has {len(data):,} bytes, so it is truncated, padded or not an STL"
        )
    if extension in ("gltf", "obj") and not is_text:
        return "its bytes are binary, not text"
    return {
        "glb": "it does not start with the binary glTF header",
        "gltf": "it is not a glTF JSON document",
        "obj": "it has no vertex lines ('v x y z')",
        "ply": "it does not start with 'ply'",
    }[extension]


def _text(chunk: bytes) -> str | None:
    """The chunk as text, or None when it looks binary (NULs, many control characters)."""
    if b"\0" in chunk:
        return None
    controls = sum(chunk.count(bytes([code])) for code in (*range(1, 9), *range(14, 32)))
    if controls > len(chunk) // 100:
        return None
    return chunk.decode("utf-8", errors="replace")


def _load(data: bytes, fmt: MeshFormat, name: str) -> trimesh.Trimesh:
    options: dict[str, Any] = {"skip_materials": True} if fmt != "stl" else {}
    if fmt in ("obj", "gltf") or (fmt == "stl" and stl_declared_triangles(data) is None):
        # trimesh guesses the encoding of non-UTF-8 text with an optional package; don't let it.
        data = data.decode("utf-8", errors="replace").encode("utf-8")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loaded = trimesh.load(
                io.BytesIO(data), file_type=fmt, force="mesh", process=False, **options
            )
    except MemoryError:
        raise  # past the reading child's memory: said as such by its caller, not as bad data
    except Exception as error:
        # Parsers of untrusted files fail in every way (IndexError, struct.error, KeyError...);
        # each one means the same thing to the person uploading.
        raise MeshImportError(f"{name} could not be read as {fmt.upper()}: {error}") from error
    if not isinstance(loaded, trimesh.Trimesh):
        raise _no_triangles(name)
    return loaded


def _units_guess(fmt: MeshFormat, size: float) -> Units:
    """glTF is metres by spec. Otherwise: things in a studio are centimetres to a few metres
    across, so a model over 100 units is most likely in millimetres (CAD, 3D printing) and one
    of 10 to 100 units in centimetres; smaller ones are taken as metres."""
    if fmt in ("glb", "gltf") or size <= 10:
        return "m"
    return "mm" if size > 100 else "cm"


def _no_triangles(name: str) -> MeshImportError:
    return MeshImportError(f"{name} has no triangles (it is empty, or only points or lines)")


def _bytes(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1e6:.1f} MB"
    return f"{count / 1e3:.1f} kB" if count >= 1000 else f"{count} bytes"
