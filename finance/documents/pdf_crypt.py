"""Decrypting the streams of a PDF encrypted with an empty user password, to measure them.

Most EDGAR filings are RC4-encrypted (the standard security handler, V2 R3) with an empty user
password: anyone can open them, but their streams are ciphertext, so an inflation bomb inside
one hides from a scan of the raw bytes. This recovers the file key from the /Encrypt dictionary
and the file's /ID (PDF 1.7, 7.6.3.3, algorithm 2) for RC4 (V1, V2, V4 with /V2) and AES-128
(V4 with /AESV2). AES-256 (V5) is not measured here: the reading child's memory and CPU limits
still bound such a file.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
_ENCRYPT = re.compile(rb"/Encrypt\s+(\d+)\s+(\d+)\s+R")
_ID = re.compile(rb"/ID\s*\[\s*(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))", re.S)
_LITERAL_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
Decrypt = Callable[[int, int, bytes], bytes]


def stream_decrypter(data: bytes) -> Decrypt | None:
    """For an encrypted PDF whose key this can recover: (object number, generation, raw) ->
    plain stream bytes. None when the file is not encrypted; `unsupported` when it is and the
    key cannot be recovered (AES-256, another security handler)."""
    reference = _ENCRYPT.search(data)
    if reference is None:
        return None
    number, generation = reference.group(1), reference.group(2)
    found = re.search(
        rb"\b" + number + rb"\s+" + generation + rb"\s+obj\s*<<(.*?)>>\s*endobj", data, re.S
    )
    file_id = _ID.search(data)
    if found is None or file_id is None:
        return unsupported
    entries = found.group(1)
    if b"/Standard" not in entries:
        return unsupported
    version, revision = _int(entries, b"V", 0), _int(entries, b"R", 2)
    aes = version == 4 and b"/AESV2" in entries
    if version not in (1, 2, 4) or (version == 4 and not aes and b"/V2" not in entries):
        return unsupported
    owner, permissions = _string(entries, b"O"), _int(entries, b"P", 0)
    if owner is None:
        return unsupported
    length = 5 if version == 1 else _int(entries, b"Length", 40 if version == 1 else 128) // 8
    digest = hashlib.md5(
        PAD
        + owner[:32]
        + (permissions & 0xFFFFFFFF).to_bytes(4, "little")
        + _decode(file_id.group(1)),
        usedforsecurity=False,
    )
    if revision >= 4 and re.search(rb"/EncryptMetadata\s+false", entries):
        digest.update(b"\xff\xff\xff\xff")
    key = digest.digest()[:length]
    if revision >= 3:
        for _ in range(50):
            key = hashlib.md5(key, usedforsecurity=False).digest()[:length]
    return _object_decrypter(key, aes=aes)


def unsupported(number: int, generation: int, raw: bytes) -> bytes:
    raise ValueError("this encryption is not measured")


def _object_decrypter(key: bytes, *, aes: bool) -> Decrypt:
    from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    def decrypt(number: int, generation: int, raw: bytes) -> bytes:
        salt = b"sAlT" if aes else b""
        seed = key + number.to_bytes(3, "little") + generation.to_bytes(2, "little") + salt
        object_key = hashlib.md5(seed, usedforsecurity=False).digest()[: min(len(key) + 5, 16)]
        if not aes:
            return Cipher(ARC4(object_key), mode=None).decryptor().update(raw)
        if len(raw) < 32 or len(raw) % 16:
            return b""
        decryptor = Cipher(algorithms.AES(object_key), modes.CBC(raw[:16])).decryptor()
        padded = decryptor.update(raw[16:]) + decryptor.finalize()
        unpadder = padding.PKCS7(128).unpadder()
        try:
            return unpadder.update(padded) + unpadder.finalize()
        except ValueError:
            return padded

    return decrypt


def _int(entries: bytes, name: bytes, default: int) -> int:
    found = re.search(rb"/" + name + rb"\s+(-?\d+)", entries)
    return int(found.group(1)) if found else default


def _string(entries: bytes, name: bytes) -> bytes | None:
    found = re.search(rb"/" + name + rb"\s*(<[0-9A-Fa-f\s]*>|\((?:\\.|[^\\)])*\))", entries, re.S)
    return _decode(found.group(1)) if found else None


def _decode(token: bytes) -> bytes:
    """A PDF string token, <hex> or (literal), as bytes."""
    if token.startswith(b"<"):
        digits = re.sub(rb"\s", b"", token[1:-1])
        return bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode())
    body, out, index = token[1:-1], bytearray(), 0
    while index < len(body):
        char = body[index : index + 1]
        if char != b"\\":
            out += char
            index += 1
            continue
        following = body[index + 1 : index + 2]
        octal = re.match(rb"[0-7]{1,3}", body[index + 1 : index + 4])
        if octal:
            out.append(int(octal.group(0), 8) & 0xFF)
            index += 1 + len(octal.group(0))
        else:
            if following not in (b"\n", b"\r"):
                out += _LITERAL_ESCAPES.get(following, following)
            index += 2
    return bytes(out)
