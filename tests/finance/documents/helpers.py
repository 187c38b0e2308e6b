"""Shared data and tiny PDF builders for the document-ingestion tests."""

from __future__ import annotations

import hashlib
import io
import json
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

FINANCE = SHARED_DATA / "finance"
FILINGS = FINANCE / "filings"
FINANCEBENCH = FINANCE / "financebench_dev.jsonl"


def require(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data not present: {path} (set SHARED_DATA to the data folder)")
    return path


def filing_pdfs() -> list[Path]:
    return sorted(FILINGS.glob("*.pdf")) if FILINGS.is_dir() else []


def filing_ids() -> list[str]:
    return [p.stem for p in filing_pdfs()] or ["<no filings>"]


@cache
def financebench() -> list[dict]:
    require(FINANCEBENCH)
    return [json.loads(line) for line in FINANCEBENCH.read_text().splitlines() if line.strip()]


def question(qid: str) -> dict:
    for row in financebench():
        if row["financebench_id"] == qid:
            return row
    pytest.skip(f"{qid} not in {FINANCEBENCH}")


# --- PDFs made on the spot ----------------------------------------------------------------------


def build_pdf(objects: list[bytes], trailer_extra: bytes = b"") -> bytes:
    """A PDF from numbered object bodies (1 0 obj = objects[0]), with a correct xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R " % (len(objects) + 1) + trailer_extra + b">>\n")
    out.write(b"startxref\n%d\n%%%%EOF\n" % xref)
    return out.getvalue()


_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    i = j = 0
    out = bytearray()
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def encrypted_pdf(user_password: bytes = b"secret", owner_password: bytes = b"owner") -> bytes:
    """A one-page PDF under the Standard security handler (RC4 40-bit, R2), user password set.

    The page has no strings or streams, so nothing inside needs encrypting; the /Encrypt
    dictionary alone makes a reader ask for the password.
    """
    user_pad = (user_password + _PAD)[:32]
    owner_key = hashlib.md5((owner_password + _PAD)[:32]).digest()[:5]
    o_value = _rc4(owner_key, user_pad)
    p_value = -4
    file_id = hashlib.md5(b"agentworks-encrypted-test").digest()
    key = hashlib.md5(
        user_pad + o_value + p_value.to_bytes(4, "little", signed=True) + file_id
    ).digest()[:5]
    u_value = _rc4(key, _PAD)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        b"<< /Filter /Standard /V 1 /R 2 /O <"
        + o_value.hex().encode()
        + b"> /U <"
        + u_value.hex().encode()
        + b"> /P %d >>" % p_value,
    ]
    ident = file_id.hex().encode()
    return build_pdf(objects, b"/Encrypt 4 0 R /ID [<" + ident + b"> <" + ident + b">] ")


def image_only_pdf(pages: int = 2) -> bytes:
    """A 'scanned' PDF: pages that are pictures, no text layer (PIL writes it)."""
    from PIL import Image, ImageDraw

    images = []
    for n in range(pages):
        img = Image.new("RGB", (400, 500), "white")
        ImageDraw.Draw(img).rectangle((40, 40 + n * 10, 360, 120), fill="black")
        images.append(img)
    buf = io.BytesIO()
    images[0].save(buf, "PDF", save_all=True, append_images=images[1:])
    return buf.getvalue()


def png_bytes() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (10, 10), "red").save(buf, "PNG")
    return buf.getvalue()
