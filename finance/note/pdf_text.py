"""Fonts for the PDF, and text made safe for whichever font is in use."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF

from finance.note.plain_text import without_control_characters

_DEJAVU_FILES = {
    "": "DejaVuSans.ttf",
    "B": "DejaVuSans-Bold.ttf",
    "I": "DejaVuSans-Oblique.ttf",
    "BI": "DejaVuSans-BoldOblique.ttf",
}
_ASCII = str.maketrans(
    {
        "\u2010": "-",  # hyphen
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",  # en dash
        "\u2014": "--",  # em dash
        "\u2212": "-",  # minus sign
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": ",",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2026": "...",
        "\u2022": "-",
        "\u00d7": "x",
        "\u2264": "<=",
        "\u2265": ">=",
        "\u2260": "!=",
        "\u2248": "~",
        "\u2192": "->",
        "\u20ac": "EUR",
        "\u2009": " ",
        "\u202f": " ",
        "\u00a0": " ",
    }
)


@dataclass(frozen=True)
class PdfFonts:
    family: str
    unicode: bool  # False: a core font, which only has latin-1 glyphs

    def text(self, text: str) -> str:
        """The text with what the font cannot draw replaced, so fpdf2 never raises on it."""
        text = without_control_characters(text)
        if self.unicode:
            return text
        return text.translate(_ASCII).encode("latin-1", "replace").decode("latin-1")


def load_fonts(pdf: FPDF, font_dir: Path | None) -> PdfFonts:
    """DejaVu Sans from `font_dir` when all four styles are there; Helvetica otherwise."""
    if font_dir is not None and all((font_dir / name).is_file() for name in _DEJAVU_FILES.values()):
        for style, name in _DEJAVU_FILES.items():
            pdf.add_font("DejaVu", style, str(font_dir / name))
        return PdfFonts(family="DejaVu", unicode=True)
    return PdfFonts(family="Helvetica", unicode=False)
