"""Text cleaned of invisible control characters before it is drawn (PDF, chart images)."""

from __future__ import annotations

import re

# C0/C1 controls except newline, zero-width and bidi marks, line/paragraph separators, BOM.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")


def without_control_characters(text: str) -> str:
    """The text with tabs as spaces, line breaks as "\\n" and other control characters removed."""
    text = text.replace("\t", " ").replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)
