"""What an uploaded mesh file declares it holds, bounded before any parser allocates for it.

A parser believes a file's counts: a 520-byte GLB whose POSITION accessor declares 40 million
vertices with no data behind them makes trimesh allocate gigabytes of zeros. So every format is
bounded here from its declarations and its bytes alone: glTF by each accessor (its count, its
element size and the buffer bytes it claims; accessors without data and sparse ones refused),
PLY by its header's element counts against the bytes that follow, STL by its header or its
facets, OBJ by its vertex and face lines.
"""

from __future__ import annotations

import json
import re
import struct
from dataclasses import dataclass
from typing import Any, Literal, TypeGuard

from studio.scene.glb import GlbError, unpack_glb
from studio.scene.model import SceneError

MeshFormat = Literal["glb", "gltf", "obj", "stl", "ply"]

MAX_GLTF_NODE_VISITS = 10_000

STL_HEADER = 84
STL_TRIANGLE = 50
_OBJ_VERTICES = re.compile(rb"^[ \t]*v[ \t]", re.MULTILINE)
_OBJ_FACES = re.compile(rb"^[ \t]*f[ \t]([^\n]*)", re.MULTILINE)
_PLY_BINARY = re.compile(rb"^format[ \t]+binary", re.MULTILINE)
_PLY_ELEMENT = re.compile(rb"^element[ \t]+(\w+)[ \t]+(\d+)", re.MULTILINE)
_PLY_PROPERTY = re.compile(rb"^property[ \t]+(list[ \t]+)?(\w+)", re.MULTILINE)
_PLY_SIZES = {
    **dict.fromkeys((b"char", b"uchar", b"int8", b"uint8"), 1),
    **dict.fromkeys((b"short", b"ushort", b"int16", b"uint16"), 2),
    **dict.fromkeys((b"int", b"uint", b"float", b"int32", b"uint32", b"float32"), 4),
    **dict.fromkeys((b"double", b"float64"), 8),
}
_GLTF_COMPONENT_BYTES = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
_GLTF_TYPE_COMPONENTS = {
    "SCALAR": 1,
    "VEC2": 2,
    "VEC3": 3,
    "VEC4": 4,
    "MAT2": 4,
    "MAT3": 9,
    "MAT4": 16,
}


class MeshImportError(SceneError):
    """An upload that is not a usable mesh; the message says why, naming the file."""


@dataclass(frozen=True)
class Declared:
    """The triangles and vertices a file says it holds (every glTF instance counted)."""

    faces: int
    vertices: int


def check_declared(
    data: bytes, fmt: MeshFormat, name: str, *, max_faces: int, max_vertices: int
) -> Declared:
    """Refuse, before parsing, a file that declares more than allowed or more than it holds."""
    if fmt in ("glb", "gltf"):
        declared = _gltf_declared(data, fmt, name, max_faces, max_vertices)
    elif fmt == "stl":
        faces = stl_declared_triangles(data) or data.count(b"endfacet")
        declared = Declared(faces, max(3 * faces, data.count(b"vertex")))
    elif fmt == "ply":
        declared = _ply_declared(data, name, max_faces, max_vertices)
    else:
        faces = sum(max(len(m[1].split()) - 2, 0) for m in _OBJ_FACES.finditer(data))
        declared = Declared(faces, len(_OBJ_VERTICES.findall(data)))
    if declared.faces > max_faces:
        raise too_many(name, declared.faces, max_faces)
    if declared.vertices > max_vertices:
        raise too_many_vertices(name, declared.vertices, max_vertices)
    return declared


def stl_declared_triangles(data: bytes) -> int | None:
    """The triangle count of a binary STL whose size matches its header exactly, else None."""
    if len(data) < STL_HEADER:
        return None
    (count,) = struct.unpack_from("<I", data, 80)
    return int(count) if len(data) == STL_HEADER + STL_TRIANGLE * count else None


def too_many(name: str, faces: int, max_faces: int) -> MeshImportError:
    return MeshImportError(
        f"{name} has {faces:,} triangles; the limit is {max_faces:,} (simplify it first)"
    )


def too_many_vertices(name: str, vertices: int, max_vertices: int) -> MeshImportError:
    return MeshImportError(
        f"{name} declares {vertices:,} vertices; the limit is {max_vertices:,} (simplify it first)"
    )


def _ply_declared(data: bytes, name: str, max_faces: int, max_vertices: int) -> Declared:
    end = data.find(b"end_header")
    if end < 0:
        return Declared(0, 0)  # the parser refuses it, having nothing to allocate for
    header, body = data[:end], len(data) - data.find(b"\n", end) - 1
    binary = _PLY_BINARY.search(header) is not None
    counts: dict[bytes, int] = {}
    needed = rows = 0
    for element, properties in _ply_elements(header):
        count = int(element[2])
        counts[element[1]] = counts.get(element[1], 0) + count
        rows += count
        # Every property takes bytes: binary its size (a list at least its length field),
        # text at least a digit and a separator.
        sizes = [
            _PLY_SIZES.get(p[2], 1) if binary else 2 for p in _PLY_PROPERTY.finditer(properties)
        ]
        needed += count * sum(sizes)
    declared = Declared(counts.get(b"face", 0), counts.get(b"vertex", 0))
    if declared.faces > max_faces or declared.vertices > max_vertices:
        return declared  # refused for its counts, the plainer reason
    if needed > body + 1:
        raise MeshImportError(
            f"{name}'s header declares {rows:,} rows needing at least {needed:,} bytes, "
            f"but {body:,} follow it: it is truncated or its counts are false"
        )
    return declared


def _ply_elements(header: bytes) -> list[tuple[re.Match[bytes], bytes]]:
    """Each element line with the header text up to the next element (its properties)."""
    found = list(_PLY_ELEMENT.finditer(header))
    ends = [match.start() for match in found[1:]] + [len(header)]
    return [(match, header[match.end() : stop]) for match, stop in zip(found, ends, strict=True)]


def _gltf_declared(
    data: bytes, fmt: MeshFormat, name: str, max_faces: int, max_vertices: int
) -> Declared:
    document, binary = _gltf_document(data, fmt, name)
    buffers = _gltf_buffer_sizes(document, binary, name)
    _check_accessors(document, buffers, name, max(max_vertices, 3 * max_faces))
    return _gltf_drawn(document, name)


def _gltf_document(data: bytes, fmt: MeshFormat, name: str) -> tuple[dict[str, Any], bytes]:
    try:
        if fmt == "glb":
            return unpack_glb(data)
        document = json.loads(data.decode("utf-8", errors="replace"))
    except GlbError as error:
        raise MeshImportError(f"{name} is a broken GLB: {error}") from error
    except json.JSONDecodeError as error:
        raise MeshImportError(f"{name} is not valid glTF JSON: {error}") from error
    except RecursionError:  # Python's parser recurses once per level of nesting
        raise MeshImportError(f"{name} nests its JSON too deeply to be glTF") from None
    if not isinstance(document, dict) or "asset" not in document:
        raise MeshImportError(f"{name} is JSON but not glTF (no 'asset')")
    return document, b""


def _gltf_buffer_sizes(document: dict[str, Any], binary: bytes, name: str) -> list[int]:
    """The bytes each buffer really holds; refuses external files and false byteLengths."""
    sizes: list[int] = []
    for index, buffer in enumerate(_list(document.get("buffers"))):
        buffer = buffer if isinstance(buffer, dict) else {}
        uri = buffer.get("uri")
        if isinstance(uri, str) and not uri.startswith("data:"):
            raise MeshImportError(
                f"{name} refers to an external file ({uri[:60]}); upload a .glb, or a .gltf "
                "with its buffers embedded"
            )
        held = len(binary) if uri is None and index == 0 else _data_uri_bytes(uri)
        declared = buffer.get("byteLength")
        if not _count(declared) or declared > held:
            raise MeshImportError(
                f"{name}'s buffer {index} declares {declared!r} bytes but holds {held:,}"
            )
        sizes.append(declared)
    return sizes


def _data_uri_bytes(uri: Any) -> int:
    if not isinstance(uri, str) or "," not in uri:
        return 0
    head, payload = uri.split(",", 1)
    if ";base64" not in head:
        return len(payload.encode("utf-8"))
    return len(payload.strip().rstrip("=")) * 3 // 4  # without decoding it


def _check_accessors(
    document: dict[str, Any], buffers: list[int], name: str, max_count: int
) -> None:
    """Every accessor (the parser reads them all, drawn or not) reads real bytes of its
    bufferView, which lies inside its buffer, and counts at most `max_count` elements."""
    views = _list(document.get("bufferViews"))
    for index, accessor in enumerate(_list(document.get("accessors"))):
        what = f"{name}'s accessor {index}"
        accessor = accessor if isinstance(accessor, dict) else {}
        count = accessor.get("count")
        if not _count(count):
            raise MeshImportError(f"{what} has no valid count ({count!r})")
        if "sparse" in accessor:
            raise MeshImportError(f"{what} is sparse; upload a mesh without sparse accessors")
        view_index = accessor.get("bufferView")
        if not isinstance(view_index, int) or not 0 <= view_index < len(views):
            raise MeshImportError(
                f"{what} declares {count:,} elements with no bufferView holding them "
                "(compressed or placeholder data is not supported)"
            )
        if count > max_count:
            raise MeshImportError(f"{what} declares {count:,} elements; the limit is {max_count:,}")
        components = _lookup(_GLTF_TYPE_COMPONENTS, accessor.get("type"))
        size = _lookup(_GLTF_COMPONENT_BYTES, accessor.get("componentType"))
        if components is None or size is None:
            raise MeshImportError(f"{what} has an unknown type or componentType")
        view = views[view_index] if isinstance(views[view_index], dict) else {}
        element = components * size
        stride = view.get("byteStride") or element
        offset = accessor.get("byteOffset", 0)
        if not (_count(stride) and _count(offset)):
            raise MeshImportError(f"{what} has an invalid byteOffset or byteStride")
        needed = offset + (count - 1) * stride + element if count else 0
        length = view.get("byteLength")
        if not _count(length) or needed > length:
            raise MeshImportError(
                f"{what} needs {needed:,} bytes but its bufferView {view_index} has {length!r}"
            )
        _check_view(view, view_index, buffers, name)


def _check_view(view: dict[str, Any], index: int, buffers: list[int], name: str) -> None:
    buffer, offset = view.get("buffer"), view.get("byteOffset", 0)
    if not isinstance(buffer, int) or not 0 <= buffer < len(buffers) or not _count(offset):
        raise MeshImportError(f"{name}'s bufferView {index} names no buffer of the file")
    if offset + view["byteLength"] > buffers[buffer]:
        raise MeshImportError(
            f"{name}'s bufferView {index} ends at byte {offset + view['byteLength']:,} of "
            f"buffer {buffer}, which has {buffers[buffer]:,}"
        )


def _gltf_drawn(document: dict[str, Any], name: str) -> Declared:
    """Triangles and vertices the glTF draws, counting every instance; refuses cycles."""
    nodes = _list(document.get("nodes"))
    roots: list[Any] = []
    for scene in _list(document.get("scenes")):
        roots += _list(scene.get("nodes")) if isinstance(scene, dict) else []
    stack = roots or list(range(len(nodes)))
    faces = vertices = visits = 0
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
        drawn = _gltf_mesh(document, node.get("mesh"))
        faces, vertices = faces + drawn.faces, vertices + drawn.vertices
        stack += _list(node.get("children"))
    return Declared(faces, vertices)


def _gltf_mesh(document: dict[str, Any], index: Any) -> Declared:
    meshes, accessors = _list(document.get("meshes")), _list(document.get("accessors"))
    if not isinstance(index, int) or not 0 <= index < len(meshes):
        return Declared(0, 0)
    mesh = meshes[index]
    faces = vertices = 0
    for primitive in _list(mesh.get("primitives")) if isinstance(mesh, dict) else []:
        if not isinstance(primitive, dict):
            continue
        attributes = primitive.get("attributes")
        position = attributes.get("POSITION") if isinstance(attributes, dict) else None
        vertices += _accessor_count(accessors, position)
        count = _accessor_count(accessors, primitive.get("indices", position))
        mode = primitive.get("mode", 4)
        faces += count // 3 if mode == 4 else max(count - 2, 0) if mode in (5, 6) else 0
    return Declared(faces, vertices)


def _accessor_count(accessors: list[Any], index: Any) -> int:
    if not isinstance(index, int) or not 0 <= index < len(accessors):
        return 0
    accessor = accessors[index]
    count = accessor.get("count", 0) if isinstance(accessor, dict) else 0
    return count if _count(count) else 0


def _lookup(table: dict[Any, int], key: Any) -> int | None:
    return table.get(key) if isinstance(key, str | int) else None


def _count(value: Any) -> TypeGuard[int]:
    """Whether `value` is a whole number >= 0 (JSON's true is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
