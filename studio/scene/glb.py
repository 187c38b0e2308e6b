"""The GLB container (glTF 2.0 binary): a 12-byte header, a JSON chunk, an optional BIN chunk."""

from __future__ import annotations

import json
import struct
from typing import Any

MAGIC = b"glTF"
VERSION = 2
JSON_CHUNK = 0x4E4F534A  # "JSON" read as a little-endian uint32
BIN_CHUNK = 0x004E4942  # "BIN\0"


class GlbError(ValueError):
    """Bytes that are not a well-formed GLB container."""


def pack_glb(document: dict[str, Any], binary: bytes = b"") -> bytes:
    """A GLB file of a glTF JSON document and its binary buffer, each chunk 4-byte aligned."""
    text = json.dumps(document, separators=(",", ":"), allow_nan=False).encode("utf-8")
    text += b" " * (-len(text) % 4)  # the spec pads JSON with spaces
    chunks = struct.pack("<II", len(text), JSON_CHUNK) + text
    if binary:
        binary += b"\0" * (-len(binary) % 4)
        chunks += struct.pack("<II", len(binary), BIN_CHUNK) + binary
    return struct.pack("<4sII", MAGIC, VERSION, 12 + len(chunks)) + chunks


def unpack_glb(data: bytes) -> tuple[dict[str, Any], bytes]:
    """The JSON document and the BIN chunk (b"" when absent) of a GLB file; GlbError if broken."""
    if len(data) < 20 or data[:4] != MAGIC:
        raise GlbError("not a GLB file (no glTF header)")
    _, version, length = struct.unpack_from("<4sII", data, 0)
    if version != VERSION:
        raise GlbError(f"GLB version {version} is not supported (only glTF 2.0)")
    if length > len(data):
        raise GlbError(f"GLB header says {length} bytes but the file has {len(data)}: truncated")
    chunk_length, chunk_type = struct.unpack_from("<II", data, 12)
    if chunk_type != JSON_CHUNK or 20 + chunk_length > length:
        raise GlbError("GLB's first chunk is not a complete JSON chunk")
    try:
        document = json.loads(data[20 : 20 + chunk_length].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise GlbError(f"GLB's JSON chunk is not valid JSON: {error}") from error
    if not isinstance(document, dict):
        raise GlbError("GLB's JSON chunk is not a JSON object")
    offset = 20 + chunk_length
    binary = b""
    if offset + 8 <= length:
        bin_length, bin_type = struct.unpack_from("<II", data, offset)
        if bin_type == BIN_CHUNK:
            if offset + 8 + bin_length > length:
                raise GlbError("GLB's BIN chunk runs past the end of the file: truncated")
            binary = data[offset + 8 : offset + 8 + bin_length]
    return document, binary
