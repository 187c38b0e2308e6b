"""Uploaded meshes (GLB, glTF, OBJ, STL, PLY) read defensively into one triangle mesh.

The extension must be one of those formats; the bytes decide which parser reads them, so a GLB
named `.gltf` or an ASCII STL named `.obj` still loads. Limits are checked before parsing where the
file declares its size (STL and PLY headers, glTF accessors), so a small file cannot make the
server allocate for millions of triangles. Scenes (a GLB with several nodes) are flattened into
one mesh in their node transforms; materials and textures are not read.
"""

from __future__ import annotations

import io
import json
import re
import struct
import warnings
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any, Literal

import numpy as np
import trimesh

from studio.scene.glb import GlbError, unpack_glb
from studio.scene.model import SceneError, Vec3

MeshFormat = Literal["glb", "gltf", "obj", "stl", "ply"]
Units = Literal["m", "cm", "mm"]

FORMATS: tuple[MeshFormat, ...] = ("glb", "gltf", "obj", "stl", "ply")
MAX_BYTES = 50 * 1024 * 1024
MAX_FACES = 500_000
MAX_GLTF_NODE_VISITS = 10_000
UNITS_PER_METRE: dict[Units, float] = {"m": 1.0, "cm": 100.0, "mm": 1000.0}

_SNIFF_BYTES = 65536
_STL_HEADER = 84
_STL_TRIANGLE = 50
_OBJ_VERTEX = re.compile(r"^[ \t]*v[ \t]", re.MULTILINE)
_PLY_FACES = re.compile(rb"^element[ \t]+face[ \t]+(\d+)", re.MULTILINE)


class MeshImportError(SceneError):
    """An upload that is not a usable mesh; the message says why, naming the file."""


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
    data: bytes, filename: str, *, max_bytes: int = MAX_BYTES, max_faces: int = MAX_FACES
) -> ImportedMesh:
    """Read an uploaded mesh file; MeshImportError says why one cannot be used."""
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
    _check_declared_size(data, fmt, name, max_faces)
    mesh = _load(data, fmt, name)
    if len(mesh.faces) == 0:
        raise _no_triangles(name)
    if len(mesh.faces) > max_faces:
        raise _too_many(name, len(mesh.faces), max_faces)
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


def _sniff(data: bytes, extension: str, name: str) -> MeshFormat:
    if data[:4] == b"glTF":
        return "glb"
    if data[:3] == b"ply" and data[3:4] in (b"\n", b"\r"):
        return "ply"
    if _stl_declared_triangles(data) is not None:
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
        if len(data) < _STL_HEADER:
            return f"{len(data)} bytes is shorter than a binary STL's 84-byte header"
        (count,) = struct.unpack_from("<I", data, 80)
        expected = _STL_HEADER + _STL_TRIANGLE * count
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


def _stl_declared_triangles(data: bytes) -> int | None:
    """The triangle count of a binary STL whose size matches its header exactly, else None."""
    if len(data) < _STL_HEADER:
        return None
    (count,) = struct.unpack_from("<I", data, 80)
    return int(count) if len(data) == _STL_HEADER + _STL_TRIANGLE * count else None


def _check_declared_size(data: bytes, fmt: MeshFormat, name: str, max_faces: int) -> None:
    """Refuse, before parsing, a file that declares more triangles than allowed."""
    if fmt in ("glb", "gltf"):
        declared = _gltf_triangles(_gltf_document(data, fmt, name), name)
    elif fmt == "stl":
        declared = _stl_declared_triangles(data) or data.count(b"endfacet")
    elif fmt == "ply":
        header = data[: data.find(b"end_header")] if b"end_header" in data else b""
        declared = sum(int(count) for count in _PLY_FACES.findall(header))
    else:
        declared = data.count(b"\nf ") + data.startswith(b"f ")
    if declared > max_faces:
        raise _too_many(name, declared, max_faces)


def _gltf_document(data: bytes, fmt: MeshFormat, name: str) -> dict[str, Any]:
    try:
        if fmt == "glb":
            return unpack_glb(data)[0]
        document = json.loads(data.decode("utf-8", errors="replace"))
    except GlbError as error:
        raise MeshImportError(f"{name} is a broken GLB: {error}") from error
    except json.JSONDecodeError as error:
        raise MeshImportError(f"{name} is not valid glTF JSON: {error}") from error
    if not isinstance(document, dict) or "asset" not in document:
        raise MeshImportError(f"{name} is JSON but not glTF (no 'asset')")
    return document


def _gltf_triangles(document: dict[str, Any], name: str) -> int:
    """Triangles the glTF draws, counting every instance; refuses external files and cycles."""
    for buffer in _list(document.get("buffers")):
        uri = buffer.get("uri") if isinstance(buffer, dict) else None
        if isinstance(uri, str) and not uri.startswith("data:"):
            raise MeshImportError(
                f"{name} refers to an external file ({uri[:60]}); upload a .glb, or a .gltf "
                "with its buffers embedded"
            )
    nodes = _list(document.get("nodes"))
    scenes = _list(document.get("scenes"))
    roots: list[Any] = []
    for scene in scenes:
        roots += _list(scene.get("nodes")) if isinstance(scene, dict) else []
    stack = roots or list(range(len(nodes)))
    total = visits = 0
    while stack:
        index = stack.pop()
        visits += 1
        if visits > MAX_GLTF_NODE_VISITS:
            raise MeshImportError(
                f"{name}'s node tree is cyclic or has over {MAX_GLTF_NODE_VISITS:,} nodes"
            )
        node = nodes[index] if isinstance(index, int) and 0 <= index < len(nodes) else None
        if not isinstance(node, dict):
            continue
        total += _gltf_mesh_triangles(document, node.get("mesh"))
        stack += _list(node.get("children"))
    return total


def _gltf_mesh_triangles(document: dict[str, Any], index: Any) -> int:
    meshes, accessors = _list(document.get("meshes")), _list(document.get("accessors"))
    if not isinstance(index, int) or not 0 <= index < len(meshes):
        return 0
    mesh = meshes[index]
    total = 0
    for primitive in _list(mesh.get("primitives")) if isinstance(mesh, dict) else []:
        if not isinstance(primitive, dict):
            continue
        attributes = primitive.get("attributes")
        position = attributes.get("POSITION") if isinstance(attributes, dict) else None
        accessor_index = primitive.get("indices", position)
        if not isinstance(accessor_index, int) or not 0 <= accessor_index < len(accessors):
            continue
        accessor = accessors[accessor_index]
        count = accessor.get("count", 0) if isinstance(accessor, dict) else 0
        count = count if isinstance(count, int) else 0
        mode = primitive.get("mode", 4)
        total += count // 3 if mode == 4 else max(count - 2, 0) if mode in (5, 6) else 0
    return total


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _load(data: bytes, fmt: MeshFormat, name: str) -> trimesh.Trimesh:
    options: dict[str, Any] = {"skip_materials": True} if fmt != "stl" else {}
    if fmt in ("obj", "gltf") or (fmt == "stl" and _stl_declared_triangles(data) is None):
        # trimesh guesses the encoding of non-UTF-8 text with an optional package; don't let it.
        data = data.decode("utf-8", errors="replace").encode("utf-8")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loaded = trimesh.load(
                io.BytesIO(data), file_type=fmt, force="mesh", process=False, **options
            )
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


def _too_many(name: str, faces: int, max_faces: int) -> MeshImportError:
    return MeshImportError(
        f"{name} has {faces:,} triangles; the limit is {max_faces:,} (simplify it first)"
    )


def _bytes(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1e6:.1f} MB"
    return f"{count / 1e3:.1f} kB" if count >= 1000 else f"{count} bytes"
