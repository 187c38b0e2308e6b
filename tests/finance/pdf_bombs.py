"""Small PDFs that cost gigabytes to read or render, written by hand for the bounds tests."""

from __future__ import annotations

import hashlib
import struct
import zlib

TEXT = b"BT /F1 12 Tf 72 720 Td (Annual report pursuant to Section 13 of the Exchange Act) Tj ET"
CHUNK = 1 << 20


PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")
FILE_ID = bytes.fromhex("0123456789abcdef0123456789abcdef")


def pdf_of(objects: list[bytes], *, encrypt: bool = False) -> bytes:
    """A PDF whose object n is objects[n - 1], with a correct cross-reference table; with
    `encrypt`, its streams RC4-encrypted under an empty user password (V1 R2, as anyone can
    open, the way EDGAR filings are)."""
    key = hashlib.md5(PAD + b"O" * 32 + (-4 & 0xFFFFFFFF).to_bytes(4, "little") + FILE_ID).digest()
    if encrypt:
        objects = [_encrypted(body, number, key[:5]) for number, body in enumerate(objects, 1)]
        user = _rc4(key[:5], PAD)
        objects.append(
            b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P -4 >>"
            % ((b"O" * 32).hex().encode(), user.hex().encode())
        )
    return write_pdf(objects, encrypt_ref=len(objects) if encrypt else None)


def write_pdf(objects: list[bytes], *, encrypt_ref: int | None = None) -> bytes:
    """The file of these objects (object n is objects[n - 1]) with a correct cross-reference
    table; `encrypt_ref` names the object holding the encryption dictionary."""
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    trailer = b"/Size %d /Root 1 0 R /ID [<%s> <%s>]" % (
        len(objects) + 1,
        FILE_ID.hex().encode(),
        FILE_ID.hex().encode(),
    )
    if encrypt_ref is not None:
        trailer += b" /Encrypt %d 0 R" % encrypt_ref
    out += b"trailer\n<< %s >>\n" % trailer
    return out + b"startxref\n%d\n%%%%EOF\n" % xref


def _rc4(key: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
    from cryptography.hazmat.primitives.ciphers import Cipher

    return Cipher(ARC4(key), mode=None).encryptor().update(data)


def _encrypted(body: bytes, number: int, key: bytes) -> bytes:
    """The object with its stream's bytes encrypted (these objects hold no strings)."""
    if b"\nstream\n" not in body:
        return body
    head, rest = body.split(b"\nstream\n", 1)
    data = rest[: -len(b"\nendstream")]
    object_key = hashlib.md5(key + number.to_bytes(3, "little") + b"\0\0").digest()[:10]
    return head + b"\nstream\n" + _rc4(object_key, data) + b"\nendstream"


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def spaces_deflated(size: int) -> bytes:
    """`size` spaces (a multiple of 1 MiB) as a zlib stream of ~1000 to 1, in a fraction of a
    second: each MiB is one identical block (a full flush forgets the history), so it is deflated
    once and repeated, and the checksum is the one of all the spaces."""
    spaces = b" " * CHUNK
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(spaces) + packer.flush(zlib.Z_FULL_FLUSH)
    checksum = 1
    for _ in range(size // CHUNK):
        checksum = zlib.adler32(spaces, checksum)
    return b"\x78\xda" + block * (size // CHUNK) + packer.flush() + struct.pack(">I", checksum)


def text_pages_pdf(
    *,
    pages: int = 1,
    media_box: float = 612,
    shared: bytes | None = None,
    filters: int = 1,
    encrypt: bool = False,
) -> bytes:
    """`pages` pages of one line of text each, `media_box` points square; with `shared`, every
    page also draws that one deflated stream (`filters` times FlateDecode)."""
    kids = b" ".join(b"%d 0 R" % (6 + n) for n in range(pages))
    contents = b"[4 0 R 5 0 R]" if shared is not None else b"4 0 R"
    flate = b" /Filter [" + b" ".join([b"/FlateDecode"] * filters) + b"]"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        stream(TEXT),
        stream(shared, flate) if shared is not None else b"null",
    ]
    size = b"%g" % media_box
    for _ in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Contents %s"
            b" /Resources << /Font << /F1 3 0 R >> >> >>" % (size, size, contents)
        )
    return pdf_of(objects, encrypt=encrypt)


def huge_page_pdf(points: float = 14400) -> bytes:
    """One page of text whose MediaBox is `points` square (14400 pt = 200 inches)."""
    return text_pages_pdf(media_box=points)


def flate_bomb_pdf(*, pages: int = 200, inflated: int = 1 << 30, encrypt: bool = False) -> bytes:
    """`pages` pages of text sharing one content stream of `inflated` spaces (~1 MB for 1 GiB)."""
    return text_pages_pdf(pages=pages, shared=spaces_deflated(inflated), encrypt=encrypt)
